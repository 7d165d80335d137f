#include "l2_slice.h"

#include "data_plane.h"
#include "dram.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace stu::sim {

namespace {
static_assert(golden::kLineBytes == 4 * golden::kSectorBytes, "a line is 4 sectors of 32 bytes");

// The sectors a byte mask enables in part (bit s: sector s).
std::uint8_t partly_enabled(const golden::LineByteMask& m) {
  const std::uint32_t w[4] = {std::uint32_t(m.lo), std::uint32_t(m.lo >> 32), std::uint32_t(m.hi),
                              std::uint32_t(m.hi >> 32)};
  std::uint8_t r = 0;
  for (unsigned s = 0; s < 4; ++s)
    if (w[s] != 0 && w[s] != ~0u) r |= std::uint8_t(1u << s);
  return r;
}

golden::WbEntry entry_of(const tlm::tlm_generic_payload& tr, const StoreExtension& x) {
  golden::WbEntry e;
  e.line = tr.get_address() & ~std::uint64_t(golden::kLineBytes - 1);
  e.bytes = x.bytes;
  std::memcpy(e.data.data(), tr.get_data_ptr(), golden::kLineBytes);
  e.l2 = x.l2;
  e.mergeable = x.mergeable;
  return e;
}
}  // namespace

L2Slice::L2Slice(const sc_core::sc_module_name& name, SimContext& ctx, std::unique_ptr<L2Core> core,
                 std::uint32_t index, std::pmr::memory_resource* memory)
    : Stage(name, ctx.tb, *ctx.agenda, ctx.cfg.sim.mode, 64),
      to_dram("to_dram", ctx.tb, *ctx.agenda,
              [this](tlm::tlm_generic_payload& tr, Cycle c) { dram_ack(tr, c); }),
      ctx_(ctx),
      core_(std::move(core)),
      port_(double(ctx.cfg.l2.bytes_per_clk) / double(ctx.cfg.l2.slices),
            calendar_window_bins(ctx.cfg)),
      latency_(ctx.cfg.l2.hit_latency - ctx.cfg.l1.hit_latency - 2 * ctx.cfg.xbar.latency),
      partition_(index * ctx.cfg.l2.partitions / std::max(ctx.cfg.l2.slices, 1u)),
      local_(ctx.cfg) {
  if (const std::uint32_t n = ctx.cfg.l2.partial_lines) {
    partial_limit_ = std::max<std::size_t>(1, n / std::max(ctx.cfg.l2.slices, 1u));
    partial_.reserve(partial_limit_ + 1);  // no rehash while the share fills
  }
  if (const std::uint32_t n = ctx.cfg.l2.dirty_lines)
    dirty_limit_ = std::max<std::size_t>(1, n / std::max(ctx.cfg.l2.slices, 1u));
  const golden::CacheGeometry g = hierarchy_of(ctx.cfg).l2;
  ways_ = g.ways;
  set_mask_ = std::uint32_t(g.sets() - 1);
  paid_.assign(std::size_t(g.sets()) * g.ways, 0);  // (an RTL core's geometry is no larger)
  if (!core_->keeps_data()) {
    if (!ctx_.data) throw std::logic_error("L2Slice: the model has no DataPlane");
    // Not cleared: a slot's bytes are read only after a write that allocated it wrote all 128.
    bytes_memory_ = memory ? memory : std::pmr::get_default_resource();
    bytes_size_ = paid_.size() * golden::kLineBytes;
    bytes_ = static_cast<std::uint8_t*>(bytes_memory_->allocate(bytes_size_, 64));
  }
}

L2Slice::~L2Slice() {
  if (bytes_) bytes_memory_->deallocate(bytes_, bytes_size_, 64);
}

const std::uint8_t* L2Slice::to_memory(std::uint64_t line, const golden::LineByteMask& m,
                                       const std::uint8_t* slot, const std::uint8_t* data) {
  DataPlane& d = *ctx_.data;
  if (slot) {
    d.slot_to_memory(line, m, slot);
    return d.behind() ? nullptr : slot;
  }
  d.to_memory(line, m, data);
  return data;
}

SliceLocal::SliceLocal(const SimConfig& cfg) {
  if (cfg.l2.slices <= 1) return;
  const std::uint64_t sets = hierarchy_of(cfg).l2.sets();
  while ((std::uint64_t(1) << set_bits_) < sets) ++set_bits_;
}

void L2Slice::will_serve(const tlm::tlm_generic_payload& tr) const {
  const std::uint64_t a = local(tr.get_address());
  core_->prefetch(a);
  prefetch_paid(a);
}

