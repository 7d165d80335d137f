// A byte-addressed memory behind a TLM-2.0 target socket (loosely timed, b_transport only).
//
// Honours byte enables on reads and writes (a byte-enable array shorter than the data
// repeats, as in IEEE 1666-2011 14.14); annotates a fixed access latency; answers
// TLM_ADDRESS_ERROR_RESPONSE outside [0, size) and TLM_BURST_ERROR_RESPONSE for streaming.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

namespace stu {

class MemTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemTarget> socket;

  MemTarget(const sc_core::sc_module_name& name, std::size_t size_bytes,
            const sc_core::sc_time& latency);

  std::size_t size() const { return mem_.size(); }
  const std::uint8_t* contents() const { return mem_.data(); }
  // Backdoor: set every byte, without a transaction and without time.
  void fill(std::uint8_t value);

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  std::vector<std::uint8_t> mem_;
  sc_core::sc_time latency_;
};

}  // namespace stu
