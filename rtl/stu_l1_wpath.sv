// L1 write path: the write-through L1 of global stores and the L1-to-L2 write buffer.
//
// A request (stu_pkg::l1_req_t) is one global line request (line, bytes, data) with its store's
// cache operator and .L1:: priority, its ordering (strong, mmio, release point) and the L2 action
// (golden::L2StoreAction: class or keep, allocate, write-through) the entry carries to the L2;
// or a drain of the write buffer.
//   L1     the action is decoded here (golden::l1_store_action): .mmio and .cg bypass the L1
//          (a hit is invalidated, a miss does not allocate); .wb normal; .cs evict-first; .wt
//          updates a hit, no allocation; else the .L1:: priority (evict_normal / unchanged
//          (keep) / first / last, no_allocate: no allocation); else normal. An update is
//          golden::SectoredCache::write in write-through mode: a hit takes the class (unless
//          kept) and the next stamp; a miss that allocates takes the lowest free way, else the
//          way of lowest class, then oldest stamp (a victim is never dirty: write-through).
//   buffer golden::WriteBuffer of cfg_wb_entries_i lines: a release first drains every entry; a weak
//          (not strong, not mmio) request merges into the youngest entry of its line when that
//          entry is weak with the same L2 action; otherwise, when full, the oldest entry leaves;
//          then the request is appended.
//   Out, in order: the event (l1_event_t: the decoded action, hit / allocated / invalidated /
//   evicted and the victim's line, merged, how many entries left), then each entry that left,
//   oldest first, as an L2 write (l2_write_t). A drain: its event, then every entry.
// Reference: MemoryHierarchy::store_line / drain's L1Events and the write buffer entries they
// send to the L2 (golden cache.h). The L1 keeps tags, classes and stamps only: it is write-
// through, so its byte masks and data never leave it on this path.
//
// Geometry: the parameters are the maxima (the arrays' sizes); the configuration inputs give
// the sets, ways and buffer entries in use (set = line[7 +: log2(Sets)] & cfg_set_mask_i; only
// ways below cfg_ways_i are looked up or replaced; the buffer is full at cfg_wb_entries_i), so
// one model serves every geometry up to the maxima.
// Debug read: dbg_line_i looked up combinationally (as SectoredCache::lookup: hit, set, way,
// valid bytes, dirty bytes, class) and the buffer's occupancy, for the RTL .sts model.
//
// Microarchitecture: the tags are looked up combinationally from the request and written at the
// edge that accepts it; the buffer is a ring (head, count) whose merge or append also happens at
// that edge, except after a drain, when the request waits in a register and is appended in the
// cycle the last leaving entry is taken. Latency 1 cycle to the event; 1 request per cycle when
// nothing leaves the buffer (the next is taken in the cycle the event leaves), plus 1 cycle per
// entry that leaves. The event and L2 ports are never valid together.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_l1_wpath
  import stu_pkg::*;
