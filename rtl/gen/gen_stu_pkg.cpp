// gen_stu_pkg: writes rtl/stu_pkg.svh (the SystemVerilog package every RTL block includes) and
// stu_pkg_layout.h (the bit position of every field of its packed structs, for the harnesses)
// from the golden model's constants and enumerations. One source of truth: a size, an
// enumerator or a transaction field exists in the golden headers and nowhere else.
//
//   gen_stu_pkg SVH_OUT LAYOUT_H_OUT
//
// The build writes both into the build tree; the test rtl_pkg_fresh compares the .svh with
// the checked-in rtl/stu_pkg.svh (Verilator reads the checked-in one at configure time, and
// lint needs it beside the blocks). `cmake --build build --target update_rtl_pkg` refreshes
// the checked-in copy.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "stu/golden/access.h"
#include "stu/golden/cache.h"
#include "stu/golden/config.h"
#include "stu/golden/fault.h"
#include "stu/golden/mbarrier.h"
#include "stu/golden/policy.h"
#include "stu/golden/tmem.h"
#include "stu/isa/types.h"

namespace {

using namespace stu;

// A field of a packed struct: a plain vector of `width` bits, or a nested struct / enum type.
struct Field {
  std::string name;
  unsigned width = 0;
  std::string type;  // "" for logic [width-1:0]; else the name of an enum or struct
};
struct Struct {
  std::string name;  // without the _t
  std::string comment;
  std::vector<Field> fields;  // most significant first, as in SystemVerilog
};
struct Enum {
  std::string name;  // without the _e
  std::string comment;
  unsigned width = 0;
  std::vector<std::string> values;  // enumerator names, value = index
};

unsigned clog2(unsigned v) {
  unsigned b = 0;
  while ((1u << b) < v) ++b;
  return b;
}

// The golden enumerations, taken from their X-macro lists or their to_string.
std::vector<Enum> enums() {
  std::vector<Enum> out;
  auto add = [&](std::string name, std::string comment, std::string prefix,
                 std::vector<std::string> names) {
    Enum e{std::move(name), std::move(comment), clog2(unsigned(names.size())), {}};
    if (e.width == 0) e.width = 1;
    for (const std::string& n : names) e.values.push_back(prefix + n);
    out.push_back(std::move(e));
  };
#define STU_PKG_NAME(name, ...) #name,
  add("fault", "golden::FaultKind (fault.h)", "Fault", {STU_FAULT_LIST(STU_PKG_NAME)});
  add("isa_space", "isa::Space (isa/types.h): the state space a store names", "Space",
      {STU_SPACE_LIST(STU_PKG_NAME)});
  add("tmem_shape", "isa::TmemShape (isa/types.h)", "Shape", {STU_TMEM_SHAPE_LIST(STU_PKG_NAME)});
  add("cache_op", "isa::CacheOp (isa/types.h): a store's cache operator", "Cop",
      {STU_CACHEOP_LIST(STU_PKG_NAME)});
  add("l1_evict", "isa::L1Evict (isa/types.h): a store's .L1:: eviction priority", "L1",
      {STU_L1EVICT_LIST(STU_PKG_NAME)});
  add("l2_evict", "isa::L2Evict (isa/types.h): a store's .L2:: eviction priority", "L2",
      {STU_L2EVICT_LIST(STU_PKG_NAME)});
  add("sem", "isa::Sem (isa/types.h): a store's memory-ordering semantics", "Sem",
      {STU_SEM_LIST(STU_PKG_NAME)});
  add("scope", "isa::Scope (isa/types.h): a strong store's scope", "Scope",
      {STU_SCOPE_LIST(STU_PKG_NAME)});
#undef STU_PKG_NAME
  {
    std::vector<std::string> spaces;
    for (unsigned s = 0; s <= unsigned(golden::MemSpace::Tmem); ++s) {
      std::string n(golden::to_string(golden::MemSpace(s)));
      std::string camel;
      bool up = true;
      for (char c : n) {
        if (c == ':' || c == '_') {
          up = true;
          continue;
        }
        camel += up ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
      }
      spaces.push_back(camel);
    }
    add("mem_space", "golden::MemSpace (address.h): where a store lands", "Mem", spaces);
  }
  static_assert(int(golden::MbarOpKind::ArriveExpectTx) == 4, "the list below follows MbarOpKind");
  add("mbar_op", "golden::MbarOpKind (mbarrier.h)", "MbarOp",
      {"Init", "ExpectTx", "CompleteTx", "Arrive", "ArriveExpectTx"});
  static_assert(int(golden::EvictClass::Last) == 2, "the list below follows EvictClass");
  add("evict_class", "golden::EvictClass (cache.h): a line's eviction class", "Evict",
      {"First", "Normal", "Last"});
  static_assert(int(golden::DramCause::Flush) == 2, "the list below follows DramCause");
  add("dram_cause", "golden::DramCause (cache.h): why bytes go to DRAM", "Dram",
      {"Eviction", "WriteThrough", "Flush"});
  add("misalign", "golden::MisalignMode (config.h): SASS ST's treatment of a misaligned address",
      "Misalign", {"ForceAlign", "Fault"});
  static_assert(int(golden::L2Priority::Normal) == 3, "the list below follows L2Priority");
  add("l2_priority", "golden::L2Priority (policy.h): a cache policy's eviction priority",
      "Priority", {"Unchanged", "First", "Last", "Normal"});
  static_assert(int(golden::CachePolicy::Kind::Illegal) == 3, "the list below follows Kind");
  add("policy_kind", "golden::CachePolicy::Kind (policy.h): how a .L2::cache_hint policy decodes",
      "Policy", {"Opaque", "Fractional", "Named", "Illegal"});
  return out;
}

std::vector<Struct> structs() {
  using golden::kLineBytes;
  using golden::kMaxAccessBytes;
  return {
      {"dest",
       "golden::Dest: a destination memory (space, CTA rank, thread in the CTA)",
       {{"space", 0, "mem_space"}, {"cta", 16, ""}, {"thread", 32, ""}}},
      {"lane_access",
       "golden::LaneAccess without its lane (the index of the array it sits in): one lane's "
       "aligned access, which lies within one sector",
       {{"dest", 0, "dest"},
        {"offset", 64, ""},
        {"size", clog2(kMaxAccessBytes) + 1, ""},
        {"byte_mask", kMaxAccessBytes, ""},
        {"data", kMaxAccessBytes * 8, ""}}},
      {"line_req",
       "golden::LineRequest: one 128-byte line of a warp store",
       {{"dest", 0, "dest"},
        {"line", 64, ""},
        {"sector_mask", kLineBytes / golden::kSectorBytes, ""},
        {"byte_mask", kLineBytes, ""},
        {"lane_mask", 32, ""},
        {"first_lane", 5, ""},
        {"data", kLineBytes * 8, ""}}},
      {"mbar_word",
       "golden::encode(MbarState) (mbarrier.h): stu's 64-bit mbarrier layout",
       {{"phase", 1, ""},
        {"zero", 2, ""},
        {"tx", 21, ""},
        {"expected", 20, ""},
        {"pending", 20, ""}}},
      {"tmem_write",
       "golden::TmemWrite: one 32-column run of a TMEM row written by tcgen05.st",
       {{"cta", 16, ""},
        {"lane", 16, ""},
        {"col", 16, ""},
        {"col_mask", 32, ""},
        {"unpacked", 1, ""},
        {"data", 32 * 32, ""}}},
      {"l2_write",
       "one request to an L2 slice: a CacheWrite of golden::L2StoreAction's class and mode "
       "(cache.h; a miss always allocates), or a flush (SectoredCache::flush; the other fields "
       "are ignored)",
       {{"flush", 1, ""},
        {"line", 64, ""},
        {"bytes", kLineBytes, ""},
        {"cls", 0, "evict_class"},
        {"keep_cls", 1, ""},
        {"through", 1, ""},
        {"data", kLineBytes * 8, ""}}},
      {"l2_result",
       "golden::CacheWriteResult of an L2 write (victim without its data, which leaves as a "
       "dram_write_t), or the end of a flush with the number of lines it wrote back",
       {{"flush", 1, ""},
        {"hit", 1, ""},
        {"allocated", 1, ""},
        {"evicted", 1, ""},
        {"set_idx", 32, ""},
        {"way", clog2(golden::CacheGeometry::kMaxWays), ""},
        {"flushed", 32, ""},
        {"victim_line", 64, ""},
        {"victim_cls", 0, "evict_class"},
        {"victim_valid", kLineBytes, ""},
        {"victim_dirty", kLineBytes, ""}}},
      {"l1_req",
       "one request to the L1 write path: a global golden::LineRequest's line, bytes and data "
       "with the store's cache operator and .L1:: priority (CacheAttrs), its ordering "
       "(Ordering: strong, mmio, release point) and its golden::L2StoreAction; or a drain of "
       "the write buffer (MemoryHierarchy::drain; the other fields are ignored)",
       {{"drain", 1, ""},
        {"line", 64, ""},
        {"bytes", kLineBytes, ""},
        {"has_cop", 1, ""},
        {"cop", 0, "cache_op"},
        {"has_l1", 1, ""},
        {"l1", 0, "l1_evict"},
        {"is_strong", 1, ""},
        {"is_mmio", 1, ""},
        {"is_release", 1, ""},
        {"l2_cls", 0, "evict_class"},
        {"l2_keep_cls", 1, ""},
        {"l2_through", 1, ""},
        {"data", kLineBytes * 8, ""}}},
      {"l1_event",
       "golden::L1Event (cache.h): the L1 action decoded (l1_store_action), what the L1 did "
       "and the write buffer's answer (WbPush); for a drain, drain and the entries drained",
       {{"drain", 1, ""},
        {"invalidate", 1, ""},
        {"allocate", 1, ""},
        {"cls", 0, "evict_class"},
        {"keep_cls", 1, ""},
        {"hit", 1, ""},
        {"allocated", 1, ""},
        {"invalidated", 1, ""},
        {"evicted", 1, ""},
        {"victim_line", 64, ""},
        {"merged", 1, ""},
        {"drained", 7, ""}}},
      {"dram_write",
       "golden::DramWrite (cache.h): bytes of one line written to DRAM (data 0 outside the "
       "mask)",
       {{"line", 64, ""},
        {"bytes", kLineBytes, ""},
        {"cause", 0, "dram_cause"},
        {"data", kLineBytes * 8, ""}}},
  };
}

unsigned width_of(const Field& f, const std::vector<Struct>& ss, const std::vector<Enum>& es);

unsigned struct_width(const Struct& s, const std::vector<Struct>& ss, const std::vector<Enum>& es) {
  unsigned w = 0;
  for (const Field& f : s.fields) w += width_of(f, ss, es);
  return w;
}

unsigned width_of(const Field& f, const std::vector<Struct>& ss, const std::vector<Enum>& es) {
  if (f.type.empty()) return f.width;
  for (const Enum& e : es)
    if (e.name == f.type) return e.width;
  for (const Struct& s : ss)
    if (s.name == f.type) return struct_width(s, ss, es);
  std::cerr << "gen_stu_pkg: unknown type " << f.type << "\n";
  std::exit(2);
}

// snake_case -> CamelCase: the name of a type's width parameter (dest -> DestBits).
std::string bits_param(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out + "Bits";
}

const Struct* find_struct(const std::string& n, const std::vector<Struct>& ss) {
  for (const Struct& s : ss)
    if (s.name == n) return &s;
  return nullptr;
}

std::string svh(const std::vector<Enum>& es, const std::vector<Struct>& ss) {
  std::ostringstream o;
  o << "// stu_pkg: sizes, enumerations and transaction layouts shared by the RTL blocks.\n"
       "//\n"
       "// GENERATED by rtl/gen/gen_stu_pkg.cpp from the golden model's constants (include/stu/"
       "golden/).\n"
       "// Do not edit: `cmake --build build --target update_rtl_pkg` rewrites it, and the test\n"
       "// rtl_pkg_fresh fails when it is stale. Each struct mirrors a golden transaction type "
       "(the\n"
       "// harnesses pack and unpack them with stu_pkg_layout.h, generated from the same "
       "table).\n"
       "`ifndef STU_PKG_SVH\n"
       "`define STU_PKG_SVH\n\n"
       "package stu_pkg;\n\n"
       "  // A block uses a few of these: the rest are not 'unused' in the block's lint.\n"
       "  /* verilator lint_off UNUSEDPARAM */\n\n";
  const struct {
    const char* name;
    unsigned value;
    const char* what;
  } params[] = {
      {"NumLanes", 32, "threads of a warp"},
      {"LineBytes", golden::kLineBytes, "golden::kLineBytes"},
      {"SectorBytes", golden::kSectorBytes, "golden::kSectorBytes"},
      {"NumSectors", golden::kLineBytes / golden::kSectorBytes, "sectors per line"},
      {"MaxAccessBytes", golden::kMaxAccessBytes, "golden::kMaxAccessBytes (.v8.b32, .v4.b64)"},
      {"TmemLanes", golden::kTmemLanes, "golden::kTmemLanes"},
      {"TmemColumns", golden::kTmemColumns, "golden::kTmemColumns"},
      {"TmemAllocUnit", golden::kTmemAllocUnit, "golden::kTmemAllocUnit (columns)"},
      {"MaxClusterCtas", golden::ModelConfig::kMaxClusterCtas, "golden::ModelConfig"},
      {"MbarMaxCount", unsigned(golden::kMbarMaxCount), "golden::kMbarMaxCount"},
      {"MbarMaxTx", unsigned(golden::kMbarMaxTx), "golden::kMbarMaxTx"},
  };
  o << "  // Sizes.\n";
  for (const auto& p : params)
    o << "  localparam int unsigned " << p.name << " = " << p.value << ";  // " << p.what << "\n";
  o << "\n  // Reset values of the configuration registers: the golden defaults (ModelConfig).\n";
  const golden::ModelConfig cfg;
  const struct {
    const char* name;
    uint64_t value;
  } defaults[] = {
      {"DefaultSharedBase", cfg.map.shared.base},
      {"DefaultSharedSize", cfg.map.shared.size},
      {"DefaultSharedStride", cfg.map.shared_cta_stride},
      {"DefaultLocalBase", cfg.map.local.base},
      {"DefaultLocalSize", cfg.map.local.size},
      {"DefaultParamBase", cfg.map.param.base},
      {"DefaultParamSize", cfg.map.param.size},
      {"DefaultConstBase", cfg.map.konst.base},
      {"DefaultConstSize", cfg.map.konst.size},
      {"DefaultClusterCtas", cfg.cluster_ctas},
  };
  for (const auto& d : defaults) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(d.value));
    o << "  localparam logic [63:0] " << d.name << " = 64'h" << hex << ";\n";
  }
  o << "\n";
  o << "  // Each type's width is also a localparam <Name>Bits: yosys 0.23 takes no $bits of a "
       "type.\n\n";
  for (const Enum& e : es) {
    o << "  // " << e.comment << "\n";
    o << "  typedef enum logic [" << e.width - 1 << ":0] {\n";
    for (size_t i = 0; i < e.values.size(); ++i)
      o << "    " << e.values[i] << " = " << e.width << "'d" << i
        << (i + 1 < e.values.size() ? "," : "") << "\n";
    o << "  } " << e.name << "_e;\n";
    o << "  localparam int unsigned " << bits_param(e.name) << " = " << e.width << ";  // $bits("
      << e.name << "_e)\n\n";
  }
  for (const Struct& s : ss) {
    o << "  // " << s.comment << " (" << struct_width(s, ss, es) << " bits).\n";
    o << "  typedef struct packed {\n";
    for (const Field& f : s.fields) {
      if (f.type.empty())
        o << "    logic [" << f.width - 1 << ":0] " << f.name << ";\n";
      else
        o << "    " << f.type << (find_struct(f.type, ss) ? "_t " : "_e ") << f.name << ";\n";
    }
    o << "  } " << s.name << "_t;\n";
    o << "  localparam int unsigned " << bits_param(s.name) << " = " << struct_width(s, ss, es)
      << ";  // $bits(" << s.name << "_t)\n\n";
  }
  o << "  /* verilator lint_on UNUSEDPARAM */\n\nendpackage\n\n`endif  // STU_PKG_SVH\n";
  return o.str();
}

