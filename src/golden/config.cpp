#include "stu/golden/config.h"

#include <sstream>

namespace stu::golden {

namespace {
bool overlap(const Window& a, const Window& b) {
  return ranges_overlap(a.base, a.size, b.base, b.size);
}
// A size-0 window is disabled; any other must not wrap past 2^64 (ending at 2^64 is fine).
bool wraps(const Window& w) { return w.size != 0 && !range_valid(w.base, w.size); }
}  // namespace

std::string ModelConfig::check() const {
  std::ostringstream os;
  const struct {
    const char* name;
    const Window& w;
  } windows[] = {
      {"shared", map.shared}, {"local", map.local}, {"param", map.param}, {"const", map.konst}};
  if (cluster_ctas < 1 || cluster_ctas > kMaxClusterCtas)
    os << "cluster size " << cluster_ctas << " is outside 1..16; ";
  if (warps_per_cta < 1 || warps_per_cta > 32)
    os << "warps per CTA " << warps_per_cta << " is outside 1..32; ";
  if (shared_bytes > kMaxSharedBytes) os << "shared memory above 228 KiB; ";
  if (map.shared_cta_stride == 0 || (map.shared_cta_stride & (map.shared_cta_stride - 1)))
    os << "shared CTA stride must be a power of two; ";
  else if (shared_bytes > map.shared_cta_stride)
    os << "shared memory is larger than the per-CTA stride of the shared window; ";
  if (map.shared.size / (map.shared_cta_stride ? map.shared_cta_stride : 1) < cluster_ctas)
    os << "the shared window does not hold one stride per CTA of the cluster; ";
  if (local_bytes > map.local.size) os << "local memory is larger than the local window; ";
  if (local_bytes >= (uint64_t(1) << 40) || param_func_bytes >= (uint64_t(1) << 40))
    os << "per-thread memory must be below 1 TiB; ";
  if (kernel_param_bytes > map.param.size) os << "kernel params exceed the param window; ";
  if (const_bytes > map.konst.size) os << "const bank exceeds the const window; ";
  for (size_t i = 0; i < 4; ++i) {
    if (wraps(windows[i].w)) os << windows[i].name << " window wraps around 2^64; ";
    if (windows[i].w.base % 4096) os << windows[i].name << " window base is not 4 KiB aligned; ";
    for (size_t j = i + 1; j < 4; ++j) {
      if (overlap(windows[i].w, windows[j].w))
        os << windows[i].name << " and " << windows[j].name << " windows overlap; ";
    }
  }
  std::string s = os.str();
  if (s.size() >= 2) s.resize(s.size() - 2);
  return s;
}

}  // namespace stu::golden
