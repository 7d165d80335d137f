// Way selection in a sectored cache: the set of a line (line number & the set mask in use), the
// way that holds it (a hit), else the replacement victim, by the rule of golden::SectoredCache:
// the lowest free way, else a way of the lowest eviction class (first < normal < last) and,
// within it, by cfg_random_i:
//   0 (least recently written): the smallest write stamp (golden's key (class + 1) << 56 |
//     stamp), lowest way on ties;
//   1 (random): the first way at or after start_i, cyclically over the ways in use (the cache
//     draws start_i from its generator: stu_l2_wslice).
// Only the ways below cfg_ways_i are in use. The arrays are the cache's own, indexed {set, way}.
// Shared by stu_l1_wpath and stu_l2_wslice, for their requests and their debug reads (one
// lookup and one replacement rule in the RTL, as in the golden model).
// Reference: golden::SectoredCache::write / lookup (include/stu/golden/cache.h).
//
// Purely combinational.
//
// The arrays come in as unpacked arrays (the caches' own registers, read where they are: part
// selects of vectors thousands of bits wide cost the caches' cosimulation a quarter to a third
// of its speed). yosys 0.23 reads no unpacked-array port, and silently drops the array dimension
// of a packed array of an enum, so synthesis and the formal proof (rtl/formal/) define
// STU_PACKED_PORTS: the same arrays as plain vectors, entry i at [i*W +: W], read through the
// same three macros; the rest of the text is the same.
`include "stu_pkg.svh"
`include "stu_assert.svh"

`ifdef STU_PACKED_PORTS
`define STU_WS_TAG(i) tags_i[(i)*TagBits +: TagBits]
`define STU_WS_STAMP(i) stamps_i[(i)*StampBits +: StampBits]
`define STU_WS_CLS(i) cls_i[(i)*EvictClassBits +: EvictClassBits]
`else
`define STU_WS_TAG(i) tags_i[i]
`define STU_WS_STAMP(i) stamps_i[i]
`define STU_WS_CLS(i) cls_i[i]
`endif

module stu_cache_way_select
  import stu_pkg::*;
#(
  parameter int unsigned Sets      = 64,
  parameter int unsigned Ways      = 4,
  parameter int unsigned StampBits = 32,
  localparam int unsigned SetBits  = $clog2(Sets),
  localparam int unsigned WayBits  = $clog2(Ways),
  localparam int unsigned Lines    = Sets * Ways,
  localparam int unsigned TagBits  = 64 - $clog2(LineBytes)
) (
  input  logic [SetBits-1:0]   cfg_set_mask_i,  // sets in use - 1
  input  logic [WayBits:0]     cfg_ways_i,      // ways in use, 1 .. Ways
  input  logic                 cfg_random_i,    // replacement: 1 random from start_i
  input  logic [WayBits-1:0]   start_i,         // random: where the search starts
  input  logic [TagBits-1:0]   tag_i,           // the line looked up (its line number)
  input  logic [Lines-1:0]     present_i,
`ifdef STU_PACKED_PORTS
  input  logic [Lines*TagBits-1:0]   tags_i,
  input  logic [Lines*EvictClassBits-1:0] cls_i,
  input  logic [Lines*StampBits-1:0] stamps_i,
