// L2 write slice: one sectored write-back L2 slice (128-byte lines of four 32-byte sectors,
// Sets x Ways, both powers of two) with per-byte valid and dirty masks, the line data, an
// eviction class and a write stamp per line, and the DRAM write port behind it.
//
// A request (stu_pkg::l2_write_t) is either a write of one line's bytes, with the class and
// mode golden::l2_store_action gives, or a flush.
//   write  set = line[7 +: log2(Sets)]. Hit: valid |= bytes; Back: dirty |= bytes, Through:
//          dirty &= ~bytes; the class is set (kept when keep_cls); the stamp renewed. Miss: it
//          allocates the lowest free way of the set, else a line of the lowest class
//          (First < Normal < Last) and, within it, the oldest stamp (cfg_random_i 0) or the
//          first way at or after the low bits of the next value of a xorshift32 generator,
//          cyclically (cfg_random_i 1: golden's Replacement::Random; the generator steps at
//          each write that evicts a line); write-validate (only the written bytes are valid,
//          no fill); class Normal when keep_cls. Every write takes the next stamp.
//          Out, in order: the result (l2_result_t); the victim's dirty bytes to DRAM (cause
//          Eviction) when it had any; the written bytes to DRAM (cause WriteThrough) when the
//          mode is Through (hit or miss).
//   flush  every present line with dirty bytes, ascending set then way, goes to DRAM (cause
//          Flush) and is made clean (it stays valid); then a result with flush and the count.
// Geometry: the parameters are the maxima (the arrays' sizes); the configuration inputs give the
// sets and ways in use (set = line[7 +: log2(Sets)] & cfg_set_mask_i; only ways below cfg_ways_i
// are looked up, replaced or flushed), so one model serves every geometry up to the maxima.
// Debug read: dbg_line_i looked up combinationally (as SectoredCache::lookup: hit, set, way,
// valid bytes, dirty bytes, class), for the RTL .sts model.
// Reference: golden::SectoredCache::write / flush and MemoryHierarchy's DRAM writes (cache.h).
//
// Microarchitecture: the tag/class/stamp/mask arrays (registers) are looked up combinationally
// from the request and written at the edge that accepts it. The line data (Sets x Ways x 1024
// bits) sits behind a memory wrapper with a synchronous read port (stu_ram_1r1w, as an SRAM
// macro would): a write writes only the request's bytes (byte enables; the bytes of a new line
// it does not write are never read, since only dirty bytes leave), and the victim's data is
// read at the edge that accepts the write that evicts it (read first), for the DRAM write the
// cycle after; a flush reads the way it scans. The outputs are registers, presented one at a
// time, result then DRAM writes, so the result port and the DRAM port are never valid together.
// A flush scans one way per cycle.
// Latency 1 cycle to the result; throughput 1 write per cycle when it sends nothing to DRAM
// (the next request is taken in the cycle the result leaves), plus 1 cycle per DRAM write; a
// flush takes (sets in use) * (ways in use) cycles plus 1 per dirty line.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_l2_wslice
  import stu_pkg::*;