Cycle L2Slice::serve(tlm::tlm_generic_payload& tr, Cycle t) {
  const StoreExtension& x = store_ext(tr);
  golden::WbEntry e = entry_of(tr, x);
  const std::uint64_t line = e.line;
  e.line = local(line);
  const unsigned sectors = e.bytes.sector_count();
  // A write from an SM of another partition passed its own partition first: twice the work.
  const std::uint32_t sm_partition = x.sm * ctx_.cfg.l2.partitions / std::max(ctx_.cfg.gpu.sms, 1u);
  const double passes = sm_partition == partition_ ? 1.0 : 2.0;
  const Cycle t1 = port_.book(t, passes * sectors * golden::kSectorBytes);
  occupied_until_ = t1;
  L2Result r = core_->write(e);
  const std::size_t at = slot(r.set, r.way);
  std::uint8_t& paid = paid_[at];            // the sectors of the slot's line sent ahead
  std::uint8_t* const own = slot_bytes(at);  // the slot's bytes (null: the core keeps them)
  Stats& s = ctx_.stats;
  s.add(Metric::L2Requests, passes);
  s.add(Metric::L2Sectors, passes * sectors);
  s.add(r.hit ? Metric::L2SectorHits : Metric::L2SectorMisses, sectors);
  ctx_.record(Event::L2Write, x.instr_id, x.warp, line, t1);
  Cycle done = t1 + latency_;
  const Cycle beyond = ctx_.cfg.dram.latency - ctx_.cfg.l2.hit_latency;
  bool dirty_victim = false;   // the victim had dirty sectors not yet sent ahead
  DataPlane::Leaving leaving;  // the dirty victim's bytes
  if (r.evicted) {
    s.add(Metric::L2Evictions);
    leaving.line = global(r.victim.line);
    leaving.bytes = r.victim.dirty;
    dirty_victim = (r.victim.dirty.sectors() & ~paid) != 0;
    // The victim's bytes: DRAM's transaction carries them where this thread may read them
    // (for DRAM's log); they go to memory below (from the slot: with the write that takes it).
    const std::uint8_t* bytes = own ? (ctx_.data->behind() ? nullptr : own) : r.victim.data.data();
    const Cycle d = to_dram_line(leaving.line, leaving.bytes, bytes, t1 + latency_, nullptr,
                                 golden::DramCause::Eviction, paid);
    if (!own) ctx_.data->to_memory(leaving.line, leaving.bytes, r.victim.data.data());
    // LT: the victim must be taken by DRAM before the line is free (DRAM pushes back).
    if (mode_ == SimMode::Lt && d > beyond) done = std::max(done, d - beyond);
  }
  if (own)
    ctx_.data->write_slot(own, r.evicted ? &leaving : nullptr, r.hit, e.bytes, e.data.data());
  // A new line has nothing sent ahead; a sector written again after it was sent ahead must be
  // written back again.
  paid = r.hit ? std::uint8_t(paid & ~e.bytes.sectors()) : std::uint8_t(0);
  if (partial_limit_ && e.l2.mode != golden::WriteMode::Through) {
    const Cycle d = hold_partial(line, e.bytes, t1 + latency_);
    if (mode_ == SimMode::Lt && d > beyond) done = std::max(done, d - beyond);
  }
  // l2.dirty_lines counts dirty lines: a write that takes a dirty line's place adds none.
  if (dirty_limit_ && !r.hit && !dirty_victim && e.l2.mode != golden::WriteMode::Through) {
    const Cycle d = hold_dirty(line, t1 + latency_);
    if (mode_ == SimMode::Lt && d > beyond) done = std::max(done, d - beyond);
  }
  if (mode_ == SimMode::At && to_dram.queued() + to_send_ > kDramQueue) {
    if (e.l2.mode != golden::WriteMode::Through) {
      stalled_.push_back(&tr);
      return kLater;
    }
  }
  if (e.l2.mode == golden::WriteMode::Through) {
    const std::uint8_t* bytes = to_memory(line, e.bytes, nullptr, e.data.data());
    const Cycle d =
        to_dram_line(line, e.bytes, bytes, t1 + latency_, &tr, golden::DramCause::WriteThrough);
    if (mode_ == SimMode::At) return kLater;  // acknowledged with DRAM's acknowledgement
    done = std::max(done, d);
  }
  return done;
}

Cycle L2Slice::hold_partial(std::uint64_t line, const golden::LineByteMask& written, Cycle t) {
  // A write of whole sectors leaves no sector written in part; else the line's sectors now
  // written in part, as the cache piece holds them.
  if (!partly_enabled(written)) return 0;
  const golden::CacheLookup now = core_->lookup(local(line));
  const std::uint8_t part = now.hit ? partly_enabled(now.valid) : 0;
  if (part) {
    auto [held, fresh] = partial_.try_emplace(line, std::uint8_t(0));
    if (fresh) partial_order_.push_back(line);
    *held |= part;
  }
  // A host-speed hint: the set of a line that will be sent ahead a few writes from now.
  if (partial_order_.size() > kLookAhead) core_->prefetch(local(partial_order_[kLookAhead]));
  Cycle last = 0;
  while (partial_.size() > partial_limit_) {
    const std::uint64_t old = partial_order_.front();
    partial_order_.pop_front();
    const std::uint8_t held = *partial_.find(old);
    partial_.erase(old);
    last = std::max(last, send_ahead(old, held, true, t));
  }
  return last;
}

