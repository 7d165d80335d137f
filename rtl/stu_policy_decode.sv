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
      unique case (policy_i[58:57])  // golden::L2Priority's order (stu_pkg: l2_priority_e)
        2'd0:    primary_o = PriorityUnchanged;
        2'd1:    primary_o = PriorityFirst;
        2'd2:    primary_o = PriorityLast;
        default: primary_o = PriorityNormal;
      endcase
      secondary_o = policy_i[56] ? PriorityFirst : PriorityUnchanged;
      lines_o     = 5'(policy_i[55:52]) + 5'd1;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // A trapping policy is never one that decodes.
  `ASSERT_I(Exclusive_A, !(traps && (named || fractional)))
  // The GPU traps exactly the policies of the trap rule (bit 59, and bit 60 clear or bits 55:52
  // all ones), restated from the rule rather than from `traps`.
  `ASSERT_I(IllegalIffTrapRule_A,
            (kind_o == PolicyIllegal) == (policy_i[59] && (!policy_i[60] || policy_i[55:52] == 4'hF)))
  // Of every 16 lines 1..16 take the primary; only a fractional policy names fewer than 16.
  `ASSERT_I(LinesRange_A, lines_o >= 5'd1 && lines_o <= 5'd16)
  `ASSERT_I(LinesOnlyFractional_A, lines_o == 5'd16 || kind_o == PolicyFractional)
  // Only a fractional policy has a secondary priority; an opaque or trapping one changes nothing.
  `ASSERT_I(SecondaryOnlyFractional_A, secondary_o == PriorityUnchanged ||
                                       kind_o == PolicyFractional)
  `ASSERT_I(NoEffectUndecoded_A, (kind_o != PolicyOpaque && kind_o != PolicyIllegal) ||
                                 primary_o == PriorityUnchanged)

endmodule