`else
  input  logic [TagBits-1:0]   tags_i   [Lines],
  input  evict_class_e         cls_i    [Lines],
  input  logic [StampBits-1:0] stamps_i [Lines],
`endif
  output logic [Ways-1:0]      hit_ways_o,      // ways holding the line (at most one)
  output logic                 hit_o,
  output logic [SetBits-1:0]   set_o,
  output logic [WayBits-1:0]   way_o            // the hit way, else the victim
);

  logic [WayBits-1:0]   way_hit, way_vict;
  logic [WayBits-1:0]   way_mask;         // cfg_ways_i - 1: a distance modulo the ways in use
  logic [WayBits-1:0]   from_start [Ways];  // random: the way's distance from start_i
  logic [StampBits-1:0] rank [Ways];      // within a class: the stamp, or the distance
  logic [StampBits+2:0] key, best_key;  // 0 when free, else {1, class, rank}

  assign set_o = SetBits'(tag_i) & cfg_set_mask_i;

  always_comb begin
    way_mask = WayBits'(cfg_ways_i - (WayBits + 1)'(1));
    for (int unsigned w = 0; w < Ways; w++) begin
      from_start[w] = (WayBits'(w) - start_i) & way_mask;
      rank[w] = cfg_random_i ? StampBits'(from_start[w]) : `STU_WS_STAMP({set_o, WayBits'(w)});
    end
  end

  always_comb begin
    hit_ways_o = '0;
    way_hit    = '0;
    way_vict   = '0;
    best_key   = '1;
    for (int unsigned w = 0; w < Ways; w++) begin
      key = present_i[{set_o, WayBits'(w)}] ? {1'b1, `STU_WS_CLS({set_o, WayBits'(w)}), rank[w]} : '0;
      if ((WayBits + 1)'(w) < cfg_ways_i) begin
        if (present_i[{set_o, WayBits'(w)}] && `STU_WS_TAG({set_o, WayBits'(w)}) == tag_i) begin
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

  ////////////////
  // Assertions //
  ////////////////

  // The rule, restated way by way over the set's ways in use (a checker, not design: the
  // mutation tool leaves it alone): whether the line is in one of them (`seen`), whether one
  // is free, and whether no present way comes before the chosen one: a lower class, or the
  // same class and an older stamp (least recently written) or a shorter way from start_i,
  // counted up modulo the ways in use (random).
  logic                 chk_seen, chk_free, chk_first;
  logic [WayBits-1:0]   chk_way, chk_dist_w, chk_dist_v;
  // mutate: off
  always_comb begin
    chk_seen   = 1'b0;
    chk_free   = 1'b0;
    chk_first  = 1'b1;
    chk_way    = way_o;
    chk_dist_v = (chk_way - start_i) & WayBits'(cfg_ways_i - (WayBits + 1)'(1));
    chk_dist_w = '0;
    for (int unsigned w = 0; w < Ways; w++) begin
      chk_dist_w = (WayBits'(w) - start_i) & WayBits'(cfg_ways_i - (WayBits + 1)'(1));
      if ((WayBits + 1)'(w) < cfg_ways_i) begin
        if (!present_i[{set_o, WayBits'(w)}]) chk_free = 1'b1;
        else if (`STU_WS_TAG({set_o, WayBits'(w)}) == tag_i) chk_seen = 1'b1;
        if (present_i[{set_o, WayBits'(w)}] &&
            (`STU_WS_CLS({set_o, WayBits'(w)}) < `STU_WS_CLS({set_o, chk_way}) ||
             (`STU_WS_CLS({set_o, WayBits'(w)}) == `STU_WS_CLS({set_o, chk_way}) &&
              (cfg_random_i ? chk_dist_w < chk_dist_v
                            : `STU_WS_STAMP({set_o, WayBits'(w)}) <
                              `STU_WS_STAMP({set_o, chk_way}))))) chk_first = 1'b0;
      end
    end
  end
  // mutate: on

  // A hit names a way in use that holds the line; a miss means no way in use holds it.
  `ASSERT_I(HitHoldsTag_A, !hit_o || ({1'b0, way_o} < cfg_ways_i && present_i[{set_o, way_o}] &&
                                      `STU_WS_TAG({set_o, way_o}) == tag_i && hit_ways_o[way_o]))
  `ASSERT_I(MissMeansAbsent_A, hit_o || !chk_seen)
  // The victim of a miss: a way in use; a free one when the set has one; else the present way
  // of the lowest class that comes first within it (the least recently written, or the first
  // from start_i).
  `ASSERT_I(VictimInUse_A, hit_o || cfg_ways_i == '0 || {1'b0, way_o} < cfg_ways_i)
  `ASSERT_I(VictimFreeFirst_A, hit_o || !chk_free || !present_i[{set_o, way_o}])
  `ASSERT_I(VictimFirst_A, hit_o || chk_free || chk_first)

  // Parameter legality: the sets and ways are powers of two (a set is a mask of the line
  // number, a way an index), and a stamp fits golden's 56-bit key.
  `ASSERT_INIT(SetsPow2_A, Sets >= 2 && (Sets & (Sets - 1)) == 0)
  `ASSERT_INIT(WaysPow2_A, Ways >= 2 && (Ways & (Ways - 1)) == 0)
  `ASSERT_INIT(StampBits_A, StampBits >= 1 && StampBits <= 56)

endmodule

`undef STU_WS_TAG
`undef STU_WS_STAMP
`undef STU_WS_CLS
