// The `.sts` runner (private to src/sts): executes a Program's steps in order on one model.
// runner.cpp: set-up steps and stores; expect.cpp: expectations; dump.cpp: the memory image.
#pragma once

#include <array>
#include <cstdio>
#include <map>
#include <ostream>
#include <string>

#include "stu/golden/executor.h"
#include "stu/sts/model.h"
#include "stu/sts/program.h"
#include "stu/sts/sts.h"

namespace stu::sts {

inline std::string hex(uint64_t v, int digits = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

struct RegDef {
  std::vector<int> lo;  // one expression, or 32 (a list)
  std::vector<int> hi;
};

class Runner {
 public:
  Runner(const Program& p, StoreModel& model, const RunOptions& o, Diagnostics& d, RunSummary& sum);
  void run();

 private:
  Env env(uint64_t lane = 0) const;
  bool eval(int expr, const Env& e, uint64_t& v);
  void fail(Loc loc, const std::string& msg);
  bool kv_value(const Stmt& s, std::string_view key, uint64_t& v, uint64_t dflt);
  // The value of a register (or symbol) operand for one lane.
  bool value(const std::string& name, unsigned lane, Loc loc, golden::RegValue& out);
  bool values32(const std::string& name, Loc loc, std::array<uint64_t, 32>& out);
  void check_unclaimed();
  void step(const Stmt& s);
  void alloc(const Stmt& s);
  // The destination of a memory location.
  bool dest_of(const MemLoc& ml, golden::Dest& d, uint64_t& off);
  struct TmemRect {
    uint32_t cta, lane, col, rows, cols;
    uint64_t mask;
  };
  bool tmem_rect(const MemLoc& ml, TmemRect& r);
  // The cells (a TMEM rectangle, row-major) or elements (consecutive memory) a write or
  // memory expectation names, and how many values it takes.
  struct Span {
    bool tmem = false;
    TmemRect r{};
    size_t cols = 0;  // tmem: columns of the rectangle
    golden::Dest d;
    uint64_t off = 0;
    size_t count = 0;
  };
  bool span_of(const Stmt& s, Span& sp);
  // Value k of the statement: its own expression, or the one expression evaluated with
  // i = k (memory) or row/col (tmem).
  bool value_at(const Stmt& s, const Span& sp, size_t k, uint64_t& v);
  uint32_t& tmem_cell(const Span& sp, size_t k);
  void write(const Stmt& s);
  void tmem_alloc(const Stmt& s);
  void mbarrier(const Stmt& s);
  // --- stores ---------------------------------------------------------------------------------
  uint32_t guard_mask(const std::string& reg, bool negated, Loc loc, bool& ok);
  bool immediate(const isa::Operand& o, uint64_t& v);
  bool source(const isa::Operand& o, const std::string& name, unsigned lane, golden::RegValue& v);
  void begin_store(const Stmt& s);
  void ptx(const Stmt& s);
  void sass(const Stmt& s);
  void after_store(const Stmt& s);
  void caches(const Stmt& s);  // drain, flush
  void trace_caches(std::ostream& os);
  // --- expectations -----------------------------------------------------------------------
  bool need_last(const Stmt& s);
  void expect(const Stmt& s);
  static std::string num(uint64_t v, const std::string& what);
  // An expected fault (None: no fault) against a model that sees faults per store (a GPU);
  // false when the model reports them per lane (then the runner compares lane by lane).
  bool whole_store_fault(const Stmt& s, golden::FaultKind want, const std::string& what);
  void expect_fault(const Stmt& s);
  // The field comparisons of one expectation: each key the statement gives is compared with
  // the actual value; every difference is reported in one message.
  class FieldDiffs {
   public:
    FieldDiffs(Runner& r, const Stmt& s) : r_(r), s_(s) {}
    enum class As : uint8_t { Dec, Hex, Signed };
    void number(const char* key, uint64_t got, As as = As::Dec) {
      const KV* kv = s_.kv(key);
      uint64_t want;
      if (!kv || !r_.eval(kv->expr, r_.env(), want) || want == got) return;
      add(key, text(want, as), text(got, as));
    }
    void flag(const char* key, bool got) {
      const KV* kv = s_.kv(key);
      uint64_t want;
      if (kv && r_.eval(kv->expr, r_.env(), want) && (want != 0) != got)
        add(key, std::to_string(want != 0), std::to_string(got));
    }
    void word(const char* key, const std::string& got) {
      const KV* kv = s_.kv(key);
      if (kv && kv->word != got) add(key, kv->word, got);
    }
    void report(const std::string& what) {
      if (!diffs_.empty()) r_.fail(s_.loc, "expectation failed: " + what + ": " + diffs_);
    }

   private:
    static std::string text(uint64_t v, As as) {
      return as == As::Hex      ? hex(v)
             : as == As::Signed ? std::to_string(int64_t(v))
                                : std::to_string(v);
    }
    void add(const char* key, const std::string& want, const std::string& got) {
      diffs_ +=
          (diffs_.empty() ? "" : ", ") + std::string(key) + " expected " + want + ", actual " + got;
    }
    Runner& r_;
    const Stmt& s_;
    std::string diffs_;
  };
  void expect_line(const Stmt& s);
  void expect_order(const Stmt& s);
  void expect_cache(const Stmt& s);
  void expect_mbarrier(const Stmt& s);
  void expect_cache_line(const Stmt& s);  // expect l1|l2 ADDR ...
  void expect_dram_write(const Stmt& s);
  // The model's caches, or nullptr after reporting that it keeps none.
  bool need_caches(const Stmt& s);
  void expect_memory(const Stmt& s);
  // --- dump -------------------------------------------------------------------------------
  void rows(std::ostream& os, const uint8_t* data, size_t n, uint64_t base, int width);
  void dump_sparse(std::ostream& os, const golden::SparseMemory& mem, const char* name);
  void dump(std::ostream& os);
  const Program& p_;
  const RunOptions& o_;
  Diagnostics& d_;
  RunSummary& sum_;
  StoreModel& model_;
  golden::MachineState& m_;  // the model's image: set-up writes it, expectations read it
  std::map<std::string, RegDef, std::less<>> regs_;
  std::map<std::string, uint64_t, std::less<>> symbols_;
  uint16_t cta_ = 0, warp_ = 0;
  uint32_t mask_ = 0xFFFFFFFFu;
  golden::WarpOperands ops_;
  golden::SassRegisterFile rf_;
  golden::StoreResult last_;
  bool have_last_ = false;
  uint32_t unclaimed_ = 0;
  bool fault_claimed_ = false;  // an expectation spoke of the last store's faults (whole-store)
  // The last store emits no instruction (isa::emits_no_store): no model saw it, and its
  // (empty) result is the runner's own, for every model alike.
  bool no_instruction_ = false;
  Loc last_loc_;
};

}  // namespace stu::sts
