// L2 store action: what the L2 slice does with one global line of a store, from the store's
// cache attributes, its ordering and the line's address.
//
// Class, by the first rule that applies: an `.L2::evict_*` qualifier; a `.L2::cache_hint`
// policy that decodes (named or fractional: the primary priority for the lines whose address
// bits 10:7 are below `lines`, the secondary for the others; evict_unchanged keeps a hit's class);
// `.cs` (evict first); else normal. Mode: every store is write-back, `.wt` and `.mmio` included
// (silicon, H200 2026-11-27, device runs 17 and 21): `through_o` is for system memory, where
// `.wt` writes through (PTX ISA), and stu's global addresses are device memory. Every store
// allocates on a miss.
// Reference: golden::l2_store_class, golden::l2_store_action (include/stu/golden/cache.h).
//
// Purely combinational.
`include "stu_pkg.svh"

module stu_l2_action
  import stu_pkg::*;
(
  input  logic         has_l2_i,       // an .L2::evict_* qualifier
  input  l2_evict_e    l2_i,
  input  policy_kind_e policy_kind_i,  // PolicyOpaque without .L2::cache_hint
  input  l2_priority_e primary_i,
  input  l2_priority_e secondary_i,
  input  logic [4:0]   lines_i,
  input  logic         has_cop_i,
  input  cache_op_e    cop_i,
  input  logic [3:0]   line_bits_i,    // address bits 10:7 of the line
  output evict_class_e cls_o,
  output logic         keep_cls_o,     // a hit keeps its class (an allocation takes normal)
  output logic         through_o
);

  l2_priority_e prio;
  assign prio = 5'(line_bits_i) < lines_i ? primary_i : secondary_i;

  always_comb begin
    cls_o      = EvictNormal;
    keep_cls_o = 1'b0;
    if (has_l2_i) begin
      unique case (l2_i)
        L2EvictFirst: cls_o = EvictFirst;
        L2EvictLast:  cls_o = EvictLast;
        default:      cls_o = EvictNormal;
      endcase
    end else if (policy_kind_i == PolicyNamed || policy_kind_i == PolicyFractional) begin
      unique case (prio)
        PriorityFirst:  cls_o = EvictFirst;
        PriorityLast:   cls_o = EvictLast;
        PriorityNormal: cls_o = EvictNormal;
        default:        keep_cls_o = 1'b1;  // evict_unchanged
      endcase
    end else if (has_cop_i && cop_i == CopCs) begin
      cls_o = EvictFirst;
    end
    through_o  = 1'b0;  // device memory (above)
  end

  // (No assertions: a purely combinational block sees no reset, and its inputs are registers
  // of the store unit; `lines_i` is 1..16 by stu_policy_decode's construction.)

endmodule
