// Way selection in one set of a sectored cache: the way that holds a line (a hit), else the
// replacement victim, the rule of golden::SectoredCache: the lowest free way, else the way with
// the smallest {eviction class, write stamp} (golden's key (class + 1) << 56 | stamp; classes
// first < normal < last, so evict-first lines go first and, within a class, the least recently
// written), lowest way on ties. Only the ways below cfg_ways_i are in use.
// Shared by stu_l1_wpath and stu_l2_wslice (one replacement rule in the RTL, as in the golden
// model). Reference: golden::SectoredCache::write (include/stu/golden/cache.h).
//
// Purely combinational.
`include "stu_pkg.svh"

module stu_cache_way_select
  import stu_pkg::*;
#(
  parameter int unsigned Ways      = 4,
  parameter int unsigned TagBits   = 57,
  parameter int unsigned StampBits = 32,
  localparam int unsigned WayBits  = Ways > 1 ? $clog2(Ways) : 1
) (
  input  logic [WayBits:0]               cfg_ways_i,  // ways in use, 1 .. Ways
  input  logic [TagBits-1:0]             tag_i,       // the line looked up
  input  logic [Ways-1:0]                present_i,   // the set's ways
  input  logic [Ways-1:0][TagBits-1:0]   tags_i,
  input  evict_class_e [Ways-1:0]        cls_i,
  input  logic [Ways-1:0][StampBits-1:0] stamps_i,
  output logic [Ways-1:0]                hit_ways_o,  // ways holding the line (at most one)
  output logic                           hit_o,
  output logic [WayBits-1:0]             way_o        // the hit way, else the victim
);

  logic [WayBits-1:0]   way_hit, way_vict;
  logic [StampBits+2:0] key, best_key;  // 0 when free, else {1, class, stamp}

  always_comb begin
    hit_ways_o = '0;
    way_hit    = '0;
    way_vict   = '0;
    best_key   = '1;
    for (int unsigned w = 0; w < Ways; w++) begin
      key = present_i[w] ? {1'b1, cls_i[w], stamps_i[w]} : '0;
      if ((WayBits + 1)'(w) < cfg_ways_i) begin
        if (present_i[w] && tags_i[w] == tag_i) begin
          hit_ways_o[w] = 1'b1;
          way_hit       = WayBits'(w);
        end
        if (w == 0 || key < best_key) begin
          best_key = key;
          way_vict = WayBits'(w);
        end
      end
    end
    hit_o = |hit_ways_o;
    way_o = hit_o ? way_hit : way_vict;
  end

endmodule
