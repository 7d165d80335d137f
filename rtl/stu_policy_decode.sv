// Cache-policy decoder: the 64-bit `.L2::cache_hint` operand of a store (from createpolicy) to
// what the L2 does with it.
//
// - Illegal: the GPU traps the store (cudaErrorIllegalInstruction; silicon-checked on an H200):
//   bit 59 set, and bit 60 clear or bits 55:52 all ones.
// - Named: CUTLASS's EVICT_NORMAL / EVICT_FIRST / EVICT_LAST values (0x1000..., 0x12F0...,
//   0x14F0...), every line of the primary priority.
// - Fractional: the layout observed for createpolicy.fractional: bits 63:60 = 1, bits 59:57 the
//   primary priority (0..3), bit 56 a secondary of evict_first (else evict_unchanged), bits 55:52
//   round(16 * fraction) - 1, bits 51:0 zero. `lines_o` = round(16 * fraction): the lines whose
//   address bits 10:7 are below it take the primary priority.
// - Opaque: anything else (no effect on the L2).
// Reference: golden::decode_policy, golden::policy_traps (include/stu/golden/policy.h).
//
// Purely combinational.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_policy_decode
  import stu_pkg::*;
(
  input  logic [63:0]  policy_i,
  output policy_kind_e kind_o,
  output l2_priority_e primary_o,
  output l2_priority_e secondary_o,
  output logic [4:0]   lines_o       // of every 16 lines, how many take the primary (1..16)
);

  localparam logic [63:0] CutlassNormal = 64'h1000_0000_0000_0000;
  localparam logic [63:0] CutlassFirst  = 64'h12F0_0000_0000_0000;
  localparam logic [63:0] CutlassLast   = 64'h14F0_0000_0000_0000;

  logic traps, named, fractional;
  assign traps      = policy_i[59] && (!policy_i[60] || &policy_i[55:52]);
  assign named      = policy_i == CutlassNormal || policy_i == CutlassFirst ||
                      policy_i == CutlassLast;
  assign fractional = policy_i[63:60] == 4'd1 && policy_i[51:0] == '0 && !policy_i[59];

  always_comb begin
    kind_o      = PolicyOpaque;
    primary_o   = PriorityUnchanged;
    secondary_o = PriorityUnchanged;
    lines_o     = 5'd16;
    if (traps) begin
      kind_o = PolicyIllegal;
    end else if (named) begin
      kind_o    = PolicyNamed;
      primary_o = policy_i == CutlassNormal ? PriorityNormal
                : policy_i == CutlassFirst  ? PriorityFirst : PriorityLast;
    end else if (fractional) begin
      kind_o      = PolicyFractional;
      primary_o   = l2_priority_e'(policy_i[58:57]);
      secondary_o = policy_i[56] ? PriorityFirst : PriorityUnchanged;
      lines_o     = 5'(policy_i[55:52]) + 5'd1;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // A trapping policy is never one that decodes.
  `ASSERT_I(Exclusive_A, !(traps && (named || fractional)))

endmodule
