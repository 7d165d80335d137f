// StoreExtension: what a store transaction carries that the TLM-2.0 generic payload lacks.
//
// The payload itself carries the address, the data, the byte enables and the command (always
// TLM_WRITE_COMMAND for a store). The extension adds the ordering (semantics, scope, release,
// mmio, volatile, async: golden::Ordering), the cache attributes (cache operator, L1/L2
// eviction priority, the decoded cache policy: golden::CacheAttrs), who issued it (CTA, warp,
// instruction id), the lanes it serves and its store class for latency statistics.
// Header-only; docs/tlm.md lists the fields.
#pragma once

#include <cstdint>

#include <tlm>

#include "stu/golden/cache.h"
#include "stu/golden/executor.h"

namespace stu::sim {

// The store class a latency statistic is kept under.
enum class StoreClass : std::uint8_t {
  Global,  // STG / ST.E to global memory
  Shared,  // STS to the own CTA's shared memory
  Dsmem,   // ST.E / STAS to a peer CTA's shared memory (cluster network)
  Local,   // STL (local / param)
  Tmem,    // STTM (tcgen05.st)
  Mmio,    // STG.E.MMIO.SYS
};

// What an L2 -> DRAM transaction stands for: a line's write (its bytes' traffic; the bytes
// themselves reach DRAM's memory through the data plane, DataPlane, and ride on the payload
// only for DRAM's log), or only the traffic of a partly written sector the L2 filled and wrote
// back ahead of its line's own write.
enum class DramData : std::uint8_t { Bytes, TrafficOnly };

struct StoreExtension : tlm::tlm_extension<StoreExtension> {
  golden::Ordering order;
  golden::CacheAttrs cache;
  std::uint32_t cta = 0;        // CTA id (rank within the cluster for DSMEM)
  std::uint32_t warp = 0;       // warp id within the SM
  std::uint64_t instr_id = 0;   // unique per issued warp instruction
  std::uint32_t lane_mask = 0;  // lanes whose bytes this transaction carries
  // The payload's byte enables as a mask of the line's 128 bytes (bit i: byte i of the data),
  // kept equal to its byte-enable array (set_line() writes both): what the modules test.
  golden::LineByteMask bytes;
  StoreClass store_class = StoreClass::Global;
  // Where the bytes go: the space, the CTA (shared, local) and the thread (local); the
  // payload's address is the offset in that space (global: the address; TMEM: lane << 16 |
  // column, 4-byte cells).
  golden::Dest dest;
  std::uint32_t sm = 0;        // the issuing SM
  bool release_point = false;  // the first global line of a release store
  // st.async (mbarrier form): after this line's bytes are written, complete-tx of
  // `mbar_bytes` on the barrier at shared offset `mbar_offset` of CTA dest.cta.
  bool has_mbar = false;
  std::uint64_t mbar_offset = 0;
  std::uint32_t mbar_bytes = 0;
  std::uint64_t issue_cycle = 0;  // when the LSU issued it (latency statistics)
  // LT, set by the L1: when everything that had left its write buffer by this line's arrival
  // is acknowledged by the L2, back at the LSU (what a later fence of the warp waits for).
  std::uint64_t visible_cycle = 0;
  // A barrier operation instead of data (payload data length 0): an arrive (expect-tx of
  // mbar_bytes when non-zero) from the LSU, or the complete-tx shared memory sends.
  enum class MbarOp : std::uint8_t { None, Arrive, CompleteTx };
  MbarOp mbar_op = MbarOp::None;
  // Write-buffer entries on their way to the L2: what the slice does with them, and whether
  // later weak stores could have merged (false: a strong or .mmio store).
  golden::L2StoreAction l2;
  bool mergeable = true;
  golden::DramCause dram_cause = golden::DramCause::Eviction;  // L2 -> DRAM: why
  // L2 -> DRAM, l2.partial_lines (docs/tlm.md, "L2"): the sectors (bit s: sector s) whose fill
  // read and write DRAM already had, when the slice sent them ahead. A line's later write counts
  // their bytes without their time or counters; a DramData::TrafficOnly
  // transaction is that earlier traffic (time and counters, no bytes).
  std::uint8_t dram_paid_sectors = 0;
  DramData dram_data = DramData::Bytes;

  tlm::tlm_extension_base* clone() const override { return new StoreExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const StoreExtension&>(other);
  }
};

inline const char* store_class_name(StoreClass c) {
  switch (c) {
    case StoreClass::Global:
      return "global";
    case StoreClass::Shared:
      return "shared";
    case StoreClass::Dsmem:
      return "dsmem";
    case StoreClass::Local:
      return "local";
    case StoreClass::Tmem:
      return "tmem";
    case StoreClass::Mmio:
      return "mmio";
  }
  return "?";
}

// Attaches a copy of `ext` to `trans` (replacing one already there) with set_extension, so the
// payload owns it and frees it; use with payloads that are not pooled (no memory manager), or
// release it before the payload is reused.
inline void attach_store(tlm::tlm_generic_payload& trans, const StoreExtension& ext) {
  StoreExtension* own = nullptr;
  trans.get_extension(own);
  if (own) {
    own->copy_from(ext);
  } else {
    trans.set_extension(static_cast<StoreExtension*>(ext.clone()));
  }
}

// The store attributes of `trans`, or nullptr when it carries none.
inline const StoreExtension* store_of(const tlm::tlm_generic_payload& trans) {
  return trans.get_extension<StoreExtension>();
}

// The store attributes of a payload of the model's store path, which all carry them; a
// payload without any is a wiring error of the model: std::logic_error.
[[noreturn]] void throw_no_store_extension();  // (sim_context.cpp: out of the modules' paths)
inline StoreExtension& store_ext(tlm::tlm_generic_payload& trans) {
  StoreExtension* x = trans.get_extension<StoreExtension>();
  if (__builtin_expect(!x, 0)) throw_no_store_extension();
  return *x;
}
inline const StoreExtension& store_ext(const tlm::tlm_generic_payload& trans) {
  return store_ext(const_cast<tlm::tlm_generic_payload&>(trans));
}

}  // namespace stu::sim
