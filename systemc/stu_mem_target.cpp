#include "stu_mem_target.h"

#include <algorithm>

namespace stu {

MemTarget::MemTarget(const sc_core::sc_module_name& name, std::size_t size_bytes,
                     const sc_core::sc_time& latency)
    : sc_core::sc_module(name), socket("socket"), mem_(size_bytes, 0), latency_(latency) {
  socket.register_b_transport(this, &MemTarget::b_transport);
}

void MemTarget::fill(std::uint8_t value) { std::fill(mem_.begin(), mem_.end(), value); }

void MemTarget::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const tlm::tlm_command cmd = trans.get_command();
  const sc_dt::uint64 addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  unsigned char* data = trans.get_data_ptr();
  const unsigned char* be = trans.get_byte_enable_ptr();
  const unsigned be_len = trans.get_byte_enable_length();

  trans.set_dmi_allowed(false);
  if (addr > mem_.size() || len > mem_.size() - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (be != nullptr && be_len == 0) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }

  if (cmd != tlm::TLM_IGNORE_COMMAND) {
    for (unsigned i = 0; i < len; ++i) {
      if (be != nullptr && be[i % be_len] != TLM_BYTE_ENABLED) continue;
      if (cmd == tlm::TLM_WRITE_COMMAND) {
        mem_[addr + i] = data[i];
      } else {
        data[i] = mem_[addr + i];
      }
    }
  }
  delay += latency_;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace stu