// Flattens a struct's fields to (path, lsb, width), least significant bit positions.
void flatten(const Struct& s, unsigned lsb_of_struct, const std::string& prefix,
             const std::vector<Struct>& ss, const std::vector<Enum>& es, std::ostringstream& o) {
  unsigned msb = lsb_of_struct + struct_width(s, ss, es);
  for (const Field& f : s.fields) {
    const unsigned w = width_of(f, ss, es);
    msb -= w;
    if (const Struct* inner = f.type.empty() ? nullptr : find_struct(f.type, ss)) {
      flatten(*inner, msb, prefix + f.name + "_", ss, es, o);
      continue;
    }
    o << "inline constexpr BitField " << prefix << f.name << "{" << msb << ", " << w << "};\n";
  }
}

std::string layout_h(const std::vector<Enum>& es, const std::vector<Struct>& ss) {
  std::ostringstream o;
  o << "// GENERATED by rtl/gen/gen_stu_pkg.cpp: the bit position of every field of the packed\n"
       "// structs of rtl/stu_pkg.svh (least significant bit first), for the harnesses.\n"
       "#pragma once\n\nnamespace stu::rtl::layout {\n\n"
       "struct BitField {\n  unsigned lsb;\n  unsigned width;\n};\n\n";
  for (const Struct& s : ss) {
    o << "namespace " << s.name << " {\n";
    o << "inline constexpr unsigned kWidth = " << struct_width(s, ss, es) << ";\n";
    flatten(s, 0, "", ss, es, o);
    o << "}  // namespace " << s.name << "\n\n";
  }
  for (const Enum& e : es)
    o << "inline constexpr unsigned k" << char(std::toupper(e.name[0])) << e.name.substr(1)
      << "Width = " << e.width << ";\n";
  o << "\n}  // namespace stu::rtl::layout\n";
  return o.str();
}

bool write(const char* path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return bool(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: gen_stu_pkg SVH_OUT LAYOUT_H_OUT\n";
    return 2;
  }
  const std::vector<Enum> es = enums();
  const std::vector<Struct> ss = structs();
  if (!write(argv[1], svh(es, ss)) || !write(argv[2], layout_h(es, ss))) {
    std::cerr << "gen_stu_pkg: cannot write " << argv[1] << " or " << argv[2] << "\n";
    return 2;
  }
  return 0;
}
