// The TLM model with RTL cores (tb/sim/rtl_cores.h): every block alone and all four together,
// in both timing styles, run the .sts library (tests/sts) and generator workloads and must still
// pass the golden-image check. A broken L2 core shows that the check can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "rtl_cores.h"
#include "sim_support.h"
#include "stu/diag.h"
#include "stu/sts/sts.h"
#include "tlm_model.h"
#include "workload.h"

namespace stu::tb {
namespace {

struct Case {
  std::vector<std::string> blocks;
  sim::SimMode mode;
};

void PrintTo(const Case& c, std::ostream* os) {
  for (const std::string& b : c.blocks) *os << b << " ";
  *os << (c.mode == sim::SimMode::Lt ? "lt" : "at");
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string s = info.param.blocks.size() == 1 ? info.param.blocks[0] : "all";
  return s + (info.param.mode == sim::SimMode::Lt ? "_lt" : "_at");
}

sim::SimConfig small_config(sim::SimMode mode) {
  sim::SimConfig cfg = *sim::preset("h100");
  cfg.sim.mode = mode;
  cfg.gpu.sms = 4;
  cfg.l2.slices = 4;
  return cfg;
}

sim::CoreFactory factory(const std::vector<std::string>& blocks) {
  sim::CoreFactory f;
  std::string error;
  EXPECT_TRUE(rtl_core_factory(blocks, f, error)) << error;
  return f;
}

std::vector<std::filesystem::path> sts_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(STU_SOURCE_DIR "/tests/sts"))
    if (e.path().extension() == ".sts") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every .sts file on the TLM model with the blocks' RTL cores: no error, every expectation met.
void run_sts_library(const Case& c) {
  const sim::SimConfig cfg = small_config(c.mode);
  const sim::CoreFactory f = factory(c.blocks);
  const auto files = sts_files();
  ASSERT_FALSE(files.empty());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    Diagnostics diags;
    sts::Program program;
    ASSERT_TRUE(sts::parse(text.str(), program, diags)) << path;
    const sts::RunSummary s = sim::run_sts_on_tlm(program, cfg, {}, diags, nullptr, f);
    std::ostringstream why;
    diags.print(why, path.string());
    EXPECT_TRUE(s.ok()) << path << "\n" << why.str();
    EXPECT_EQ(diags.error_count(), 0u) << path << "\n" << why.str();
  }
}

// One generator workload on the TLM model with the cores of `f`, checked against the golden
// model.
sim::RunReport run_generator(const std::string& name, const sim::SimConfig& cfg,
                             const sim::CoreFactory& f, std::uint64_t warps) {
  sim::GenParams params;
  params.warps = warps;
  params.sms = cfg.gpu.sms;
  std::string err;
  std::unique_ptr<sim::Workload> wl = sim::make_generator(name, params, err);
  EXPECT_TRUE(wl) << err;
  if (!wl) return {};
  std::unique_ptr<sim::Workload> ref = sim::make_generator(name, params, err);
  sim::TlmModel model(cfg, wl->model_config(), std::nullopt, f);
  golden::MachineState gold(ref->model_config());
  std::string e;
  EXPECT_TRUE(wl->setup(model.image(), e)) << e;
  EXPECT_TRUE(ref->setup(gold, e)) << e;
  return model.run_checked(*wl, *ref, gold);
}

