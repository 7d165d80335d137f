#include "symbols.h"

namespace stu::ptx {

const isa::Symbol* CachedSymbols::find(std::string_view name) const {
  if (name.empty() || name.size() > kRecentName) return table_->find(name);
  const size_t n = name.size();
  const auto c = [&](size_t i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(name[i]));
  };
  // The length and three characters (the last two tell %r12 from %r21), mixed by a
  // multiplication: registers of one module rarely share a slot.
  const uint32_t key = static_cast<uint32_t>(n) | c(n - 1) << 8 | c(n > 1 ? n - 2 : 0) << 16 |
                       c(n > 2 ? 1 : 0) << 24;
  const size_t slot = (key * 0x9E3779B1u) >> (32 - kRecentBits);
  Recent& r = recent_[slot];
  const uint64_t generation = table_->generation();
  if (r.generation == generation && r.is(name)) return r.sym;
  const isa::Symbol* s = table_->find(name);
  std::char_traits<char>::copy(r.name, name.data(), n);
  r.size = static_cast<uint8_t>(n);
  r.sym = s;
  r.generation = generation;
  return s;
}

const isa::Symbol* SymbolTable::find(std::string_view name) const {
  auto it = names_.find(name);
  if (it != names_.end()) return &it->second;
  if (ranges_.empty()) return nullptr;
  size_t d = name.size();
  while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') --d;
  if (d == name.size() || d == 0) return nullptr;
  if (name.size() - d > 1 && name[d] == '0') return nullptr;  // %r01 is not in %r<N>
  if (name.size() - d > 9) return nullptr;
  uint32_t index = 0;
  for (size_t i = d; i < name.size(); ++i)
    index = index * 10 + static_cast<uint32_t>(name[i] - '0');
  auto rt = ranges_.find(name.substr(0, d));
  if (rt == ranges_.end()) return nullptr;
  // The innermost declaration wins: the last one in the list.
  for (auto r = rt->second.rbegin(); r != rt->second.rend(); ++r) {
    if (index < r->count) return &r->sym;
  }
  return nullptr;
}

bool SymbolTable::declared_here(std::string_view name) const {
  size_t start = marks_.empty() ? 0 : marks_.back();
  for (size_t i = start; i < undo_.size(); ++i) {
    if (!undo_[i].is_range && undo_[i].key == name) return true;
  }
  return false;
}

void SymbolTable::declare(std::string_view name, const isa::Symbol& sym) {
  changed();
  Undo u{false, name, false, {}, {}};
  auto it = names_.find(name);
  if (it != names_.end()) {
    u.had_previous = true;
    u.prev_sym = it->second;
    it->second = sym;
  } else {
    names_.emplace(name, sym);
  }
  if (!marks_.empty()) undo_.push_back(std::move(u));
}

void SymbolTable::declare_global(std::string_view name, const isa::Symbol& sym) {
  changed();
  // Shadowed declarations of the same name in open scopes keep shadowing it: patch their
  // undo records so that popping restores the module-level symbol.
  bool shadowed = false;
  for (Undo& u : undo_) {
    if (!u.is_range && u.key == name) {
      if (!shadowed) {
        u.had_previous = true;
        u.prev_sym = sym;
      }
      shadowed = true;
    }
  }
  if (!shadowed) names_[name] = sym;
}

void SymbolTable::declare_range(std::string_view prefix, uint32_t count, const isa::Symbol& sym) {
  changed();
  auto& list = ranges_[prefix];
  if (!marks_.empty()) undo_.push_back(Undo{true, prefix, true, {}, list});
  list.push_back(Range{count, sym});
}

void SymbolTable::pop_scope() {
  if (marks_.empty()) return;
  changed();
  size_t mark = marks_.back();
  marks_.pop_back();
  while (undo_.size() > mark) {
    Undo& u = undo_.back();
    if (u.is_range) {
      ranges_[u.key] = std::move(u.prev_ranges);
    } else if (u.had_previous) {
      names_[u.key] = u.prev_sym;
    } else {
      names_.erase(u.key);
    }
    undo_.pop_back();
  }
}

}  // namespace stu::ptx