Cycle L2Slice::hold_dirty(std::uint64_t line, Cycle t) {
  allocated_.push_back(line);
  // A host-speed hint: the set of a line sent ahead a few allocations from now.
  if (allocated_.size() > dirty_limit_ && allocated_.size() > kLookAhead) {
    const std::uint64_t a = local(allocated_[kLookAhead]);
    core_->prefetch(a);
    prefetch_paid(a);
  }
  Cycle last = 0;
  while (allocated_.size() > dirty_limit_) {
    const std::uint64_t old = allocated_.front();
    allocated_.pop_front();
    last = std::max(last, send_ahead(old, 0xF, false, t));
  }
  // And the DRAM bank of the line the next allocation sends ahead.
  if (allocated_.size() == dirty_limit_ && ctx_.l2_hints && ctx_.l2_hints->dram)
    ctx_.l2_hints->dram->prefetch_bank(allocated_.front());
  return last;
}

Cycle L2Slice::send_ahead(std::uint64_t old, std::uint8_t want, bool partly_written, Cycle t) {
  // What is still there, dirty and (for partly written lines) written in part: a victim took
  // the line, or later stores filled the sectors, in the meantime: nothing to send.
  const golden::CacheLookup l = core_->lookup(local(old));
  if (!l.hit) return 0;
  std::uint8_t& paid = paid_[slot(l.set, l.way)];
  std::uint8_t send = std::uint8_t(want & l.dirty.sectors() & ~paid);
  if (partly_written) send &= partly_enabled(l.valid);
  if (!send) return 0;
  paid = std::uint8_t(paid | send);
  golden::LineByteMask bytes = sector_byte_mask(send);
  bytes.lo &= l.dirty.lo;
  bytes.hi &= l.dirty.hi;
  const double sectors = double(__builtin_popcount(send));
  if (partly_written) {
    // The fill data is written into the line: an L2 request, and a sector write each.
    ctx_.stats.add(Metric::L2PartialSentAhead, sectors);
    ctx_.stats.add(Metric::L2Requests);
    ctx_.stats.add(Metric::L2Sectors, sectors);
  } else {
    ctx_.stats.add(Metric::L2DirtySentAhead, sectors);
  }
  return to_dram_line(old, bytes, nullptr, t, nullptr, golden::DramCause::Eviction, 0,
                      DramData::TrafficOnly);
}

Cycle L2Slice::to_dram_line(std::uint64_t line, const golden::LineByteMask& bytes,
                            const std::uint8_t* data, Cycle t, tlm::tlm_generic_payload* waiting,
                            golden::DramCause cause, std::uint8_t paid, DramData kind) {
  tlm::tlm_generic_payload& d = ctx_.pool.acquire();
  StoreExtension& x = store_ext(d);
  x = StoreExtension{};
  x.dram_cause = cause;
  x.dram_paid_sectors = paid;
  x.dram_data = kind;
  set_line(d, line, bytes, data);
  route_of(d).tag = reinterpret_cast<std::uint64_t>(waiting);
  if (mode_ == SimMode::Lt) {
    const Cycle c = to_dram.lt(d, t);
    d.release();
    return c;
  }
  ++dram_outstanding_;
  // The write leaves when the slice is done with it (not annotated on the request: the
  // Sender would wait for its END_REQ that long, one request at a time).
  ++to_send_;
  ctx_.agenda->at(ctx_.tb.time(std::max(t, ctx_.tb.now())).value(), send_, &d, 0);
  return t;
}

void L2Slice::dram_ack(tlm::tlm_generic_payload& tr, Cycle c) {
  --dram_outstanding_;
  if (const std::uint64_t waiting = route_of(tr).tag)
    respond(*reinterpret_cast<tlm::tlm_generic_payload*>(waiting), c);
  tr.release();
  while (!stalled_.empty() && to_dram.queued() + to_send_ <= kDramQueue) {
    respond(*stalled_.front(), tb_.now() + latency_);
    stalled_.pop_front();
  }
}

void L2Slice::DramSend::due(void* item, std::uint32_t) {
  --slice.to_send_;
  slice.to_dram.at(*static_cast<tlm::tlm_generic_payload*>(item));
}

void L2Slice::DramSend::will_run(const void* item, std::uint32_t) const {
  prefetch(static_cast<const tlm::tlm_generic_payload*>(item));
}

Cycle L2Slice::flush(Cycle t) {
  flushed_.clear();
  core_->flush(flushed_);
  Cycle last = t;
  for (golden::CacheLineOut& l : flushed_) {
    // The flushed line stays in its slot (clean now): what of it was sent ahead is paid.
    const golden::CacheLookup at = core_->lookup(l.line);
    std::uint8_t paid = 0;
    const std::uint8_t* own = nullptr;
    if (at.hit) {
      paid = std::exchange(paid_[slot(at.set, at.way)], std::uint8_t(0));
      own = slot_bytes(slot(at.set, at.way));
    } else if (bytes_) {
      throw std::logic_error("L2Slice: a flushed line is not in the cache piece");
    }
    const std::uint64_t line = global(l.line);
    const std::uint8_t* bytes = to_memory(line, l.dirty, own, l.data.data());
    last = std::max(last,
                    to_dram_line(line, l.dirty, bytes, t, nullptr, golden::DramCause::Flush, paid));
  }
  return last;
}

}  // namespace stu::sim
