// Parsing of one store-family instruction from PTX text.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "stu/diag.h"
#include "stu/isa/instruction.h"
#include "stu/isa/lexer.h"

namespace stu::isa {

// Which store-family opcode a dotted word starts with (`st.global.u32` -> St,
// `st.async...` -> StAsync, `tcgen05.st...` -> Tcgen05St); nullopt for any other opcode.
std::optional<Opcode> store_opcode_of(std::string_view word);

// True when the base name of `word` (the part before the first '.') is a PTX ISA 9.0
// instruction (`ld.global.u32` -> "ld").
bool is_ptx_opcode(std::string_view word);

// Opcode words (`st.global.v4.u32`) decoded once per text: a module repeats a few dozen
// spellings thousands of times. Keys are views into the text being parsed, so a cache must
// not outlive it. Only words that decode without a diagnostic are kept.
class OpcodeCache {
 public:
  const Instruction* find(std::string_view word) const {
    if (slots_.empty()) return nullptr;
    const uint64_t h = NameHash{}(word);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == h && s.word == word) return &s.decoded;
    }
  }
  // `decoded`: the instruction after its opcode word alone, qualifier columns relative to it.
  // The table doubles when half full; a full cache (kMaxWords) takes no more words: later ones
  // are decoded every time.
  void add(std::string_view word, const Instruction& decoded) {
    if (size_ >= kMaxWords) return;
    if (2 * (size_ + 1) > slots_.size()) grow();
    const uint64_t h = NameHash{}(word);
    if (!insert(Slot{true, h, word, decoded})) return;
    ++size_;
  }
  size_t size() const { return size_; }
  static constexpr size_t kMaxWords = 8192;  // every store spelling of a module, many times over

 private:
  static constexpr size_t kFirstSlots = 256;  // open addressing, linear probing, power of two
  struct Slot {
    bool used = false;
    uint64_t hash = 0;
    std::string_view word;
    Instruction decoded;
  };
  // False when the word is there already.
  bool insert(Slot&& slot) {
    const size_t mask = slots_.size() - 1;
    size_t i = slot.hash & mask;
    while (slots_[i].used) {
      if (slots_[i].hash == slot.hash && slots_[i].word == slot.word) return false;
      i = (i + 1) & mask;
    }
    slots_[i] = std::move(slot);
    return true;
  }
  void grow() {
    std::vector<Slot> old(slots_.empty() ? kFirstSlots : 2 * slots_.size());
    old.swap(slots_);
    for (Slot& s : old) {
      if (s.used) insert(std::move(s));
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// Parses the rest of a store instruction whose opcode word is `opcode` (already consumed from
// `lx`), through its terminating `;`. `guard` is the predicate already parsed (if any).
// On success fills `out` and returns true. On a syntax error, reports it, skips to the end
// of the statement (the `;`, or the first token of a following line) and returns false.
// `cache` (optional) remembers decoded opcode words between calls on the same text.
bool parse_store(Lexer& lx, const Token& opcode, const Guard& guard, Instruction& out,
                 Diagnostics& diags, OpcodeCache* cache = nullptr);

// Convenience: parses one instruction from a single line of text (guard allowed, trailing
// `;` optional). Positions are relative to `line`.
std::optional<Instruction> parse_instruction(std::string_view text, Diagnostics& diags,
                                             uint32_t line = 1);

// Skips the rest of a statement: through the next `;` at bracket depth 0, or up to (not
// including) a token that starts a new line when `stop_at_new_line` is set. Returns the
// token that ended the skip (a `;`, or the unconsumed token, or End).
Token skip_statement(Lexer& lx, bool stop_at_new_line);

}  // namespace stu::isa