#(
  // The maxima; the geometry in use is the configuration inputs'.
  parameter int unsigned Sets = 64,  // power of two, at least 2
  parameter int unsigned Ways = 4    // power of two, at least 2, at most 64
) (
  input  logic        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration (static: change it only in reset): the sets in use minus 1 (sets a power
  // of two, 1..Sets) and the ways in use (a power of two, 1..Ways).
  input  logic [$clog2(Sets)-1:0] cfg_set_mask_i,
  input  logic [$clog2(Ways):0]   cfg_ways_i,
  // Replacement within a class: 0 the least recently written line, 1 a way drawn at random.
  input  logic                    cfg_random_i,
  // Debug read (a backdoor, combinational): the line of dbg_line_i as
  // golden::SectoredCache::lookup reports it.
  /* verilator lint_off UNUSEDSIGNAL */  // the offset in the line is ignored
  input  logic [63:0]  dbg_line_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic         dbg_hit_o,
  output logic [31:0]  dbg_set_o,
  output logic [7:0]   dbg_way_o,
  output logic [127:0] dbg_valid_o,
  output logic [127:0] dbg_dirty_o,
  output evict_class_e dbg_cls_o,
  // Requests in.
  input  logic        req_valid_i,
  output logic        req_ready_o,
  input  l2_write_t   req_i,
  // Results out (one per request).
  output logic        res_valid_o,
  input  logic        res_ready_i,
  output l2_result_t  res_o,
  // DRAM writes out.
  output logic        dram_valid_o,
  input  logic        dram_ready_i,
  output dram_write_t dram_o
);

  localparam int unsigned Lines   = Sets * Ways;
  localparam int unsigned SetBits = $clog2(Sets);
  localparam int unsigned WayBits = $clog2(Ways);
  localparam int unsigned IdxBits = $clog2(Lines);
  localparam int unsigned LineNumBits = 64 - $clog2(LineBytes);  // line address >> 7
  localparam int unsigned StampBits = 32;

  typedef logic [LineBytes-1:0]   mask_t;
  typedef logic [LineBytes*8-1:0] data_t;

  // Bytes to bits.
  function automatic logic [LineBytes*8-1:0] expand(mask_t m);  // (yosys 0.23: no typedef result)
    data_t d;
    for (int unsigned b = 0; b < LineBytes; b++) d[b*8 +: 8] = {8{m[b]}};
    expand = d;
  endfunction

  ////////////
  // Arrays //
  ////////////

  logic       [Lines-1:0]       present_q;  // reset: every way free
  logic       [LineNumBits-1:0] tag_q   [Lines];
  evict_class_e                 cls_q   [Lines];
  logic       [StampBits-1:0]   stamp_q [Lines];
  mask_t                        valid_q [Lines];
  mask_t                        dirty_q [Lines];
  logic       [StampBits-1:0]   counter_q, counter_d;
  // The arrays as the way selection takes them (the arrays, or plain vectors for yosys).
`include "stu_cache_flat.svh"
  // Random replacement: the xorshift32 generator (golden::SectoredCache::kRandomSeed, and its
  // next value); the search starts at its low bits.
  localparam logic [31:0]       RandomSeed = 32'h2545F491;
  logic       [31:0]            rand_q, rand_d, rand_next;

  /////////////
  // Control //
  /////////////

  typedef enum logic [2:0] {
    StIdle,   // ready for a request
    StRes,    // result presented
    StVict,   // victim's dirty bytes presented to DRAM
    StThru,   // written bytes presented to DRAM (write-through)
    StScan,   // flush: looking at way scan_q
    StFlush   // flush: a dirty line presented to DRAM
  } state_e;

  state_e           state_q, state_d;
  logic             vict_pend_q, vict_pend_d;  // after the result: victim to DRAM
  logic             thru_pend_q, thru_pend_d;  // then: write-through to DRAM
  l2_result_t       res_q, res_d;
  // The victim or flushed line for DRAM; its data comes from the data memory's read port.
  typedef struct packed {
    logic [63:0] line;
    mask_t       bytes;
    dram_cause_e cause;
  } vict_t;
  vict_t            vict_q, vict_d;
  dram_write_t      thru_q, thru_d;
  logic [IdxBits-1:0] scan_q, scan_d;
  logic [31:0]        flushed_q, flushed_d;

  // The request can be taken when nothing else is to be presented after this cycle.
  always_comb begin
    unique case (state_q)
      StIdle:  req_ready_o = 1'b1;
      StRes:   req_ready_o = res_ready_i && !vict_pend_q && !thru_pend_q;
      StVict:  req_ready_o = dram_ready_i && !thru_pend_q;
      StThru:  req_ready_o = dram_ready_i;
      default: req_ready_o = 1'b0;
    endcase
  end

  logic take;
  assign take = req_valid_i && req_ready_o;

  ////////////
  // Lookup //
  ////////////

  logic [SetBits-1:0]     set;
  logic [LineNumBits-1:0] line_num;
  logic [Ways-1:0]        hit_way;
  logic                   hit;
  logic [WayBits-1:0]     way;
  logic [IdxBits-1:0]     idx;

  // The generator's next value: x ^= x << 13; x ^= x >> 17; x ^= x << 5.
  always_comb begin
    rand_next = rand_q ^ (rand_q << 13);
    rand_next = rand_next ^ (rand_next >> 17);
    rand_next = rand_next ^ (rand_next << 5);
  end

  // The request's set and way (hit, else the victim), by the shared lookup.
  assign line_num = req_i.line[63:$clog2(LineBytes)];
  stu_cache_way_select #(
    .Sets     (Sets),
    .Ways     (Ways),
    .StampBits(StampBits)
  ) u_way_select (
    .cfg_set_mask_i,
    .cfg_ways_i,
    .cfg_random_i,
    .start_i   (rand_next[WayBits-1:0]),
    .tag_i     (line_num),
    .present_i (present_q),
    .tags_i    (`STU_CACHE_TAGS),
    .cls_i     (`STU_CACHE_CLS),
    .stamps_i  (`STU_CACHE_STAMPS),
    .hit_ways_o(hit_way),
    .hit_o     (hit),
    .set_o     (set),
    .way_o     (way)
  );
  assign idx = {set, way};

  ///////////////////////
  // Write and results //
  ///////////////////////

  logic         write, alloc, evict;
  data_t        bits_req;
  mask_t        line_valid, line_dirty;
  evict_class_e line_cls;
  // Array writes: a whole way (write) or the dirty mask of the scanned way (flush).
  logic         line_we, clean_we;
  // The flush scan visits the ways in use of the sets in use, {set, way} ascending.
  logic               scan_last;
  logic [IdxBits-1:0] scan_next;
  always_comb begin
    scan_last = scan_q[IdxBits-1 -: SetBits] == cfg_set_mask_i &&
                (WayBits+1)'(scan_q[WayBits-1:0]) == cfg_ways_i - (WayBits+1)'(1);
    scan_next = (WayBits+1)'(scan_q[WayBits-1:0]) == cfg_ways_i - (WayBits+1)'(1)
              ? {scan_q[IdxBits-1 -: SetBits] + SetBits'(1), WayBits'(0)}
              : scan_q + IdxBits'(1);
  end

  always_comb begin
    write      = take && !req_i.flush;
    alloc      = write && !hit;
    evict      = alloc && present_q[idx];
    bits_req   = expand(req_i.bytes);
    line_valid = req_i.bytes;
    line_dirty = req_i.through ? '0 : req_i.bytes;
    line_cls   = req_i.keep_cls ? EvictNormal : req_i.cls;
    if (hit) begin
      line_valid = valid_q[idx] | req_i.bytes;
      line_dirty = req_i.through ? dirty_q[idx] & ~req_i.bytes : dirty_q[idx] | req_i.bytes;
      line_cls   = req_i.keep_cls ? cls_q[idx] : req_i.cls;
    end
    line_we  = write;
    clean_we = state_q == StScan && present_q[scan_q] && |dirty_q[scan_q];

    state_d     = state_q;
    vict_pend_d = vict_pend_q;
    thru_pend_d = thru_pend_q;
    res_d       = res_q;
    vict_d      = vict_q;
    thru_d      = thru_q;
    scan_d      = scan_q;
    flushed_d   = flushed_q;
    counter_d   = line_we ? counter_q + StampBits'(1) : counter_q;
    rand_d      = evict && cfg_random_i ? rand_next : rand_q;

    // The presented transaction leaves.
    unique case (state_q)
      StRes: if (res_ready_i) begin
        state_d = vict_pend_q ? StVict : thru_pend_q ? StThru : StIdle;
      end
      StVict: if (dram_ready_i) begin
        vict_pend_d = 1'b0;
        state_d     = thru_pend_q ? StThru : StIdle;
      end
      StThru: if (dram_ready_i) begin
        thru_pend_d = 1'b0;
        state_d     = StIdle;
      end
      StScan: begin
        if (clean_we) begin
          vict_d.line  = {tag_q[scan_q], 7'd0};
          vict_d.bytes = dirty_q[scan_q];
          vict_d.cause = DramFlush;
          flushed_d    = flushed_q + 32'd1;
          state_d      = StFlush;
        end else if (scan_last) begin
          state_d = StRes;
        end else begin
          scan_d = scan_next;
        end
      end
      StFlush: if (dram_ready_i) begin
        if (scan_last) begin
          state_d = StRes;
        end else begin
          scan_d  = scan_next;
          state_d = StScan;
        end
      end
      default: ;
    endcase
    // The flush's result once its last way is done.
    if ((state_q == StScan && !clean_we && scan_last) ||
        (state_q == StFlush && dram_ready_i && scan_last)) begin
      res_d         = '0;
      res_d.flush   = 1'b1;
      res_d.flushed = flushed_d;
      res_d.victim_cls = EvictNormal;
    end

    // A request is taken.
    if (take && req_i.flush) begin
      scan_d    = '0;
      flushed_d = '0;
      state_d   = StScan;
    end else if (write) begin
      res_d              = '0;
      res_d.hit          = hit;
      res_d.allocated    = alloc;
      res_d.evicted      = evict;
      res_d.set_idx      = 32'(set);
      res_d.way          = 6'(way);
      res_d.victim_cls   = EvictNormal;
      if (evict) begin
        res_d.victim_line  = {tag_q[idx], 7'd0};
        res_d.victim_cls   = cls_q[idx];
        res_d.victim_valid = valid_q[idx];
        res_d.victim_dirty = dirty_q[idx];
      end
      vict_pend_d  = evict && |dirty_q[idx];
      vict_d.line  = {tag_q[idx], 7'd0};
      vict_d.bytes = dirty_q[idx];
      vict_d.cause = DramEviction;
      thru_pend_d  = req_i.through;
      thru_d.line  = {line_num, 7'd0};
      thru_d.bytes = req_i.bytes;
      thru_d.cause = DramWriteThrough;
      thru_d.data  = req_i.data & bits_req;
      state_d      = StRes;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      vict_pend_q <= 1'b0;
      thru_pend_q <= 1'b0;
      counter_q   <= '0;
      rand_q      <= RandomSeed;
      present_q   <= '0;
      scan_q      <= '0;
      flushed_q   <= '0;
    end else begin
      state_q     <= state_d;
      vict_pend_q <= vict_pend_d;
      thru_pend_q <= thru_pend_d;
      counter_q   <= counter_d;
      rand_q      <= rand_d;
      scan_q      <= scan_d;
      flushed_q   <= flushed_d;
      if (line_we) present_q[idx] <= 1'b1;
    end
  end

  // Output registers (loaded with enables: they are wide).
  always_ff @(posedge clk_i) begin
    if (take || state_q == StScan || state_q == StFlush) begin
      res_q  <= res_d;
      vict_q <= vict_d;
      thru_q <= thru_d;
    end
  end

  // The line data: a write writes the request's bytes; a dirty victim is read at the edge that
  // accepts the write evicting it (the memory reads first), a flushed way in the scan.
  logic               data_re;
  logic [IdxBits-1:0] data_raddr;
  data_t              data_rd;
  assign data_re    = (write && evict && |dirty_q[idx]) || clean_we;
  assign data_raddr = state_q == StScan ? scan_q : idx;
  stu_ram_1r1w #(
    .Depth(Lines),
    .Width(LineBytes * 8)
  ) u_data (
    .clk_i,
    .we_i   (line_we),
    .waddr_i(idx),
    .wbe_i  (req_i.bytes),
    .wdata_i(req_i.data),
    .re_i   (data_re),
    .raddr_i(data_raddr),
    .rdata_o(data_rd)
  );

  // The arrays, written with enables.
  always_ff @(posedge clk_i) begin
    if (line_we) begin
      tag_q[idx]   <= line_num;
      cls_q[idx]   <= line_cls;
      stamp_q[idx] <= counter_d;
      valid_q[idx] <= line_valid;
      dirty_q[idx] <= line_dirty;
    end
    if (clean_we) dirty_q[scan_q] <= '0;
  end

  ////////////////
  // Debug read //
  ////////////////

  logic [SetBits-1:0]     dbg_set;
  logic [WayBits-1:0]     dbg_way;
  logic [Ways-1:0]        unused_dbg_ways;  // the request's lookup checks that at most one hits
  stu_cache_way_select #(
    .Sets     (Sets),
    .Ways     (Ways),
    .StampBits(StampBits)
  ) u_dbg_select (
    .cfg_set_mask_i,
    .cfg_ways_i,
    .cfg_random_i,
    .start_i   (rand_next[WayBits-1:0]),  // a miss's way is not reported
    .tag_i     (dbg_line_i[63:$clog2(LineBytes)]),
    .present_i (present_q),
    .tags_i    (`STU_CACHE_TAGS),
    .cls_i     (`STU_CACHE_CLS),
    .stamps_i  (`STU_CACHE_STAMPS),
    .hit_ways_o(unused_dbg_ways),
    .hit_o     (dbg_hit_o),
    .set_o     (dbg_set),
    .way_o     (dbg_way)  // the hit way when dbg_hit_o
  );
  always_comb begin
    dbg_set_o   = 32'(dbg_set);
    dbg_way_o   = dbg_hit_o ? 8'(dbg_way) : '0;
    dbg_valid_o = dbg_hit_o ? valid_q[{dbg_set, dbg_way}] : '0;
    dbg_dirty_o = dbg_hit_o ? dirty_q[{dbg_set, dbg_way}] : '0;
    dbg_cls_o   = dbg_hit_o ? cls_q[{dbg_set, dbg_way}] : EvictNormal;
  end

  assign res_valid_o  = state_q == StRes;
  assign res_o        = res_q;
  assign dram_valid_o = state_q == StVict || state_q == StThru || state_q == StFlush;
  always_comb begin
    dram_o = thru_q;
    if (state_q != StThru) begin
      dram_o.line  = vict_q.line;
      dram_o.bytes = vict_q.bytes;
      dram_o.cause = vict_q.cause;
      dram_o.data  = data_rd & expand(vict_q.bytes);
    end
  end

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: Verilator 5.006 cannot $sample a signal wider than
  // 64 bits in a concurrent assertion. (Their state is a checker, not design: the mutation
  // tool leaves it alone.)
  // mutate: off
  logic        res_stalled_q, dram_stalled_q;
  l2_result_t  res_prev_q;
  dram_write_t dram_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      res_stalled_q  <= 1'b0;
      dram_stalled_q <= 1'b0;
    end else begin
      res_stalled_q  <= res_valid_o && !res_ready_i;
      dram_stalled_q <= dram_valid_o && !dram_ready_i;
    end
  end
  always_ff @(posedge clk_i) begin
    res_prev_q  <= res_o;
    dram_prev_q <= dram_o;
  end
  // mutate: on
`endif
  // Parameter legality: sets and ways powers of two, at least 2; at most 64 ways.
  `ASSERT_INIT(SetsPow2_A, Sets >= 2 && (Sets & (Sets - 1)) == 0)
  `ASSERT_INIT(WaysPow2_A, Ways >= 2 && Ways <= 64 && (Ways & (Ways - 1)) == 0)
  // A line is in at most one way of its set.
  `ASSERT_EDGE(OneWay_A, $onehot0(hit_way), req_valid_i && !req_i.flush)
  // Input constraint: the eviction class is one of the three (or kept).
  `ASSUME_EDGE(KnownClass_A, req_i.keep_cls || req_i.cls == EvictFirst || req_i.cls == EvictNormal ||
                             req_i.cls == EvictLast, req_valid_i && !req_i.flush)
  // One output at a time: the result, then the DRAM writes, in order.
  `ASSERT_EDGE(OneOut_A, !(res_valid_o && dram_valid_o), 1'b1)
  // A DRAM write always writes a byte.
  `ASSERT_EDGE(DramNotEmpty_A, !dram_valid_o || |dram_o.bytes, 1'b1)
  // The outputs hold while they wait.
  `ASSERT_I(ResStable_A, !(rst_ni && res_stalled_q) || (res_valid_o && res_o == res_prev_q))
  `ASSERT_I(DramStable_A, !(rst_ni && dram_stalled_q) || (dram_valid_o && dram_o == dram_prev_q))
  // Handshakes are known out of reset.
  `ASSERT_KNOWN(ResValidKnown_A, res_valid_o)
  `ASSERT_KNOWN(DramValidKnown_A, dram_valid_o)

endmodule

`undef STU_CACHE_TAGS
`undef STU_CACHE_CLS
`undef STU_CACHE_STAMPS