#(
  // The maxima; the geometry in use is the configuration inputs'.
  parameter int unsigned Sets      = 16,  // power of two, at least 2
  parameter int unsigned Ways      = 4,   // power of two, at least 2, at most 64
  parameter int unsigned WbEntries = 4    // power of two, 2..64
) (
  input  logic       clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic       rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration (static: change it only in reset): the sets in use minus 1 (sets a power
  // of two, 1..Sets), the ways in use (a power of two, 1..Ways), the buffer entries (1..WbEntries).
  input  logic [$clog2(Sets)-1:0]    cfg_set_mask_i,
  input  logic [$clog2(Ways):0]      cfg_ways_i,
  input  logic [$clog2(WbEntries):0] cfg_wb_entries_i,
  // Debug read (a backdoor, combinational): the L1 line of dbg_line_i as
  // golden::SectoredCache::lookup reports it for the write-through L1 (dirty is always 0);
  // the write buffer's occupancy.
  /* verilator lint_off UNUSEDSIGNAL */  // the offset in the line is ignored
  input  logic [63:0]  dbg_line_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic         dbg_hit_o,
  output logic [31:0]  dbg_set_o,
  output logic [7:0]   dbg_way_o,
  output logic [127:0] dbg_valid_o,
  output logic [127:0] dbg_dirty_o,
  output evict_class_e dbg_cls_o,
  output logic [7:0]   dbg_wb_count_o,
  // Requests in.
  input  logic       req_valid_i,
  output logic       req_ready_o,
  input  l1_req_t    req_i,
  // Events out (one per request).
  output logic       ev_valid_o,
  input  logic       ev_ready_i,
  output l1_event_t  ev_o,
  // L2 writes out.
  output logic       l2_valid_o,
  input  logic       l2_ready_i,
  output l2_write_t  l2_o
);

  localparam int unsigned Lines       = Sets * Ways;
  localparam int unsigned SetBits     = $clog2(Sets);
  localparam int unsigned WayBits     = $clog2(Ways);
  localparam int unsigned IdxBits     = $clog2(Lines);
  localparam int unsigned PtrBits     = $clog2(WbEntries);
  localparam int unsigned LineNumBits = 64 - $clog2(LineBytes);
  localparam int unsigned StampBits   = 32;

  typedef logic [LineBytes-1:0]   mask_t;
  typedef logic [LineBytes*8-1:0] data_t;
  // The L2 action an entry carries: {cls, keep_cls, through}.
  typedef logic [EvictClassBits+1:0] l2_act_t;

  function automatic logic [LineBytes*8-1:0] expand(mask_t m);  // (yosys 0.23: no typedef result)
    data_t d;
    for (int unsigned b = 0; b < LineBytes; b++) d[b*8 +: 8] = {8{m[b]}};
    expand = d;
  endfunction

  ////////////
  // Decode //
  ////////////

  logic         act_inv, act_alloc, act_keep;
  evict_class_e act_cls;
  always_comb begin
    act_inv   = 1'b0;
    act_alloc = 1'b1;
    act_keep  = 1'b0;
    act_cls   = EvictNormal;
    if (req_i.is_mmio) begin
      act_inv   = 1'b1;  // bypass: never cached here
      act_alloc = 1'b0;
      act_keep  = 1'b1;
    end else if (req_i.has_cop) begin
      // .cs evict-first; .wb, .cg and .wt update a hit and allocate a miss as normal: silicon
      // (H200, 2026-11-27, device run 25; docs/golden.md, "L1 store action") reads a line `.cg`
      // or `.wt` wrote back from the L1 and keeps a line either hits, for all the PTX ISA's
      // "cache at global level" (.cg) and "write-through" (.wt: the L2's, to system memory).
      unique case (req_i.cop)
        CopCs:   act_cls = EvictFirst;
        default: ;  // CopWb, CopCg, CopWt: normal
      endcase
    end else if (req_i.has_l1) begin
      unique case (req_i.l1)
        L1EvictUnchanged: act_keep = 1'b1;
        L1EvictFirst:     act_cls = EvictFirst;
        L1EvictLast:      act_cls = EvictLast;
        L1NoAllocate: begin
          act_alloc = 1'b0;
          act_keep  = 1'b1;
        end
        default: ;  // L1EvictNormal
      endcase
    end
  end

  ////////
  // L1 //
  ////////

  logic [Lines-1:0]       present_q;
  logic [LineNumBits-1:0] tag_q   [Lines];
  mask_t                  valid_q [Lines];  // bytes written (the debug read's valid mask)
  evict_class_e           cls_q   [Lines];
  logic [StampBits-1:0]   stamp_q [Lines];
  logic [StampBits-1:0]   counter_q, counter_d;
  // The arrays as the way selection takes them (the arrays, or plain vectors for yosys).
`include "stu_cache_flat.svh"

  logic [SetBits-1:0]     set;
  logic [LineNumBits-1:0] line_num;
  logic [Ways-1:0]        hit_way;
  logic                   hit;
  logic [WayBits-1:0]     way;
  logic [IdxBits-1:0]     idx;

  // The request's set and way (hit, else the victim), by the shared lookup.
  assign line_num = req_i.line[63:$clog2(LineBytes)];
  stu_cache_way_select #(
    .Sets     (Sets),
    .Ways     (Ways),
    .StampBits(StampBits)
  ) u_way_select (
    .cfg_set_mask_i,
    .cfg_ways_i,
    .cfg_random_i(1'b0),  // the L1 replaces the least recently written line
    .start_i     ('0),
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

  //////////////////
  // Write buffer //
  //////////////////

  logic [LineNumBits-1:0] wb_line_q  [WbEntries];
  mask_t                  wb_bytes_q [WbEntries];
  data_t                  wb_data_q  [WbEntries];
  l2_act_t                wb_act_q   [WbEntries];
  logic [WbEntries-1:0]   wb_weak_q;  // mergeable
  logic [PtrBits-1:0]     head_q, head_d;
  logic [PtrBits:0]       count_q, count_d;

  l2_act_t            req_act;
  logic               req_weak;
  logic               young_found;
  logic [PtrBits-1:0] young, tail;
  always_comb begin
    req_act  = {req_i.l2_cls, req_i.l2_keep_cls, req_i.l2_through};
    req_weak = !req_i.is_strong && !req_i.is_mmio;
    tail     = head_q + PtrBits'(count_q);
    // The youngest entry of the line (the last match in age order).
    young_found = 1'b0;
    young       = '0;
    for (int unsigned k = 0; k < WbEntries; k++) begin
      if ((PtrBits+1)'(k) < count_q && wb_line_q[head_q + PtrBits'(k)] == line_num) begin
        young_found = 1'b1;
        young       = head_q + PtrBits'(k);
      end
    end
  end

  /////////////
  // Control //
  /////////////

  typedef enum logic [1:0] {
    StIdle,   // ready for a request
    StEv,     // event presented
    StDrain   // the oldest entry presented as an L2 write
  } state_e;

  state_e           state_q, state_d;
  logic [PtrBits:0] left_q, left_d;      // entries still to leave for the current request
  logic             pend_q, pend_d;      // a request waits for the drain to be appended
  logic [LineNumBits-1:0] pend_line_q;
  mask_t            pend_bytes_q;
  data_t            pend_data_q;
  l2_act_t          pend_act_q;
  logic             pend_weak_q;
  l1_event_t        ev_q, ev_d;

  always_comb begin
    unique case (state_q)
      StIdle:  req_ready_o = 1'b1;
      StEv:    req_ready_o = ev_ready_i && left_q == '0;
      default: req_ready_o = 1'b0;
    endcase
  end

  logic take, store, merge, append_now, l1_we, l1_inv, pop, append_pend;
  logic [PtrBits:0] drained;
  always_comb begin
    take    = req_valid_i && req_ready_o;
    store   = take && !req_i.drain;
    merge   = store && !req_i.is_release && req_weak && young_found && wb_weak_q[young] &&
              wb_act_q[young] == req_act;
    drained = '0;
    if (take && (req_i.drain || req_i.is_release)) drained = count_q;
    else if (store && !merge && count_q >= cfg_wb_entries_i) drained = (PtrBits+1)'(1);
    append_now = store && !merge && drained == '0;
    l1_inv     = store && act_inv && hit;
    l1_we      = store && !act_inv && (hit || act_alloc);

    pop         = state_q == StDrain && l2_ready_i;
    append_pend = pop && left_q == (PtrBits+1)'(1) && pend_q;

    state_d   = state_q;
    left_d    = left_q;
    pend_d    = pend_q;
    head_d    = head_q;
    count_d   = count_q;
    ev_d      = ev_q;
    counter_d = l1_we ? counter_q + StampBits'(1) : counter_q;

    unique case (state_q)
      StEv: if (ev_ready_i) state_d = left_q != '0 ? StDrain : StIdle;
      StDrain: if (pop) begin
        head_d = head_q + PtrBits'(1);
        left_d = left_q - (PtrBits+1)'(1);
        if (left_q == (PtrBits+1)'(1)) begin
          state_d = StIdle;
          pend_d  = 1'b0;
        end
        count_d = append_pend ? count_q : count_q - (PtrBits+1)'(1);
      end
      default: ;
    endcase

    if (take) begin
      ev_d             = '0;
      ev_d.drain       = req_i.drain;
      ev_d.cls         = EvictNormal;
      if (store) begin
        ev_d.invalidate  = act_inv;
        ev_d.allocate    = act_alloc;
        ev_d.cls         = act_cls;
        ev_d.keep_cls    = act_keep;
        ev_d.hit         = hit;
        ev_d.invalidated = act_inv && hit;
        ev_d.allocated   = !act_inv && !hit && act_alloc;
        ev_d.evicted     = !act_inv && !hit && act_alloc && present_q[idx];
        if (ev_d.evicted) ev_d.victim_line = {tag_q[idx], 7'd0};
        ev_d.merged      = merge;
      end
      ev_d.drained = 7'(drained);
      left_d       = drained;
      pend_d       = store && drained != '0;
      if (append_now) count_d = count_q + (PtrBits+1)'(1);
      state_d = StEv;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      left_q    <= '0;
      pend_q    <= 1'b0;
      head_q    <= '0;
      count_q   <= '0;
      counter_q <= '0;
      present_q <= '0;
    end else begin
      state_q   <= state_d;
      left_q    <= left_d;
      pend_q    <= pend_d;
      head_q    <= head_d;
      count_q   <= count_d;
      counter_q <= counter_d;
      if (l1_we) present_q[idx] <= 1'b1;
      if (l1_inv) present_q[idx] <= 1'b0;
    end
  end

  // The L1 tags, written with enables.
  always_ff @(posedge clk_i) begin
    if (l1_we) begin
      tag_q[idx]   <= line_num;
      valid_q[idx] <= hit ? valid_q[idx] | req_i.bytes : req_i.bytes;
      cls_q[idx]   <= act_keep ? (hit ? cls_q[idx] : EvictNormal) : act_cls;
      stamp_q[idx] <= counter_d;
    end
  end

  // The buffer, the waiting request and the event register, written with enables.
  always_ff @(posedge clk_i) begin
    if (take) ev_q <= ev_d;
    if (store && drained != '0) begin
      pend_line_q  <= line_num;
      pend_bytes_q <= req_i.bytes;
      pend_data_q  <= req_i.data & expand(req_i.bytes);
      pend_act_q   <= req_act;
      pend_weak_q  <= req_weak;
    end
    if (merge) begin
      wb_bytes_q[young] <= wb_bytes_q[young] | req_i.bytes;
      wb_data_q[young]  <= (wb_data_q[young] & ~expand(req_i.bytes)) |
                           (req_i.data & expand(req_i.bytes));
    end
    if (append_now) begin
      wb_line_q[tail]  <= line_num;
      wb_bytes_q[tail] <= req_i.bytes;
      wb_data_q[tail]  <= req_i.data & expand(req_i.bytes);
      wb_act_q[tail]   <= req_act;
      wb_weak_q[tail]  <= req_weak;
    end
    if (append_pend) begin  // into the slot after the last one (the popped one when full)
      wb_line_q[tail]  <= pend_line_q;
      wb_bytes_q[tail] <= pend_bytes_q;
      wb_data_q[tail]  <= pend_data_q;
      wb_act_q[tail]   <= pend_act_q;
      wb_weak_q[tail]  <= pend_weak_q;
    end
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
    .cfg_random_i(1'b0),  // the L1 replaces the least recently written line
    .start_i     ('0),
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
    dbg_dirty_o = '0;  // write-through: the L1 never holds dirty bytes
    dbg_cls_o   = dbg_hit_o ? cls_q[{dbg_set, dbg_way}] : EvictNormal;
  end
  assign dbg_wb_count_o = 8'(count_q);

  assign ev_valid_o = state_q == StEv;
  assign ev_o       = ev_q;
  assign l2_valid_o = state_q == StDrain;
  always_comb begin
    l2_o          = '0;
    l2_o.line     = {wb_line_q[head_q], 7'd0};
    l2_o.bytes    = wb_bytes_q[head_q];
    {l2_o.cls, l2_o.keep_cls, l2_o.through} = wb_act_q[head_q];
    l2_o.data     = wb_data_q[head_q];
  end

  ////////////////
  // Assertions //
  ////////////////

  // mutate: off
`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: Verilator 5.006 cannot $sample a signal wider than
  // 64 bits in a concurrent assertion.
  logic      ev_stalled_q, l2_stalled_q;
  l1_event_t ev_prev_q;
  l2_write_t l2_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ev_stalled_q <= 1'b0;
      l2_stalled_q <= 1'b0;
    end else begin
      ev_stalled_q <= ev_valid_o && !ev_ready_i;
      l2_stalled_q <= l2_valid_o && !l2_ready_i;
    end
  end
  always_ff @(posedge clk_i) begin
    ev_prev_q <= ev_o;
    l2_prev_q <= l2_o;
  end
`endif
  // mutate: on
  // Parameter legality: sets and ways powers of two, at least 2; at most 64 ways.
  `ASSERT_INIT(SetsPow2_A, Sets >= 2 && (Sets & (Sets - 1)) == 0)
  `ASSERT_INIT(WaysPow2_A, Ways >= 2 && Ways <= 64 && (Ways & (Ways - 1)) == 0)
  `ASSERT_EDGE(OneOut_A, !(ev_valid_o && l2_valid_o), 1'b1)
  `ASSERT_EDGE(CountInRange_A, count_q <= cfg_wb_entries_i && count_q <= (PtrBits+1)'(WbEntries),
               1'b1)
  // A line is in at most one way of its set.
  `ASSERT_EDGE(OneWay_A, $onehot0(hit_way), req_valid_i && !req_i.drain)
  // Input constraint: a line request writes a byte.
  `ASSUME_EDGE(NotEmpty_A, |req_i.bytes, req_valid_i && !req_i.drain)
  // The outputs hold while they wait.
  `ASSERT_I(EvStable_A, !(rst_ni && ev_stalled_q) || (ev_valid_o && ev_o == ev_prev_q))
  `ASSERT_I(L2Stable_A, !(rst_ni && l2_stalled_q) || (l2_valid_o && l2_o == l2_prev_q))
  // Handshakes are known out of reset.
  `ASSERT_KNOWN(ReqReadyKnown_A, req_ready_o)
  `ASSERT_KNOWN(EvValidKnown_A, ev_valid_o)
  `ASSERT_KNOWN(L2ValidKnown_A, l2_valid_o)

endmodule

`undef STU_CACHE_TAGS
`undef STU_CACHE_CLS
`undef STU_CACHE_STAMPS
