// The line arrays of a cache as stu_cache_way_select takes them, included inside stu_l1_wpath and
// stu_l2_wslice after their arrays (tag_q, cls_q, stamp_q: Lines entries of LineNumBits,
// EvictClassBits and StampBits bits). In simulation the arrays themselves; for yosys
// (STU_PACKED_PORTS, see stu_cache_way_select) plain vectors, entry i at [i*W +: W], which the
// loop below fills. The three macros name them at the way selection's ports; the includer
// undefines them after its module.
`ifdef STU_PACKED_PORTS
  logic [Lines*LineNumBits-1:0]    tags_flat;
  logic [Lines*EvictClassBits-1:0] cls_flat;
  logic [Lines*StampBits-1:0]      stamps_flat;
  always_comb begin
    for (int unsigned i = 0; i < Lines; i++) begin
      tags_flat[i*LineNumBits +: LineNumBits]      = tag_q[i];
      cls_flat[i*EvictClassBits +: EvictClassBits] = cls_q[i];
      stamps_flat[i*StampBits +: StampBits]        = stamp_q[i];
    end
  end
`define STU_CACHE_TAGS tags_flat
`define STU_CACHE_CLS cls_flat
`define STU_CACHE_STAMPS stamps_flat
`else
`define STU_CACHE_TAGS tag_q
`define STU_CACHE_CLS cls_q
`define STU_CACHE_STAMPS stamp_q
`endif
