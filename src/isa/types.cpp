#include "stu/isa/types.h"

#include <array>
#include <utility>

namespace stu::isa {
namespace {

#define STU_X_NAME(name, text) std::string_view(text),

constexpr std::array kSemNames{STU_SEM_LIST(STU_X_NAME)};
constexpr std::array kScopeNames{STU_SCOPE_LIST(STU_X_NAME)};
constexpr std::array kSpaceNames{STU_SPACE_LIST(STU_X_NAME)};
constexpr std::array kCacheOpNames{STU_CACHEOP_LIST(STU_X_NAME)};
constexpr std::array kL1Names{STU_L1EVICT_LIST(STU_X_NAME)};
constexpr std::array kL2Names{STU_L2EVICT_LIST(STU_X_NAME)};
constexpr std::array kVecNames{STU_VEC_LIST(STU_X_NAME)};
constexpr std::array kTypeNames{STU_TYPE_LIST(STU_X_NAME)};
constexpr std::array kShapeNames{STU_TMEM_SHAPE_LIST(STU_X_NAME)};

#undef STU_X_NAME

template <typename E, size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view text) {
  for (size_t i = 0; i < N; ++i) {
    if (text == names[i]) return static_cast<E>(i);
  }
  return std::nullopt;
}

template <typename E, size_t N>
std::string_view name(const std::array<std::string_view, N>& names, E v) {
  auto i = static_cast<size_t>(v);
  return i < N ? names[i] : std::string_view("?");
}

}  // namespace

std::string_view to_string(Sem v) { return name(kSemNames, v); }
std::string_view to_string(Scope v) { return name(kScopeNames, v); }
std::string_view to_string(Space v) { return name(kSpaceNames, v); }
std::string_view to_string(CacheOp v) { return name(kCacheOpNames, v); }
std::string_view to_string(L1Evict v) { return name(kL1Names, v); }
std::string_view to_string(L2Evict v) { return name(kL2Names, v); }
std::string_view to_string(Vec v) { return name(kVecNames, v); }
std::string_view to_string(DataType v) { return name(kTypeNames, v); }
std::string_view to_string(TmemShape v) { return name(kShapeNames, v); }

template <>
std::optional<Sem> from_string<Sem>(std::string_view t) {
  return lookup<Sem>(kSemNames, t);
}
template <>
std::optional<Scope> from_string<Scope>(std::string_view t) {
  return lookup<Scope>(kScopeNames, t);
}
template <>
std::optional<Space> from_string<Space>(std::string_view t) {
  return lookup<Space>(kSpaceNames, t);
}
template <>
std::optional<CacheOp> from_string<CacheOp>(std::string_view t) {
  return lookup<CacheOp>(kCacheOpNames, t);
}
template <>
std::optional<L1Evict> from_string<L1Evict>(std::string_view t) {
  return lookup<L1Evict>(kL1Names, t);
}
template <>
std::optional<L2Evict> from_string<L2Evict>(std::string_view t) {
  return lookup<L2Evict>(kL2Names, t);
}
template <>
std::optional<Vec> from_string<Vec>(std::string_view t) {
  return lookup<Vec>(kVecNames, t);
}
template <>
std::optional<DataType> from_string<DataType>(std::string_view t) {
  return lookup<DataType>(kTypeNames, t);
}
template <>
std::optional<TmemShape> from_string<TmemShape>(std::string_view t) {
  return lookup<TmemShape>(kShapeNames, t);
}

unsigned lanes_of(Vec v) {
  switch (v) {
    case Vec::V2:
      return 2;
    case Vec::V4:
      return 4;
    case Vec::V8:
      return 8;
  }
  return 1;
}

Space effective(Space s) {
  if (s == Space::Shared) return Space::SharedCta;
  if (s == Space::Param) return Space::ParamFunc;
  return s;
}

bool is_shared(Space s) {
  return s == Space::Shared || s == Space::SharedCta || s == Space::SharedCluster;
}

bool is_param(Space s) {
  return s == Space::Param || s == Space::ParamFunc || s == Space::ParamEntry;
}

unsigned regs_per_rep(TmemShape s) {
  switch (s) {
    case TmemShape::S16x128b:
      return 2;
    case TmemShape::S16x256b:
      return 4;
    default:
      return 1;
  }
}

unsigned max_num(TmemShape s) { return 128 / regs_per_rep(s); }

}  // namespace stu::isa
