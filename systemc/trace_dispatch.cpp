// TraceDispatcher (trace_dispatch.h): a trace's records in the order the GPU runs them.
#include "trace_dispatch.h"

#include <algorithm>

namespace stu::sim {

std::uint32_t ctas_per_sm(const SmLimits& lim, std::uint32_t threads, std::uint32_t regs,
                          std::uint64_t shmem) {
  if (threads == 0) threads = 32;
  const std::uint64_t warps = (std::uint64_t(threads) + 31) / 32;
  std::uint64_t n = lim.max_ctas;
  n = std::min<std::uint64_t>(n, lim.max_warps / warps);
  n = std::min<std::uint64_t>(n, lim.max_threads / (warps * 32));
  if (regs != 0) {
    const std::uint64_t per_warp = (std::uint64_t(regs) * 32 + 255) / 256 * 256;
    n = std::min<std::uint64_t>(n, lim.registers / per_warp / warps);
  }
  if (shmem != 0)
    n = std::min<std::uint64_t>(n, lim.shared_bytes / ((shmem + 127) / 128 * 128 + 1024));
  return std::uint32_t(std::max<std::uint64_t>(n, 1));
}

TraceDispatcher::TraceDispatcher(workload::StoreSource& src, const SmLimits& lim)
    : src_(src), lim_(lim), sms_(std::max<std::uint32_t>(lim.sms, 1)) {
  lim_.sms = std::uint32_t(sms_.size());
}

void TraceDispatcher::hold(const workload::StoreRecord& r) {
  auto [it, added] = cta_of_.try_emplace(r.cta, std::uint32_t(ctas_.size()));
  if (added) {
    Cta c;
    c.id = r.cta;
    const auto& g = kernel_.grid;
    c.linear = r.cta[0] + std::uint64_t(std::max(g[0], 1u)) *
                              (r.cta[1] + std::uint64_t(std::max(g[1], 1u)) * r.cta[2]);
    ctas_.push_back(std::move(c));
  }
  Cta& c = ctas_[it->second];
  auto w =
      std::find_if(c.warps.begin(), c.warps.end(), [&](const Warp& x) { return x.warp == r.warp; });
  if (w == c.warps.end()) {
    c.warps.push_back(Warp{kNone, kNone, r.warp});
    w = c.warps.end() - 1;
  }
  Held h{};
  h.kind = r.kind;
  h.scope = r.scope;
  h.space = r.space;
  h.mask = r.mask;
  h.width = r.width;
  h.issued = r.issued;
  h.warp = r.warp;
  h.cta = it->second;
  h.next = kNone;
  h.index = read_ - 1;
  // Lanes at addr0 + l * step (every active lane): two numbers; else the active lanes' own.
  const unsigned first = r.mask ? unsigned(__builtin_ctz(r.mask)) : 0;
  bool regular = true;
  std::int64_t step = 0;
  bool have_step = false;
  for (unsigned l = first + 1; l < workload::kWarpSize && regular; ++l) {
    if (!(r.mask >> l & 1)) continue;
    const std::int64_t d = std::int64_t(r.addr[l] - r.addr[first]);
    if (!have_step) {
      if (d % std::int64_t(l - first) != 0) regular = false;
      step = d / std::int64_t(l - first);
      have_step = true;
    }
    if (std::uint64_t(r.addr[first] + std::uint64_t(step) * (l - first)) != r.addr[l])
      regular = false;
  }
  h.regular = regular;
  if (regular) {
    h.addr0 = r.addr[first] - std::uint64_t(step) * first;
    h.step = step;
  } else {
    h.addr0 = arena_.size();
    for (unsigned l = 0; l < workload::kWarpSize; ++l)
      if (r.mask >> l & 1) arena_.push_back(r.addr[l]);
  }
  const std::uint32_t at = std::uint32_t(held_.size());
  held_.push_back(h);
  if (w->tail == kNone)
    w->head = at;
  else
    held_[w->tail].next = at;
  w->tail = at;
}

bool TraceDispatcher::fill() {
  // CTAs of the segment just dispatched keep their SMs should they go on in this one.
  carried_.clear();
  for (const Cta& c : ctas_)
    if (c.sm != kNone) carried_.emplace(c.id, c.sm);
  held_.clear();
  arena_.clear();
  ctas_.clear();
  cta_of_.clear();
  order_.clear();
  next_cta_ = 0;
  left_ = 0;
  if (stop_) return false;
  bool new_kernel = false;
  auto start_kernel = [&](const workload::KernelInfo& k, std::uint32_t id) {
    kernel_ = k;
    kernel_id_ = id;
    in_kernel_ = true;
    new_kernel = true;
    carried_.clear();
  };
  if (have_ahead_) {  // the first record of the next kernel, read with the last segment
    have_ahead_ = false;
    start_kernel(ahead_kernel_, ahead_.kernel_id);
    ++read_;
    hold(ahead_);
  }
  const std::uint64_t limit = std::max<std::uint64_t>(lim_.buffer_records, 1);
  workload::StoreRecord r;
  while (!source_done_ && held_.size() < limit) {
    if (!src_.next(r)) {
      source_done_ = true;
      if (!src_.ok()) {
        error_ = src_.error_text();
        while (!error_.empty() && error_.back() == '\n') error_.pop_back();
        stop_ = true;
      }
      break;
    }
    ++read_;
    if (accept_) {
      std::string e = accept_(r, read_);
      if (!e.empty()) {
        error_ = std::move(e);
        stop_ = true;
        break;
      }
    }
    if (!in_kernel_ || r.kernel_id != kernel_id_) {
      if (!held_.empty()) {  // the next kernel: it starts when this one is done
        ahead_ = r;
        ahead_kernel_ = src_.kernel();
        have_ahead_ = true;
        --read_;
        break;
      }
      start_kernel(src_.kernel(), r.kernel_id);
    }
    hold(r);
  }
  if (held_.empty()) return false;
  ++segments_;
  left_ = held_.size();

  // Occupancy from the header (warps per CTA from the records when it gives no block size).
  std::uint32_t threads =
      kernel_.block[0] * std::max(kernel_.block[1], 1u) * std::max(kernel_.block[2], 1u);
  if (threads == 0) {
    std::uint32_t top = 0;
    for (const Cta& c : ctas_)
      for (const Warp& w : c.warps) top = std::max(top, w.warp + 1);
    threads = top * 32;
  }
  warps_per_cta_ = std::max<std::uint32_t>((threads + 31) / 32, 1);
  per_sm_ = ctas_per_sm(lim_, threads, kernel_.nregs, kernel_.shmem);
  if (new_kernel || notes_.empty())
    notes_.push_back(KernelNote{kernel_id_, per_sm_, warps_per_cta_, 0, 0});
  notes_.back().ctas += ctas_.size();
  ++notes_.back().segments;

  for (Sm& s : sms_) {
    s.warps.clear();
    s.slot_used.assign(per_sm_, false);
    s.rr = 0;
  }
  sm_rr_ = 0;
  for (Cta& c : ctas_) c.live = std::uint32_t(c.warps.size());
  order_.resize(ctas_.size());
  for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
  std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return ctas_[a].linear < ctas_[b].linear;
  });
  // CTAs that went on from the last segment stay on their SMs; then the first wave, breadth
  // first over the SMs, in launch order.
  std::vector<std::uint32_t> rest;
  for (std::uint32_t c : order_) {
    auto it = carried_.find(ctas_[c].id);
    if (it != carried_.end() &&
        std::count(sms_[it->second].slot_used.begin(), sms_[it->second].slot_used.end(), false) > 0)
      place(c, it->second);
    else
      rest.push_back(c);
  }
  order_ = std::move(rest);
  const std::uint32_t n = std::uint32_t(sms_.size());
  for (std::uint32_t round = 0; round < per_sm_ && next_cta_ < order_.size(); ++round)
    for (std::uint32_t s = 0; s < n && next_cta_ < order_.size(); ++s)
      if (std::count(sms_[s].slot_used.begin(), sms_[s].slot_used.end(), false) > 0)
        place(order_[next_cta_++], s);
  return true;
}

