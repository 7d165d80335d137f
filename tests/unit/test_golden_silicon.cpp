// The golden model against what a real GPU did: every result recorded in
// tests/data/silicon/*.json (device, date and method in the file) is replayed on the golden
// model and must come out the same. These are measurements, not the model's own output: a rule
// that fits only part of a table fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "stu/diag.h"
#include "stu/golden/executor.h"
#include "stu/isa/lowering.h"
#include "stu/isa/parser.h"

namespace {

using namespace stu;
using namespace stu::golden;
using nlohmann::json;

constexpr uint64_t kG = 0x1'0000'0000ull;  // the global allocation
constexpr uint64_t kGenericShared = 0x7F00'0000'0000ull;
constexpr uint64_t kStride = 0x100'0000ull;  // .shared::cluster: rank * stride + offset
constexpr uint64_t kOff = 0x100;             // the location, in global or in shared memory
constexpr uint64_t kMbar = 0x8;              // st.async's barrier, in the same CTA as the data

json load(const char* name) {
  const std::string path = std::string(STU_SOURCE_DIR) + "/tests/data/silicon/" + name;
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

const json& h200() {
  static const json j = load("h200-2026-11-26.json");
  return j;
}

isa::Instruction parse(const std::string& text) {
  Diagnostics d;
  auto ins = isa::parse_instruction(text, d);
  EXPECT_TRUE(ins.has_value()) << text;
  return ins.value_or(isa::Instruction{});
}

// One store of a recorded kind by the lanes of `mask`, each writing lane + 1 into every element
// of one location. Returns the value element 0 of the location holds afterwards.
struct Replay {
  std::unique_ptr<MachineState> m;
  StoreResult out;
  Scratch scratch;

  uint64_t run(const std::string& ptx, unsigned bytes, uint32_t mask) {
    ModelConfig c;
    c.cluster_ctas = 2;
    m = std::make_unique<MachineState>(c);
    EXPECT_TRUE(m->allocations().add(kG, 0x1000));
    const bool async = ptx.rfind("st.async", 0) == 0;
    const bool peer = ptx.find("::cluster") != std::string::npos;
    const bool shared = ptx.find(".shared") != std::string::npos;
    // Elements: .v2 / .v4 from the text; their width from the access's bytes.
    const unsigned elems = ptx.find(".v4") != std::string::npos   ? 4
                           : ptx.find(".v2") != std::string::npos ? 2
                                                                  : 1;
    std::string src = "%v";
    if (elems > 1) {
      src = "{%v";
      for (unsigned e = 1; e < elems; ++e) src += ", %v";
      src += "}";
    }
    const isa::Instruction ins =
        parse(ptx + " [%a], " + src + (async ? ", [%m];" : std::string(";")));
    const Dest dest{shared ? MemSpace::Shared : MemSpace::Global, uint16_t(peer ? 1 : 0), 0};
    // (A generic address outside every window is global: `st.u32` takes the same kG.)
    const uint64_t addr = !shared ? kG + kOff : peer ? kStride + kOff : kOff;
    if (async) m->set_mbar(1, kMbar, MbarState{0, 1, 1, 0});
    WarpOperands o;
    o.src.assign(size_t(elems) * 32, RegValue{});
    for (unsigned l = 0; l < 32; ++l) {
      o.addr[l] = addr;
      o.mbar[l] = kStride + kMbar;
      for (unsigned e = 0; e < elems; ++e) o.src[e * 32 + l] = RegValue{l + 1u, 0};
    }
    execute(*m, ins, WarpContext{0, 0, mask}, o, out, scratch);
    EXPECT_EQ(out.fault_mask, 0u) << ptx;
    uint64_t v = 0;
    const unsigned esize = bytes / elems;
    const uint64_t at = shared ? kOff : kG + kOff;  // the location in its space
    EXPECT_TRUE(m->read(dest, at, reinterpret_cast<uint8_t*>(&v), esize));
    // Every element of the location holds the same lane's data.
    for (unsigned e = 1; e < elems; ++e) {
      uint64_t w = 0;
      EXPECT_TRUE(m->read(dest, at + e * esize, reinterpret_cast<uint8_t*>(&w), esize));
      EXPECT_EQ(w, v) << ptx << " element " << e;
    }
    return v;
  }
};

TEST(GoldenSilicon, SameLocationWinnersOfEveryRecordedKindAndMask) {
  const json& t = h200().at("same_location");
  const json& masks = t.at("masks");
  Replay r;
  unsigned checked = 0;
  for (const json& row : t.at("rows")) {
    const std::string ptx = row.at("ptx");
    for (size_t k = 0; k < masks.size(); ++k) {
      const uint32_t mask = uint32_t(std::stoul(masks[k].get<std::string>(), nullptr, 16));
      const unsigned winner = row.at("winner")[k];
      EXPECT_EQ(r.run(ptx, row.at("bytes"), mask), winner + 1u)
          << ptx << " mask " << masks[k].get<std::string>() << ": the H200's winner is lane "
          << winner;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 78u);  // 26 kinds x 3 masks, as recorded
}

TEST(GoldenSilicon, PolicyValuesTrapOrStoreAsRecorded) {
  const json& t = h200().at("cache_hint_policy");
  const isa::Instruction ins = parse("st.global.L2::cache_hint.u32 [%a], %v, %p;");
  for (const char* list : {"trapped", "stored"}) {
    for (const json& v : t.at(list)) {
      ModelConfig c;
      MachineState m(c);
      ASSERT_TRUE(m.allocations().add(kG, 0x1000));
      WarpOperands o;
      o.src.assign(32, RegValue{0x600D, 0});
      o.addr.fill(kG);
      o.policy.fill(std::stoull(v.get<std::string>(), nullptr, 16));
      StoreResult out;
      Scratch s;
      execute(m, ins, WarpContext{0, 0, 0x1}, o, out, s);
      uint32_t word = 0;
      ASSERT_TRUE(m.read(Dest{}, kG, reinterpret_cast<uint8_t*>(&word), 4));
      if (std::string(list) == "trapped") {
        EXPECT_EQ(out.fault[0].kind, FaultKind::IllegalInstruction) << v;
        EXPECT_EQ(word, 0u) << v;
      } else {
        EXPECT_EQ(out.fault_mask, 0u) << v;
        EXPECT_EQ(word, 0x600Du) << v;
      }
    }
  }
}

// `st.async.u32 [a], b;`: ptxas emits no store, and the shared word kept its value.
TEST(GoldenSilicon, BareStAsyncStoresNothing) {
  for (const json& row : h200().at("stores_nothing")) {
    const std::string text = row.at("ptx");
    const isa::Instruction ins = parse(text.substr(0, text.find(' ')) + " [%a], %v;");
    EXPECT_TRUE(ins.stores_nothing()) << text;
    EXPECT_TRUE(isa::emits_no_store(ins, isa::Target{90, isa::Target::Suffix::Arch})) << text;
    ModelConfig c;
    c.cluster_ctas = 2;
    MachineState m(c);
    WarpOperands o;
    o.src.assign(32, RegValue{0xBAD, 0});
    o.addr.fill(kGenericShared + kStride + kOff);
    StoreResult out;
    Scratch s;
    execute(m, ins, WarpContext{0, 0, 0xFFFFFFFFu}, o, out, s);
    EXPECT_EQ(out.fault_mask, 0u);
    EXPECT_EQ(out.stored_mask, 0u);
    EXPECT_TRUE(out.lines.empty());
    uint32_t word = 1;
    ASSERT_TRUE(m.read(Dest{MemSpace::Shared, 1, 0}, kOff, reinterpret_cast<uint8_t*>(&word), 4));
    EXPECT_EQ(word, 0u);
  }
}

}  // namespace
