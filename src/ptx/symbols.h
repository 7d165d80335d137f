// Scoped symbol table of a PTX module: names are views into the module text; `%r<N>`
// ranges are kept as one entry and matched by prefix + index.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "stu/isa/validator.h"

namespace stu::ptx {

class SymbolTable final : public isa::SymbolLookup {
 public:
  const isa::Symbol* find(std::string_view name) const override;

  void declare(std::string_view name, const isa::Symbol& sym);
  // Declares at module scope even while inner scopes are open (never undone).
  void declare_global(std::string_view name, const isa::Symbol& sym);
  // `%r<count>`: names prefix0 .. prefix{count-1}.
  void declare_range(std::string_view prefix, uint32_t count, const isa::Symbol& sym);
  bool declared_here(std::string_view name) const;

  void push_scope() { marks_.push_back(undo_.size()); }
  void pop_scope();
  size_t depth() const { return marks_.size(); }
  // Changes whenever an answer of find() may change (a declaration, a scope exit).
  uint64_t generation() const { return generation_; }

 private:
  struct Range {
    uint32_t count;
    isa::Symbol sym;
  };
  struct Undo {
    bool is_range;
    std::string_view key;
    bool had_previous;
    isa::Symbol prev_sym;
    std::vector<Range> prev_ranges;
  };

  void changed() { ++generation_; }

  uint64_t generation_ = 1;
  std::unordered_map<std::string_view, isa::Symbol, isa::NameHash> names_;
  std::unordered_map<std::string_view, std::vector<Range>, isa::NameHash> ranges_;
  std::vector<Undo> undo_;
  std::vector<size_t> marks_;
};

// The answers of one SymbolTable with the recent ones remembered: a store names the same few
// registers again and again. One per thread (the table itself is only read while threads
// check stores); answers are valid while the table's generation is unchanged.
class CachedSymbols final : public isa::SymbolLookup {
 public:
  explicit CachedSymbols(const SymbolTable& table) : table_(&table) {}
  const isa::Symbol* find(std::string_view name) const override;

 private:
  // The name is copied: callers pass views of short-lived strings (operand texts).
  static constexpr size_t kRecentName = 22;
  template <typename T>
  static T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  struct Recent {
    char name[kRecentName] = {};
    uint8_t size = 0;
    const isa::Symbol* sym = nullptr;
    uint64_t generation = 0;
    bool is(std::string_view n) const {
      if (n.size() != size) return false;
      // Names are short: compared 8, then 4 bytes at a time, no call to memcmp.
      const char* p = n.data();
      size_t i = 0;
      for (; i + 8 <= size; i += 8) {
        if (load<uint64_t>(name + i) != load<uint64_t>(p + i)) return false;
      }
      if (i + 4 <= size) {
        if (load<uint32_t>(name + i) != load<uint32_t>(p + i)) return false;
        i += 4;
      }
      for (; i < size; ++i) {
        if (name[i] != p[i]) return false;
      }
      return true;
    }
  };
  static constexpr unsigned kRecentBits = 8;
  const SymbolTable* table_;
  mutable std::array<Recent, size_t{1} << kRecentBits> recent_{};
};

}  // namespace stu::ptx