void TraceDispatcher::place(std::uint32_t cta, std::uint32_t sm) {
  Cta& c = ctas_[cta];
  Sm& s = sms_[sm];
  const auto free = std::find(s.slot_used.begin(), s.slot_used.end(), false);
  c.sm = sm;
  c.slot = std::uint32_t(free - s.slot_used.begin());
  *free = true;
  for (std::uint32_t w = 0; w < c.warps.size(); ++w) s.warps.push_back(Resident{cta, w});
}

void TraceDispatcher::unpack(const Held& h, const Cta& c, std::uint32_t sm, Dispatched& out) const {
  workload::StoreRecord& r = out.rec;
  r.kind = h.kind;
  r.scope = h.scope;
  r.space = h.space;
  r.kernel_id = kernel_id_;
  r.cta = c.id;
  r.warp = h.warp;
  r.issued = h.issued;
  r.mask = h.mask;
  r.width = h.width;
  r.addr.fill(0);
  std::size_t k = 0;
  for (unsigned l = 0; l < workload::kWarpSize; ++l) {
    if (!(h.mask >> l & 1)) continue;
    r.addr[l] = h.regular ? h.addr0 + std::uint64_t(h.step) * l : arena_[h.addr0 + k++];
  }
  out.sm = sm;
  out.slot = std::uint16_t(c.slot * warps_per_cta_ + (h.warp % std::max(warps_per_cta_, 1u)));
  out.index = h.index;
  out.shmem_base = kernel_.shmem_base;
  out.local_base = kernel_.local_base;
}

bool TraceDispatcher::next(Dispatched& out) {
  while (left_ == 0)
    if (!fill()) return false;
  // The next SM with a resident warp, then its next warp in turn.
  const std::size_t n = sms_.size();
  for (std::size_t tries = 0; tries < n; ++tries) {
    Sm& s = sms_[sm_rr_];
    const std::uint32_t sm = std::uint32_t(sm_rr_);
    sm_rr_ = (sm_rr_ + 1) % n;
    if (s.warps.empty()) continue;
    if (s.rr >= s.warps.size()) s.rr = 0;
    const Resident r = s.warps[s.rr];
    Cta& c = ctas_[r.cta];
    Warp& w = c.warps[r.warp];
    const Held& h = held_[w.head];
    unpack(h, c, sm, out);
    w.head = h.next;
    --left_;
    if (w.head != kNone) {
      ++s.rr;
      return true;
    }
    // The warp is done; its CTA when it was the last, and the next CTA takes the slot.
    s.warps.erase(s.warps.begin() + std::ptrdiff_t(s.rr));
    if (--c.live == 0) {
      s.slot_used[c.slot] = false;
      if (next_cta_ < order_.size()) place(order_[next_cta_++], sm);
    }
    return true;
  }
  return false;  // unreachable while left_ > 0: every held record belongs to a placed CTA
}

}  // namespace stu::sim
