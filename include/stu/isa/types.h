// Value types of the store-family ISA: every qualifier family is a small enum with one
// spelling table, so the parser, the printer, the validator and the docs share one source of
// truth for the names.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace stu::isa {

// ---------------------------------------------------------------------------------------
// Tables: X(enumerator, "spelling without the leading dot")
// ---------------------------------------------------------------------------------------

#define STU_SEM_LIST(X)   \
  X(Weak, "weak")         \
  X(Volatile, "volatile") \
  X(Relaxed, "relaxed")   \
  X(Release, "release")

#define STU_SCOPE_LIST(X) \
  X(Cta, "cta")           \
  X(Cluster, "cluster")   \
  X(Gpu, "gpu")           \
  X(Sys, "sys")

// State spaces as written. `.shared` and `.shared::cta` mean the same space but are gated
// differently, so the spelling is kept; `effective()` gives the meaning.
#define STU_SPACE_LIST(X)             \
  X(Global, "global")                 \
  X(Local, "local")                   \
  X(Param, "param")                   \
  X(ParamFunc, "param::func")         \
  X(ParamEntry, "param::entry")       \
  X(Shared, "shared")                 \
  X(SharedCta, "shared::cta")         \
  X(SharedCluster, "shared::cluster") \
  X(Const, "const")

#define STU_CACHEOP_LIST(X) \
  X(Wb, "wb")               \
  X(Cg, "cg")               \
  X(Cs, "cs")               \
  X(Wt, "wt")

#define STU_L1EVICT_LIST(X)                \
  X(EvictNormal, "L1::evict_normal")       \
  X(EvictUnchanged, "L1::evict_unchanged") \
  X(EvictFirst, "L1::evict_first")         \
  X(EvictLast, "L1::evict_last")           \
  X(NoAllocate, "L1::no_allocate")

#define STU_L2EVICT_LIST(X)          \
  X(EvictNormal, "L2::evict_normal") \
  X(EvictFirst, "L2::evict_first")   \
  X(EvictLast, "L2::evict_last")

#define STU_VEC_LIST(X) \
  X(V2, "v2")           \
  X(V4, "v4")           \
  X(V8, "v8")

// Data types of the instruction (`.type`) and of declared registers/variables.
#define STU_TYPE_LIST(X) \
  X(B8, "b8")            \
  X(B16, "b16")          \
  X(B32, "b32")          \
  X(B64, "b64")          \
  X(B128, "b128")        \
  X(U8, "u8")            \
  X(U16, "u16")          \
  X(U32, "u32")          \
  X(U64, "u64")          \
  X(S8, "s8")            \
  X(S16, "s16")          \
  X(S32, "s32")          \
  X(S64, "s64")          \
  X(F16, "f16")          \
  X(F16x2, "f16x2")      \
  X(BF16, "bf16")        \
  X(BF16x2, "bf16x2")    \
  X(F32, "f32")          \
  X(F64, "f64")          \
  X(Pred, "pred")

#define STU_TMEM_SHAPE_LIST(X) \
  X(S32x32b, "32x32b")         \
  X(S16x64b, "16x64b")         \
  X(S16x128b, "16x128b")       \
  X(S16x256b, "16x256b")       \
  X(S16x32bx2, "16x32bx2")

#define STU_X_ENUM(name, text) name,

enum class Sem : uint8_t { STU_SEM_LIST(STU_X_ENUM) };
enum class Scope : uint8_t { STU_SCOPE_LIST(STU_X_ENUM) };
enum class Space : uint8_t { STU_SPACE_LIST(STU_X_ENUM) };
enum class CacheOp : uint8_t { STU_CACHEOP_LIST(STU_X_ENUM) };
enum class L1Evict : uint8_t { STU_L1EVICT_LIST(STU_X_ENUM) };
enum class L2Evict : uint8_t { STU_L2EVICT_LIST(STU_X_ENUM) };
enum class Vec : uint8_t { STU_VEC_LIST(STU_X_ENUM) };
enum class DataType : uint8_t { STU_TYPE_LIST(STU_X_ENUM) };
enum class TmemShape : uint8_t { STU_TMEM_SHAPE_LIST(STU_X_ENUM) };

// Spelling (without the dot) of each value.
std::string_view to_string(Sem v);
std::string_view to_string(Scope v);
std::string_view to_string(Space v);
std::string_view to_string(CacheOp v);
std::string_view to_string(L1Evict v);
std::string_view to_string(L2Evict v);
std::string_view to_string(Vec v);
std::string_view to_string(DataType v);
std::string_view to_string(TmemShape v);

// Lookup by spelling (without the dot); nullopt when the word is not a member.
template <typename E>
std::optional<E> from_string(std::string_view text);

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

enum class TypeKind : uint8_t { Bits, Unsigned, Signed, Float, Pred };

// Inline: the checker asks for them per source operand.
inline TypeKind kind_of(DataType t) {
  switch (t) {
    case DataType::B8:
    case DataType::B16:
    case DataType::B32:
    case DataType::B64:
    case DataType::B128:
      return TypeKind::Bits;
    case DataType::U8:
    case DataType::U16:
    case DataType::U32:
    case DataType::U64:
      return TypeKind::Unsigned;
    case DataType::S8:
    case DataType::S16:
    case DataType::S32:
    case DataType::S64:
      return TypeKind::Signed;
    case DataType::Pred:
      return TypeKind::Pred;
    default:
      return TypeKind::Float;
  }
}

// Width in bits (f16x2 = 32, pred = 1).
inline unsigned bits_of(DataType t) {
  switch (t) {
    case DataType::B8:
    case DataType::U8:
    case DataType::S8:
      return 8;
    case DataType::B16:
    case DataType::U16:
    case DataType::S16:
    case DataType::F16:
    case DataType::BF16:
      return 16;
    case DataType::B32:
    case DataType::U32:
    case DataType::S32:
    case DataType::F32:
    case DataType::F16x2:
    case DataType::BF16x2:
      return 32;
    case DataType::B64:
    case DataType::U64:
    case DataType::S64:
    case DataType::F64:
      return 64;
    case DataType::B128:
      return 128;
    case DataType::Pred:
      return 1;
  }
  return 0;
}
inline unsigned bytes_of(DataType t) { return bits_of(t) / 8; }
unsigned lanes_of(Vec v);  // 2, 4, 8

// The space a spelling denotes: Shared -> SharedCta, Param -> ParamFunc.
Space effective(Space s);
bool is_shared(Space s);  // any spelling of .shared
bool is_param(Space s);   // any spelling of .param

// tcgen05.st geometry (see docs/tmem and ../shared/spec/tmem.md).
unsigned regs_per_rep(TmemShape s);  // 32x32b/16x64b/16x32bx2: 1, 16x128b: 2, 16x256b: 4
unsigned max_num(TmemShape s);       // x128, x64 or x32

}  // namespace stu::isa

namespace stu::isa {

// The hash of the parser's qualifier table and opcode cache and of the module reader's
// symbol table: names of a few to ~60 bytes, taken 8 bytes at a time (byte-wise FNV-1a was
// a dependency chain of one multiply per byte; std::hash's murmur is slower for short keys).
struct NameHash {
  size_t operator()(std::string_view s) const noexcept {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
    uint64_t h = s.size() * kMul;
    const char* p = s.data();
    size_t n = s.size();
    for (; n >= 8; p += 8, n -= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      h = (h ^ w) * kMul;
      h ^= h >> 32;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) w |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    h = (h ^ w) * kMul;
    return size_t(h ^ (h >> 29));
  }
};

}  // namespace stu::isa