// Every built-in generator (sim::generators()); those of 32 lines per warp store and the
// latency chains at a quarter of the warps, to keep the default suite short.
void run_generators(const Case& c, std::uint64_t warps) {
  const sim::SimConfig cfg = small_config(c.mode);
  const sim::CoreFactory f = factory(c.blocks);
  for (const sim::GeneratorInfo& info : sim::generators()) {
    const std::string& g = info.name;
    const bool heavy = g == "bank_conflict" || g == "strided" || g == "partial" ||
                       g == "tcgen05_epilogue" || g.rfind("chain_", 0) == 0;
    const auto t0 = std::chrono::steady_clock::now();
    const sim::RunReport r = run_generator(g, cfg, f, heavy ? warps / 4 : warps);
    EXPECT_TRUE(r.ok) << g << ": " << sim::mismatch_text(r);
    testing::Test::RecordProperty(
        std::string(g) + "_seconds",
        std::to_string(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  }
}

class TlmRtl : public testing::TestWithParam<Case> {};

TEST_P(TlmRtl, StsLibrary) { run_sts_library(GetParam()); }

TEST_P(TlmRtl, Generators) { run_generators(GetParam(), 2000); }

TEST_P(TlmRtl, LongGenerators) { run_generators(GetParam(), 20000); }

const sim::SimMode kModes[] = {sim::SimMode::Lt, sim::SimMode::At};

std::vector<Case> cases() {
  std::vector<Case> v;
  for (sim::SimMode m : kModes) {
    for (const std::string& b : sim_rtl_blocks()) v.push_back(Case{{b}, m});
    v.push_back(Case{sim_rtl_blocks(), m});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Blocks, TlmRtl, testing::ValuesIn(cases()), case_name);

// The whole h100 preset (every SM's L1 and every L2 slice an RTL core), both styles.
TEST(RtlCores, LongFullH100) {
  for (sim::SimMode m : kModes) {
    sim::SimConfig cfg = *sim::preset("h100");
    cfg.sim.mode = m;
    const sim::RunReport r = run_generator("stream", cfg, factory(sim_rtl_blocks()), 20000);
    EXPECT_TRUE(r.ok) << sim::mismatch_text(r);
  }
}

// --- the factory -----------------------------------------------------------------------------

// scatter in the AT style at 2000 warps on 4 SMs, no RTL: it once failed the DRAM check, when
// its random addresses let warps of different SMs race for the same bytes (whose final value
// is then any of theirs). Its addresses are a permutation now (no races), and it passes.
TEST(TlmModel, ScatterAtWithoutRtl) {
  const sim::RunReport r =
      run_generator("scatter", small_config(sim::SimMode::At), sim::CoreFactory{}, 2000);
  EXPECT_TRUE(r.ok) << sim::mismatch_text(r);
}

// --- the cores are in the loop ---------------------------------------------------------------

struct Calls {
  std::uint64_t l1 = 0, l2 = 0, mbar = 0, coalescer = 0;
  std::vector<std::string> names;  // each core's name() when the model let it go
};

class CountL1 final : public sim::L1Core {
 public:
  CountL1(std::unique_ptr<sim::L1Core> c, Calls* n) : c_(std::move(c)), n_(n) {}
  ~CountL1() override { n_->names.push_back("l1 " + c_->name()); }
  std::string name() const override { return c_->name(); }
  sim::L1Result store(const golden::LineRequest& req, const golden::CacheAttrs& attrs,
                      const golden::Ordering& order, bool release_point,
                      std::vector<golden::WbEntry>& out) override {
    ++n_->l1;
    return c_->store(req, attrs, order, release_point, out);
  }
  void drain(std::vector<golden::WbEntry>& out) override { c_->drain(out); }
  golden::CacheLookup lookup(std::uint64_t addr) const override { return c_->lookup(addr); }
  unsigned wb_entries() const override { return c_->wb_entries(); }
  std::string take_error() override { return c_->take_error(); }

 private:
  std::unique_ptr<sim::L1Core> c_;
  Calls* n_;
};

class CountL2 final : public sim::L2Core {
 public:
  CountL2(std::unique_ptr<sim::L2Core> c, Calls* n) : c_(std::move(c)), n_(n) {}
  ~CountL2() override { n_->names.push_back("l2 " + c_->name()); }
  std::string name() const override { return c_->name(); }
  sim::L2Result write(const golden::WbEntry& e) override {
    ++n_->l2;
    return c_->write(e);
  }
  void flush(std::vector<golden::CacheLineOut>& out) override { c_->flush(out); }
  bool keeps_data() const override { return c_->keeps_data(); }
  golden::CacheLookup lookup(std::uint64_t addr) const override { return c_->lookup(addr); }
  std::string take_error() override { return c_->take_error(); }

 private:
  std::unique_ptr<sim::L2Core> c_;
  Calls* n_;
};

class CountMbar final : public sim::MbarCore {
 public:
  CountMbar(std::unique_ptr<sim::MbarCore> c, Calls* n) : c_(std::move(c)), n_(n) {}
  ~CountMbar() override { n_->names.push_back("mbarrier " + c_->name()); }
  std::string name() const override { return c_->name(); }
  golden::MbarStep step(const golden::MbarState& s, const golden::MbarOp& op) override {
    ++n_->mbar;
    return c_->step(s, op);
  }
  std::string take_error() override { return c_->take_error(); }

 private:
  std::unique_ptr<sim::MbarCore> c_;
  Calls* n_;
};

class CountCoalescer final : public sim::Coalescer {
 public:
  CountCoalescer(std::unique_ptr<sim::Coalescer> c, Calls* n) : c_(std::move(c)), n_(n) {}
  ~CountCoalescer() override { n_->names.push_back("coalescer " + c_->name()); }
  std::string name() const override { return c_->name(); }
  void coalesce(const golden::LaneAccess* a, std::size_t n, golden::LaneGroup group,
                std::vector<golden::LineRequest>& out) override {
    ++n_->coalescer;
    c_->coalesce(a, n, group, out);
  }
  std::string take_error() override { return c_->take_error(); }

 private:
  std::unique_ptr<sim::Coalescer> c_;
  Calls* n_;
};

sim::CoreFactory counting(const sim::CoreFactory& f, Calls* n) {
  sim::CoreFactory c = f;
  c.l1 = [f, n](const golden::CacheGeometry& g, unsigned wb) -> std::unique_ptr<sim::L1Core> {
    return std::make_unique<CountL1>(f.l1(g, wb), n);
  };
  c.l2 = [f, n](const golden::CacheGeometry& g) -> std::unique_ptr<sim::L2Core> {
    return std::make_unique<CountL2>(f.l2(g), n);
  };
  c.mbar = [f, n]() -> std::unique_ptr<sim::MbarCore> {
    return std::make_unique<CountMbar>(f.mbar(), n);
  };
  c.coalescer = [f, n]() -> std::unique_ptr<sim::Coalescer> {
    return std::make_unique<CountCoalescer>(f.coalescer(), n);
  };
  return c;
}

// Every RTL core is called, and the workloads need no golden fallback of the coalescer.
TEST(RtlCores, EveryCoreIsInTheLoop) {
  for (sim::SimMode m : kModes) {
    Calls n;
    const sim::CoreFactory f = counting(factory(sim_rtl_blocks()), &n);
    for (const char* g : {"stream", "dsmem_ring"}) {
      const sim::RunReport r = run_generator(g, small_config(m), f, 200);
      EXPECT_TRUE(r.ok) << g << ": " << sim::mismatch_text(r);
    }
    EXPECT_GT(n.l1, 0u);
    EXPECT_GT(n.l2, 0u);
    EXPECT_GT(n.mbar, 0u);
    EXPECT_GT(n.coalescer, 0u);
    // The h100 caches are larger than the blocks: clamped, and named so.
    ASSERT_EQ(n.names.size(), 2 * (4 + 4 + 1 + 1));
    for (const std::string& name : n.names) {
      const bool cache = name.rfind("l1 ", 0) == 0 || name.rfind("l2 ", 0) == 0;
      if (cache)
        EXPECT_EQ(name.find("rtl (clamped to "), 3u) << name;
      else
        EXPECT_EQ(name.substr(name.find(' ') + 1), "rtl") << name;
    }
  }
}

// The registry's sim_rtl blocks, in its order.
TEST(RtlCores, Blocks) {
  EXPECT_EQ(sim_rtl_blocks(),
            (std::vector<std::string>{"coalescer", "mbarrier", "l1_wpath", "l2_wslice"}));
}

TEST(RtlCores, FactoryFillsTheNamedBlocks) {
  sim::CoreFactory f;
  std::string error;
  ASSERT_TRUE(rtl_core_factory({"l2_wslice", "mbarrier"}, f, error)) << error;
  EXPECT_FALSE(f.l1);
  EXPECT_TRUE(f.l2);
  EXPECT_TRUE(f.mbar);
  EXPECT_FALSE(f.coalescer);
  EXPECT_EQ(f.names, (std::vector<std::string>{"l2_wslice", "mbarrier"}));
}

TEST(RtlCores, UnknownBlock) {
  sim::CoreFactory f;
  std::string error;
  EXPECT_FALSE(rtl_core_factory({"l1_wpath", "x"}, f, error));
  EXPECT_EQ(error, "unknown RTL block 'x' (blocks: coalescer, mbarrier, l1_wpath, l2_wslice)");
}

// A registered block the registry does not mark sim_rtl: known, but no core for the loop.
TEST(RtlCores, RegisteredBlockWithoutACore) {
  sim::CoreFactory f;
  std::string error;
  EXPECT_FALSE(rtl_core_factory({"store_align"}, f, error));
  EXPECT_EQ(error,
            "block 'store_align' has no RTL core for the TLM model (blocks with one: coalescer, "
            "mbarrier, l1_wpath, l2_wslice)");
}

TEST(RtlCores, GeometryIsClampedAndNamed) {
  const sim::CoreFactory f = factory(sim_rtl_blocks());
  golden::CacheGeometry big{256 << 10, 16};  // 128 sets x 16 ways
  EXPECT_EQ(f.l1(big, 32)->name(), "rtl (clamped to 64 sets x 8 ways, 16-entry write buffer)");
  EXPECT_EQ(f.l1(golden::CacheGeometry{16 << 10, 4}, 8)->name(), "rtl");
  EXPECT_EQ(f.l2(golden::CacheGeometry{4 << 20, 16})->name(),
            "rtl (clamped to 128 sets x 16 ways)");
  EXPECT_EQ(f.l2(big)->name(), "rtl");
}

// The RTL L2 core reports a dirty victim, never a write-through (the L2Slice sends that itself).
TEST(RtlCores, L2WriteThroughIsNoVictim) {
  const sim::CoreFactory f = factory({"l2_wslice"});
  auto l2 = f.l2(golden::CacheGeometry{2 * 2 * 128, 2});  // 2 sets x 2 ways
  golden::WbEntry e;
  e.bytes.lo = 0xff;
  for (unsigned i = 0; i < 8; ++i) e.data[i] = uint8_t(i + 1);
  e.l2.mode = golden::WriteMode::Through;
  e.line = 0x1000;
  sim::L2Result r = l2->write(e);
  EXPECT_FALSE(r.evicted);
  // Write-back lines of the same set until the clean write-through line and then a dirty line
  // are evicted.
  e.l2.mode = golden::WriteMode::Back;
  unsigned dirty_victims = 0;
  for (uint64_t line : {0x1100, 0x1200, 0x1300}) {
    e.line = line;
    r = l2->write(e);
    if (r.evicted) {
      ++dirty_victims;
      EXPECT_EQ(r.victim.line, 0x1100u);
      EXPECT_EQ(r.victim.dirty.lo, 0xffu);
      EXPECT_EQ(r.victim.data[7], 8);
    }
  }
  EXPECT_EQ(dirty_victims, 1u);
  std::vector<golden::CacheLineOut> out;
  l2->flush(out);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(l2->take_error(), "");
}

// --- the check can fail ---------------------------------------------------------------------

// An L2 core that drops the dirty bytes of every 7th line it flushes.
class DropEvery7th final : public sim::L2Core {
 public:
  explicit DropEvery7th(std::unique_ptr<sim::L2Core> c) : c_(std::move(c)) {}
  std::string name() const override { return c_->name() + " (drops every 7th flushed line)"; }
  sim::L2Result write(const golden::WbEntry& e) override { return c_->write(e); }
  void flush(std::vector<golden::CacheLineOut>& out) override {
    std::vector<golden::CacheLineOut> all;
    c_->flush(all);
    for (golden::CacheLineOut& l : all)
      if (++n_ % 7 != 0) out.push_back(l);
  }
  bool keeps_data() const override { return c_->keeps_data(); }
  golden::CacheLookup lookup(std::uint64_t addr) const override { return c_->lookup(addr); }
  std::string take_error() override { return c_->take_error(); }

 private:
  std::unique_ptr<sim::L2Core> c_;
  unsigned n_ = 0;
};

TEST(RtlCores, BrokenL2FailsTheCheck) {
  for (sim::SimMode m : kModes) {
    sim::CoreFactory f = factory({"l2_wslice"});
    auto rtl = f.l2;
    f.l2 = [rtl](const golden::CacheGeometry& g) -> std::unique_ptr<sim::L2Core> {
      return std::make_unique<DropEvery7th>(rtl(g));
    };
    const sim::RunReport r = run_generator("stream", small_config(m), f, 500);
    EXPECT_FALSE(r.ok);
    ASSERT_TRUE(r.mismatch.has_value()) << sim::mismatch_text(r);
    EXPECT_EQ(r.mismatch->space, "dram") << sim::mismatch_text(r);
  }
}

}  // namespace
}  // namespace stu::tb

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
