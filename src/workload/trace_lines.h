// Accel-Sim trace text shared by the `.traceg` and `.tracez` readers: the kernel header's
// `-KEY = VALUE` lines and one instruction line (docs/trace-formats.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "stu/workload/trace.h"

namespace stu::workload::detail {

// Unsigned number in `base` (an optional 0x before hex), all of `t`, no overflow.
bool parse_u64(std::string_view t, int base, uint64_t& v);
bool parse_u32(std::string_view v, uint32_t& out);
bool starts_with(std::string_view s, std::string_view p);
// `KEY = VALUE` header value: what follows the first '=' (blanks trimmed).
std::string_view value_of(std::string_view line);
// `(x,y,z)` or `x,y,z`.
bool parse_dim3(std::string_view v, std::array<uint32_t, 3>& d);

// One `-KEY = VALUE` header line into `k` (unknown keys are passed over: newer tracers add
// keys). False, with `err`, on a bad value.
bool parse_header_line(std::string_view line, KernelInfo& k, std::string& err);

// Empty when the instruction lines of `k.tracer_version` can be read (0, unknown, reads as
// version 4; 3 to 6 are read), else why not.
std::string check_tracer_version(const KernelInfo& k);

// One instruction line. A store (STG, STS, STL, ST) fills `r`'s pc, opcode, space, mask, width
// and addresses (kernel, CTA and warp are the caller's) and sets `is_store`; any other
// instruction is counted in `skipped` by opcode. False, with `err`, when the line is malformed.
bool parse_instruction_line(std::string_view line, const KernelInfo& k, StoreRecord& r,
                            bool& is_store, SkipCounts& skipped, std::string& err);

}  // namespace stu::workload::detail
