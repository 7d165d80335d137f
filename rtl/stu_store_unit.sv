// Store unit top: one decoded warp store (PTX st, st.async, tcgen05.st, SASS ST) in; line
// requests, TMEM writes, mbarrier reads, writes and complete-tx events, and a per-lane status
// out.
//
// The lane path chains the verified blocks: each active lane, in ascending lane order, goes
// through stu_store_align (alignment, byte lanes; misaligned faults or is forced down), then
// stu_addr_resolve (the data address, and for st.async the mbarrier address, on two resolvers),
// then the checks of the resolved space (the qualifier rule per space from the decoder, or
// SASS's Plg predicate), the memory bounds (global: asked on the allocation port; shared, local
// and .param::func: the configured sizes; kernel .param and .const are read-only), and for
// st.async the mbarrier: shared, 8-byte aligned, in bounds, in the data's CTA, then complete-tx
// of the access's byte count on stu_mbarrier, on a copy of the barrier word kept for the warp
// (read once on the mbarrier port). A lane that passes every check becomes a lane access; when
// every lane is done, the warp's accesses go to stu_coalescer, whose line requests leave on the
// request port, then the barrier words are written back (after the data: a store may write the
// barrier's own bytes), and a status beat (fault kind and address, stored, forced-down lanes,
// and the effective scope) closes the warp.
//
// tcgen05.st takes the TMEM path: the warp-level checks (every thread active, one address for
// the warp, a 32-bit TMEM address, a CTA of the cluster) fault the whole warp; otherwise its
// register beats (reg port) go to stu_tmem_wdp with the header, its runs leave on the TMEM port
// and its per-thread faults become the status. A warp that faulted still takes (and drops) its
// register beats.
// Reference: golden::execute / golden::execute_sass (include/stu/golden/executor.h).
//
// Latency: about 4 cycles per active lane (plus the allocation and mbarrier round trips), then
// one cycle per line request. One warp at a time. valid/ready on every port; the allocation and
// mbarrier-read ports are request/response (the response may come any cycle after the request).
`include "stu_pkg.svh"

module stu_store_unit
  import stu_pkg::*;
(
  input  logic                   clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                   rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration: selectors 0..9 are stu_addr_resolve's windows and cluster size; 10 shared
  // bytes per CTA, 11 local bytes per thread, 12 .param::func bytes per thread.
  input  logic                   cfg_valid_i,
  input  logic [3:0]             cfg_sel_i,
  input  logic [63:0]            cfg_data_i,
  // Warp store in.
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  logic [2:0]             in_kind_i,      // 0 PTX st, 1 st.async with [mbar], 2 SASS ST,
                                                 // 3 st.async release form, 4 tcgen05.st
  input  logic                   in_mmio_i,      // .mmio (moved one lane at a time)
  input  logic                   in_has_policy_i,   // .L2::cache_hint: in_policy_i is read
  input  logic [NumLanes-1:0][63:0] in_policy_i,  // the policy operand per lane
  input  logic [15:0]            in_cta_i,
  input  logic [15:0]            in_warp_i,
  input  logic [NumLanes-1:0]    in_active_i,    // lanes that execute (guard applied)
  input  logic                   in_generic_i,   // generic address (in_space_i ignored)
  input  isa_space_e             in_space_i,
  input  logic [2:0]             in_elem_log2_i,
  input  logic [1:0]             in_elems_log2_i,
  input  logic [7:0]             in_sinks_i,
  input  misalign_e              in_mode_i,
  input  fault_e [7:0]           in_space_fault_i,  // PTX: the fault of a lane landing in each
                                                    // mem_space_e (None, ReadOnly, IllegalForSpace)
  input  logic [NumLanes-1:0]    in_plg_i,       // SASS: Plg per lane (true: not the shared
                                                 // window; equal to 'shared' faults)
  input  logic [2:0]             in_scope_i,     // 0 none, 1 cta, 2 cluster, 3 gpu, 4 sys
  input  logic [NumLanes-1:0][63:0] in_addr_i,
  input  logic [NumLanes-1:0][63:0] in_mbar_i,
  input  logic [NumLanes-1:0][MaxAccessBytes*8-1:0] in_data_i,
  // tcgen05.st: the header (with the warp store) and the register beats (beat j: register j of
  // every thread).
  input  tmem_shape_e            in_shape_i,
  input  logic [7:0]             in_num_i,
  input  logic                   in_unpack_i,
  input  logic [31:0]            in_split_i,
  input  logic [15:0]            in_alloc_i,     // the CTA's TMEM allocation, 32-column units
  input  logic                   reg_valid_i,
  output logic                   reg_ready_o,
  input  logic                   reg_last_i,
  input  logic [NumLanes-1:0][31:0] reg_data_i,
  // TMEM writes: 32-column runs of a lane.
  output logic                   tm_valid_o,
  input  logic                   tm_ready_i,
  output tmem_write_t            tm_o,
  // Global allocation check (the memory side answers whether [addr, addr + size) is backed).
  output logic                   alloc_req_valid_o,
  output logic [63:0]            alloc_req_addr_o,
  output logic [5:0]             alloc_req_size_o,
  input  logic                   alloc_rsp_valid_i,
  input  logic                   alloc_rsp_ok_i,
  // mbarrier words in shared memory.
  output logic                   mbar_rd_valid_o,
  output logic [15:0]            mbar_rd_cta_o,
  output logic [63:0]            mbar_rd_offset_o,
  input  logic                   mbar_rd_rsp_valid_i,
  input  mbar_word_t             mbar_rd_word_i,
  output logic                   mbar_wr_valid_o,
  input  logic                   mbar_wr_ready_i,
  output logic [15:0]            mbar_wr_cta_o,
  output logic [63:0]            mbar_wr_offset_o,
  output mbar_word_t             mbar_wr_word_o,
  // complete-tx events, in lane order.
  output logic                   ev_valid_o,
  input  logic                   ev_ready_i,
  output logic [15:0]            ev_cta_o,
  output logic [63:0]            ev_offset_o,
  output logic [31:0]            ev_bytes_o,
  output logic [4:0]             ev_lane_o,
  output logic                   ev_completed_o,
  // Line requests (L1 / shared / DSMEM), in stu_coalescer's order.
  output logic                   req_valid_o,
  input  logic                   req_ready_i,
  output line_req_t              req_o,
  // Status of the warp, after its last line request.
  output logic                   st_valid_o,
  input  logic                   st_ready_i,
  output fault_e [NumLanes-1:0]  st_fault_o,
  output logic [NumLanes-1:0][63:0] st_fault_addr_o,
  output logic [NumLanes-1:0]    st_stored_o,
  output logic [NumLanes-1:0]    st_forced_o,
  output logic [2:0]             st_scope_o      // the scope, narrowed to cluster for a .sys
                                                 // store that reached shared memory only
);

  localparam logic [2:0] KindAsync = 3'd1, KindSass = 3'd2, KindAsyncRelease = 3'd3,
                         KindTcgen05 = 3'd4;  // 0: st
  localparam logic [2:0] ScopeCluster = 3'd2, ScopeSys = 3'd4;

  typedef enum logic [4:0] {
    Idle, Align, AlignWait, Resolve, ResolveWait, Alloc, MbarCheck, MbarRead, MbarStep,
    MbarStepWait, Event, WriteBack, Coalesce, Lines, TmemBeats, TmemRuns, TmemDrain, Status
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Configuration of the bounds (the windows live in the resolvers).
  logic [63:0] shared_bytes_q, local_bytes_q, param_func_bytes_q, cluster_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shared_bytes_q     <= 64'd49152;  // golden ModelConfig defaults
      local_bytes_q      <= 64'd4096;
      param_func_bytes_q <= 64'd4096;
      cluster_q          <= DefaultClusterCtas;
    end else if (cfg_valid_i) begin
      unique case (cfg_sel_i)
        4'd9:  cluster_q          <= cfg_data_i;
        4'd10: shared_bytes_q     <= cfg_data_i;
        4'd11: local_bytes_q      <= cfg_data_i;
        4'd12: param_func_bytes_q <= cfg_data_i;
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------
  // The warp being executed.
  state_e                  state_q, state_d;
  logic [2:0]              kind_q;
  logic [15:0]             cta_q, warp_q;
  logic [NumLanes-1:0]     todo_q, todo_d;     // active lanes not yet done
  logic                    generic_q;
  isa_space_e              space_q;
  logic [2:0]              elem_log2_q;
  logic [1:0]              elems_log2_q;
  logic [7:0]              sinks_q;
  misalign_e               mode_q;
  fault_e [7:0]            space_fault_q;
  logic [NumLanes-1:0]     plg_q;
  logic [2:0]              scope_q;
  logic [2:0]              group_log2_q;       // the same-location rule's group (coalescer)
  logic [NumLanes-1:0][63:0] addr_q, mbar_q;
  logic [NumLanes-1:0][MaxAccessBytes*8-1:0] data_q;

  // Per-lane results.
  fault_e [NumLanes-1:0]   fault_q;             // written lane by lane (see below)
  logic [NumLanes-1:0][63:0] fault_addr_q;
  logic [NumLanes-1:0]     stored_q, stored_d, forced_q, forced_d;
  lane_access_t [NumLanes-1:0] acc_q;
  logic                    any_global_q, any_global_d, any_shared_q, any_shared_d;

  // The current lane.
  logic [4:0]              lane;
  always_comb begin
    lane = '0;
    for (int l = NumLanes - 1; l >= 0; l--) begin
      if (todo_q[l]) lane = 5'(l);
    end
  end

  // Placement and resolution of the current lane (captured from the blocks).
  logic [63:0]             a_addr_q, a_addr_d;   // aligned address
  logic [SectorBytes-1:0]  a_mask_q, a_mask_d;
  logic [SectorBytes*8-1:0] a_data_q, a_data_d;
  dest_t                   r_dest_q, r_dest_d, m_dest_q, m_dest_d;
  logic [63:0]             r_off_q, r_off_d, m_off_q, m_off_d;
  fault_e                  m_fault_q, m_fault_d;

  // The warp's copies of the mbarrier words it touches.
  logic [NumLanes-1:0]     mb_valid_q, mb_valid_d;
  logic [NumLanes-1:0][15:0] mb_cta_q;
  logic [NumLanes-1:0][63:0] mb_off_q;
  mbar_word_t [NumLanes-1:0] mb_word_q;
  logic [4:0]              mb_idx_q, mb_idx_d;   // the entry of the current lane
  logic [4:0]              mb_next_q, mb_next_d; // first free entry
  logic                    ev_completed_q, ev_completed_d;

  // ---------------------------------------------------------------------------------------
  // Sub-blocks.
  logic sa_in_valid, sa_in_ready, sa_out_valid, sa_out_ready;
  logic [63:0] sa_addr, sa_line;
  logic sa_forced, sa_fault;
  logic [1:0] sa_sector;
  logic [SectorBytes-1:0] sa_mask;
  logic [SectorBytes*8-1:0] sa_data;

  logic [65:0] unused_sa;  // the line and sector follow from the aligned address
  assign unused_sa = {sa_line, sa_sector};

  stu_store_align u_align (
    .clk_i, .rst_ni,
    .in_valid_i   (sa_in_valid),
    .in_ready_o   (sa_in_ready),
    .addr_i       (addr_q[lane]),
    .elem_log2_i  (elem_log2_q),
    .elems_log2_i (elems_log2_q),
    .sinks_i      (sinks_q),
    .mode_i       (mode_q),
    .data_i       (data_q[lane]),
    .out_valid_o  (sa_out_valid),
    .out_ready_i  (sa_out_ready),
    .addr_o       (sa_addr),
    .forced_o     (sa_forced),
    .fault_o      (sa_fault),
    .line_o       (sa_line),
    .sector_o     (sa_sector),
    .sector_mask_o(sa_mask),
    .sector_data_o(sa_data)
  );

  logic rs_in_valid, rd_in_ready, rm_in_ready, rd_out_valid, rm_out_valid, rs_out_ready;
  dest_t rd_dest, rm_dest;
  logic [63:0] rd_off, rm_off;
  fault_e rd_fault, rm_fault;

  stu_addr_resolve u_resolve_data (
    .clk_i, .rst_ni, .cfg_valid_i, .cfg_sel_i, .cfg_data_i,
    .in_valid_i (rs_in_valid),
    .in_ready_o (rd_in_ready),
    .addr_i     (a_addr_q),
    .generic_i  (generic_q),
    .space_i    (space_q),
    .cta_i      (cta_q),
    .warp_i     (warp_q),
    .lane_i     (lane),
    .out_valid_o(rd_out_valid),
    .out_ready_i(rs_out_ready),
    .dest_o     (rd_dest),
    .offset_o   (rd_off),
    .fault_o    (rd_fault)
  );

  stu_addr_resolve u_resolve_mbar (
    .clk_i, .rst_ni, .cfg_valid_i, .cfg_sel_i, .cfg_data_i,
    .in_valid_i (rs_in_valid),
    .in_ready_o (rm_in_ready),
    .addr_i     (mbar_q[lane]),
    .generic_i  (generic_q),
    .space_i    (space_q),
    .cta_i      (cta_q),
    .warp_i     (warp_q),
    .lane_i     (lane),
    .out_valid_o(rm_out_valid),
    .out_ready_i(rs_out_ready),
    .dest_o     (rm_dest),
    .offset_o   (rm_off),
    .fault_o    (rm_fault)
  );

  logic mb_in_valid, mb_in_ready, mb_out_valid, mb_out_ready, mb_completed;
  mbar_word_t mb_word_out;
  fault_e mb_fault;
  logic [31:0] tx_bytes;

  stu_mbarrier u_mbarrier (
    .clk_i, .rst_ni,
    .in_valid_i (mb_in_valid),
    .in_ready_o (mb_in_ready),
    .word_i     (mb_word_q[mb_idx_q]),
    .op_i       (MbarOpCompleteTx),
    .count_i    (tx_bytes),
    .out_valid_o(mb_out_valid),
    .out_ready_i(mb_out_ready),
    .word_o     (mb_word_out),
    .completed_o(mb_completed),
    .fault_o    (mb_fault)
  );

  logic co_in_valid, co_in_ready, co_out_valid, co_last;
  line_req_t co_req;

  stu_coalescer u_coalescer (
    .clk_i, .rst_ni,
    .in_valid_i  (co_in_valid),
    .in_ready_o  (co_in_ready),
    .lane_valid_i(stored_q),
    .acc_i       (acc_q),
    .group_log2_i(group_log2_q),
    .out_valid_o (co_out_valid),
    .out_ready_i (req_ready_i),
    .req_o       (co_req),
    .last_o      (co_last)
  );

  assign req_valid_o = co_out_valid;
  assign req_o       = co_req;

  // The TMEM write datapath: the header is sampled with the first register beat.
  logic tw_in_valid, tw_in_ready, tw_out_valid, tw_out_ready, tw_write_valid, tw_last;
  tmem_write_t tw_wr;
  fault_e [NumLanes-1:0] tw_fault;
  logic [NumLanes-1:0][31:0] tw_fault_addr;
  tmem_shape_e shape_q;
  logic [7:0] num_q;
  logic unpack_q;
  logic [31:0] split_q;
  logic [15:0] alloc_q;

  stu_tmem_wdp u_tmem_wdp (
    .clk_i, .rst_ni,
    .in_valid_i   (tw_in_valid),
    .in_ready_o   (tw_in_ready),
    .in_last_i    (reg_last_i),
    .shape_i      (shape_q),
    .num_i        (num_q),
    .unpack_i     (unpack_q),
    .taddr_i      (addr_q[0][31:0]),
    .split_i      (split_q),
    .quarter_i    (warp_q[1:0]),
    .alloc_i      (alloc_q),
    .cta_i        (cta_q),
    .data_i       (reg_data_i),
    .out_valid_o  (tw_out_valid),
    .out_ready_i  (tw_out_ready),
    .write_valid_o(tw_write_valid),
    .wr_o         (tw_wr),
    .last_o       (tw_last),
    .fault_o      (tw_fault),
    .fault_addr_o (tw_fault_addr)
  );

  assign tm_valid_o = state_q == TmemRuns && tw_out_valid && tw_write_valid;
  assign tm_o       = tw_wr;

  // ---------------------------------------------------------------------------------------
  // Helpers.
  logic [5:0] size;  // bytes of the access
  assign size = 6'd1 << (elem_log2_q + {1'b0, elems_log2_q});

  always_comb begin
    tx_bytes = '0;
    for (int unsigned b = 0; b < SectorBytes; b++) tx_bytes = tx_bytes + 32'(a_mask_q[b]);
  end

  // Bounds of a resolved data location (golden MachineState::check_store).
  function automatic logic fits(input logic [63:0] off, input logic [63:0] n,
                                input logic [63:0] limit);
    return off <= limit && n <= limit - off;
  endfunction

  fault_e bounds_fault;  // for non-global destinations
  always_comb begin
    unique case (r_dest_q.space)
      MemShared:    bounds_fault = fits(r_off_q, 64'(size), shared_bytes_q) ? FaultNone
                                                                          : FaultOutOfAllocation;
      MemLocal:     bounds_fault = fits(r_off_q, 64'(size), local_bytes_q) ? FaultNone
                                                                         : FaultOutOfAllocation;
      MemParamFunc: bounds_fault = fits(r_off_q, 64'(size), param_func_bytes_q) ? FaultNone
                                                                              : FaultOutOfAllocation;
      MemParamEntry, MemConst: bounds_fault = FaultReadOnly;
      default:      bounds_fault = FaultNone;
    endcase
  end

  // The space check of the resolved data location.
  fault_e space_fault;
  always_comb begin
    if (kind_q == KindSass) begin
      space_fault = (plg_q[lane] == (r_dest_q.space == MemShared)) ? FaultPlgMismatch : FaultNone;
    end else begin
      space_fault = space_fault_q[r_dest_q.space];
    end
  end

  // The mbarrier checks of st.async (golden: resolve, shared, 8-byte aligned, bounds, CTA).
  fault_e mbar_fault;
  always_comb begin
    mbar_fault = m_fault_q;
    if (mbar_fault == FaultNone && m_dest_q.space != MemShared) mbar_fault = FaultMbarNotShared;
    if (mbar_fault == FaultNone && mbar_q[lane][2:0] != 3'd0) mbar_fault = FaultMbarMisaligned;
    if (mbar_fault == FaultNone && !fits(m_off_q, 64'd8, shared_bytes_q))
      mbar_fault = FaultOutOfAllocation;
    if (mbar_fault == FaultNone && m_dest_q.cta != r_dest_q.cta) mbar_fault = FaultMbarCtaMismatch;
  end

  // The warp's copy of the current lane's barrier.
  logic       mb_hit;
  logic [4:0] mb_hit_idx;
  always_comb begin
    mb_hit     = 1'b0;
    mb_hit_idx = '0;
    for (int e = NumLanes - 1; e >= 0; e--) begin
      if (mb_valid_q[e] && mb_cta_q[e] == m_dest_q.cta && mb_off_q[e] == m_off_q) begin
        mb_hit     = 1'b1;
        mb_hit_idx = 5'(e);
      end
    end
  end

  // The first barrier copy still to write back.
  logic       wb_any;
  logic [4:0] wb_idx;
  always_comb begin
    wb_any = |mb_valid_q;
    wb_idx = '0;
    for (int e = NumLanes - 1; e >= 0; e--) begin
      if (mb_valid_q[e]) wb_idx = 5'(e);
    end
  end

  // The same-location rule (golden::LaneGroup): lane data moves in groups of 128 bytes, so
  // 2^(7 - log2 size) lanes (at most 32) move together; .mmio and st.async move one lane at a time.
  logic [2:0] in_size_log2, in_group_log2;
  always_comb begin
    in_size_log2  = in_elem_log2_i + {1'b0, in_elems_log2_i};
    in_group_log2 = in_size_log2 <= 3'd2 ? 3'd5 : 3'd7 - in_size_log2;
    if (in_mmio_i || in_kind_i == KindAsync || in_kind_i == KindAsyncRelease) in_group_log2 = '0;
  end

  // A .L2::cache_hint policy the GPU traps (golden::policy_traps, silicon-checked): bit 59 set,
  // and bit 60 clear or bits 55:52 all ones.
  function automatic logic policy_traps(input logic [63:0] p);
    logic [63:0] unused_p;
    unused_p = p;  // the other bits do not matter
    return p[59] && (!p[60] || &p[55:52]);
  endfunction
  logic policy_trap;
  always_comb begin
    policy_trap = 1'b0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (in_has_policy_i && in_active_i[l] && policy_traps(in_policy_i[l])) policy_trap = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------
  // The lane walk.
  logic take, lane_fault, lane_commit, lines_expected, mb_load, mb_update, tmem_done;
  fault_e warp_fault;  // a fault of every active lane of a new warp
  fault_e lane_fault_kind;
  logic [63:0] lane_fault_addr;

  assign in_ready_o = state_q == Idle;
  assign take       = in_valid_i && in_ready_o;

  // Whole-warp faults: a CTA outside the cluster (a bad instruction), and the weak st.async on a
  // cluster of one CTA.
  // tcgen05.st (golden execute_tcgen05): every thread active, one address, 32 bits, a CTA of
  // the cluster.
  logic addr_uniform;
  always_comb begin
    addr_uniform = 1'b1;
    for (int unsigned l = 1; l < NumLanes; l++) begin
      if (in_addr_i[l] != in_addr_i[0]) addr_uniform = 1'b0;
    end
  end
  always_comb begin
    warp_fault = FaultNone;
    if (in_kind_i == KindTcgen05) begin
      if (in_active_i != '1) warp_fault = FaultTmemInactiveThreads;
      else if (!addr_uniform) warp_fault = FaultTmemAddrNotUniform;
      else if (in_addr_i[0][63:32] != '0 || 64'(in_cta_i) >= cluster_q)
        warp_fault = FaultOutOfWindow;
    end else if (64'(in_cta_i) >= cluster_q) begin
      warp_fault = FaultBadInstruction;
    end else if (policy_trap) begin
      warp_fault = FaultIllegalInstruction;
    end else if (in_kind_i == KindAsync && cluster_q < 64'd2) begin
      warp_fault = FaultClusterTooSmall;
    end
  end

  always_comb begin
    lines_expected = 1'b0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (stored_q[l] && |acc_q[l].byte_mask) lines_expected = 1'b1;
    end
  end

  always_comb begin
    state_d        = state_q;
    todo_d         = todo_q;
    stored_d       = stored_q;
    forced_d       = forced_q;
    any_global_d   = any_global_q;
    any_shared_d   = any_shared_q;
    a_addr_d       = a_addr_q;
    a_mask_d       = a_mask_q;
    a_data_d       = a_data_q;
    r_dest_d       = r_dest_q;
    r_off_d        = r_off_q;
    m_dest_d       = m_dest_q;
    m_off_d        = m_off_q;
    m_fault_d      = m_fault_q;
    mb_valid_d     = mb_valid_q;
    mb_idx_d       = mb_idx_q;
    mb_next_d      = mb_next_q;
    ev_completed_d = ev_completed_q;

    sa_in_valid       = 1'b0;
    sa_out_ready      = 1'b0;
    rs_in_valid       = 1'b0;
    rs_out_ready      = 1'b0;
    mb_in_valid       = 1'b0;
    mb_out_ready      = 1'b0;
    co_in_valid       = 1'b0;
    tw_in_valid       = 1'b0;
    tw_out_ready      = 1'b0;
    reg_ready_o       = 1'b0;
    tmem_done         = 1'b0;
    alloc_req_valid_o = 1'b0;
    mbar_rd_valid_o   = 1'b0;
    mbar_wr_valid_o   = 1'b0;
    ev_valid_o        = 1'b0;
    st_valid_o        = 1'b0;

    mb_load         = 1'b0;
    mb_update       = 1'b0;
    lane_fault      = 1'b0;
    lane_fault_kind = FaultNone;
    lane_fault_addr = '0;
    lane_commit     = 1'b0;

    unique case (state_q)
      Idle: ;
      Align: begin
        if (todo_q == '0) begin
          state_d = Coalesce;
        end else begin
          sa_in_valid = 1'b1;
          if (sa_in_ready) state_d = AlignWait;
        end
      end
      AlignWait: begin
        sa_out_ready = 1'b1;
        if (sa_out_valid) begin
          a_addr_d   = sa_addr;
          a_mask_d   = sa_mask;
          a_data_d   = sa_data;
          if (sa_fault) begin
            lane_fault      = 1'b1;
            lane_fault_kind = FaultMisaligned;
            lane_fault_addr = addr_q[lane];
          end else begin
            forced_d[lane] = sa_forced;  // forced down, whatever the later checks say
            state_d        = Resolve;
          end
        end
      end
      Resolve: begin
        rs_in_valid = 1'b1;
        if (rd_in_ready && rm_in_ready) state_d = ResolveWait;
      end
      ResolveWait: begin
        rs_out_ready = 1'b1;
        if (rd_out_valid && rm_out_valid) begin
          r_dest_d  = rd_dest;
          r_off_d   = rd_off;
          m_dest_d  = rm_dest;
          m_off_d   = rm_off;
          m_fault_d = rm_fault;
          state_d   = MbarCheck;  // the checks below read the captured values next cycle
          if (rd_fault != FaultNone) begin
            lane_fault      = 1'b1;
            lane_fault_kind = rd_fault;
            lane_fault_addr = a_addr_q;
          end
        end
      end
      MbarCheck: begin  // the data checks, then the mbarrier ones
        if (space_fault != FaultNone) begin
          lane_fault      = 1'b1;
          lane_fault_kind = space_fault;
          lane_fault_addr = a_addr_q;
        end else if (r_dest_q.space == MemGlobal) begin
          state_d = Alloc;
        end else if (bounds_fault != FaultNone) begin
          lane_fault      = 1'b1;
          lane_fault_kind = bounds_fault;
          lane_fault_addr = a_addr_q;
        end else if (kind_q != KindAsync) begin
          lane_commit = 1'b1;
        end else if (mbar_fault != FaultNone) begin
          lane_fault      = 1'b1;
          lane_fault_kind = mbar_fault;
          lane_fault_addr = mbar_q[lane];
        end else if (mb_hit) begin
          mb_idx_d = mb_hit_idx;
          state_d  = MbarStep;
        end else begin
          state_d = MbarRead;
        end
      end
      Alloc: begin
        alloc_req_valid_o = 1'b1;
        if (alloc_rsp_valid_i) begin
          if (!alloc_rsp_ok_i) begin
            lane_fault      = 1'b1;
            lane_fault_kind = FaultOutOfAllocation;
            lane_fault_addr = a_addr_q;
          end else if (kind_q != KindAsync) begin
            lane_commit = 1'b1;
          end else begin
            // st.async's data is shared memory: a global destination already failed the space
            // rule, so this is not reached; kept for completeness.
            lane_fault      = 1'b1;
            lane_fault_kind = FaultMbarNotShared;
            lane_fault_addr = mbar_q[lane];
          end
        end
      end
      MbarRead: begin
        mbar_rd_valid_o = 1'b1;
        if (mbar_rd_rsp_valid_i) begin
          mb_valid_d[mb_next_q] = 1'b1;
          mb_load               = 1'b1;
          mb_idx_d              = mb_next_q;
          mb_next_d             = mb_next_q + 5'd1;
          state_d               = MbarStep;
        end
      end
      MbarStep: begin
        mb_in_valid = 1'b1;
        if (mb_in_ready) state_d = MbarStepWait;
      end
      MbarStepWait: begin
        mb_out_ready = 1'b1;
        if (mb_out_valid) begin
          if (mb_fault != FaultNone) begin
            lane_fault      = 1'b1;
            lane_fault_kind = mb_fault;
            lane_fault_addr = mbar_q[lane];
          end else begin
            mb_update           = 1'b1;
            ev_completed_d      = mb_completed;
            state_d             = Event;
          end
        end
      end
      Event: begin
        ev_valid_o = 1'b1;
        if (ev_ready_i) lane_commit = 1'b1;
      end
      WriteBack: begin  // after the data, as the barrier's bytes may be among them
        if (!wb_any) begin
          state_d = Status;
        end else begin
          mbar_wr_valid_o = 1'b1;
          if (mbar_wr_ready_i) mb_valid_d[wb_idx] = 1'b0;
        end
      end
      Coalesce: begin
        if (!lines_expected) begin
          state_d = WriteBack;
        end else begin
          co_in_valid = 1'b1;
          if (co_in_ready) state_d = Lines;
        end
      end
      Lines: begin
        if (co_out_valid && req_ready_i && co_last) state_d = WriteBack;
      end
      TmemBeats: begin  // register beats to stu_tmem_wdp
        tw_in_valid = reg_valid_i;
        reg_ready_o = tw_in_ready;
        if (reg_valid_i && tw_in_ready && reg_last_i) state_d = TmemRuns;
      end
      TmemRuns: begin  // its runs to the TMEM port, then its status beat
        tw_out_ready = tw_write_valid ? tm_ready_i : 1'b1;
        if (tw_out_valid && !tw_write_valid && tw_last) begin
          tmem_done = 1'b1;
          state_d   = Status;
        end
      end
      TmemDrain: begin  // a faulted tcgen05.st: its register beats are taken and dropped
        reg_ready_o = 1'b1;
        if (reg_valid_i && reg_last_i) state_d = Status;
      end
      Status: begin
        st_valid_o = 1'b1;
        if (st_ready_i) state_d = Idle;
      end
      default: state_d = Idle;
    endcase

    // A lane ends: faulted (writes nothing) or committed (a lane access; written below).
    if (lane_commit) begin
      stored_d[lane]          = 1'b1;
      any_global_d            = any_global_q || r_dest_q.space == MemGlobal;
      any_shared_d            = any_shared_q || r_dest_q.space == MemShared;
    end
    if (lane_fault || lane_commit) begin
      todo_d[lane] = 1'b0;
      state_d      = Align;
    end

    if (tmem_done) begin
      for (int unsigned t = 0; t < NumLanes; t++) stored_d[t] = tw_fault[t] == FaultNone;
    end

    // A new warp.
    if (take) begin
      stored_d     = '0;
      forced_d     = '0;
      any_global_d = 1'b0;
      any_shared_d = 1'b0;
      mb_valid_d   = '0;
      mb_next_d    = '0;
      todo_d       = in_active_i;
      state_d      = Align;
      if (warp_fault != FaultNone) todo_d = '0;
      if (in_kind_i == KindTcgen05) begin
        todo_d  = '0;
        state_d = warp_fault != FaultNone ? TmemDrain : TmemBeats;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      todo_q  <= '0;
    end else begin
      state_q <= state_d;
      todo_q  <= todo_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      kind_q        <= in_kind_i;
      cta_q         <= in_cta_i;
      warp_q        <= in_warp_i;
      generic_q     <= in_generic_i;
      space_q       <= in_space_i;
      elem_log2_q   <= in_elem_log2_i;
      elems_log2_q  <= in_elems_log2_i;
      sinks_q       <= in_sinks_i;
      mode_q        <= in_mode_i;
      space_fault_q <= in_space_fault_i;
      plg_q         <= in_plg_i;
      scope_q       <= in_scope_i;
      group_log2_q  <= in_group_log2;
      addr_q        <= in_addr_i;
      mbar_q        <= in_mbar_i;
      data_q        <= in_data_i;
      shape_q       <= in_shape_i;
      num_q         <= in_num_i;
      unpack_q      <= in_unpack_i;
      split_q       <= in_split_i;
      alloc_q       <= in_alloc_i;
    end
    stored_q       <= stored_d;
    forced_q       <= forced_d;
    any_global_q   <= any_global_d;
    any_shared_q   <= any_shared_d;
    a_addr_q       <= a_addr_d;
    a_mask_q       <= a_mask_d;
    a_data_q       <= a_data_d;
    r_dest_q       <= r_dest_d;
    r_off_q        <= r_off_d;
    m_dest_q       <= m_dest_d;
    m_off_q        <= m_off_d;
    m_fault_q      <= m_fault_d;
    mb_valid_q     <= mb_valid_d;
    mb_idx_q       <= mb_idx_d;
    mb_next_q      <= mb_next_d;
    ev_completed_q <= ev_completed_d;
  end

  // The per-lane results and the barrier copies, written only where they change (a copy of
  // every array each cycle would dominate the simulation's cost).
  always_ff @(posedge clk_i) begin
    if (take) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        // A non-uniform TMEM address faults every lane at its own address; other warp faults
        // name the TMEM address (tcgen05.st) or none.
        fault_q[l]      <= (in_active_i[l] || warp_fault == FaultTmemAddrNotUniform) ? warp_fault
                                                                                    : FaultNone;
        fault_addr_q[l] <= warp_fault == FaultTmemAddrNotUniform ? in_addr_i[l]
                         : (in_kind_i == KindTcgen05 && warp_fault == FaultOutOfWindow) ?
                           in_addr_i[0] : '0;
      end
    end else if (tmem_done) begin
      for (int unsigned t = 0; t < NumLanes; t++) begin
        fault_q[t]      <= tw_fault[t];
        fault_addr_q[t] <= 64'(tw_fault_addr[t]);
      end
    end else if (lane_fault) begin
      fault_q[lane]      <= lane_fault_kind;
      fault_addr_q[lane] <= lane_fault_addr;
    end
    if (lane_commit) begin
      acc_q[lane].dest      <= r_dest_q;
      acc_q[lane].offset    <= r_off_q;
      acc_q[lane].size      <= size;
      acc_q[lane].byte_mask <= a_mask_q >> a_addr_q[4:0];
      acc_q[lane].data      <= a_data_q >> {a_addr_q[4:0], 3'b000};
    end
    if (mb_load) begin
      mb_cta_q[mb_next_q]  <= m_dest_q.cta;
      mb_off_q[mb_next_q]  <= m_off_q;
      mb_word_q[mb_next_q] <= mbar_rd_word_i;
    end
    if (mb_update) mb_word_q[mb_idx_q] <= mb_word_out;
  end

  // Ports fed from the captured lane.
  assign alloc_req_addr_o = r_off_q;
  assign alloc_req_size_o = size;
  assign mbar_rd_cta_o    = m_dest_q.cta;
  assign mbar_rd_offset_o = m_off_q;
  assign mbar_wr_cta_o    = mb_cta_q[wb_idx];
  assign mbar_wr_offset_o = mb_off_q[wb_idx];
  assign mbar_wr_word_o   = mb_word_q[wb_idx];
  assign ev_cta_o         = mb_cta_q[mb_idx_q];
  assign ev_offset_o      = mb_off_q[mb_idx_q];
  assign ev_bytes_o       = tx_bytes;
  assign ev_lane_o        = lane;
  assign ev_completed_o   = ev_completed_q;
  assign st_fault_o       = fault_q;
  assign st_fault_addr_o  = fault_addr_q;
  assign st_stored_o      = stored_q;
  assign st_forced_o      = forced_q;
  assign st_scope_o       = (scope_q == ScopeSys && any_shared_q && !any_global_q) ? ScopeCluster
                                                                                 : scope_q;

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  // A lane never both faults and stores; the status names only active lanes.
  always_ff @(posedge clk_i) begin
    if (rst_ni && st_valid_o) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        LaneOutcome_A: assert (!(stored_q[l] && fault_q[l] != FaultNone))
          else $error("stu_store_unit: lane %0d both stored and faulted", l);
      end
      // The status comes after every lane is done.
      StatusAfterLanes_A: assert (todo_q == '0)
        else $error("stu_store_unit: status with lanes left %08x", todo_q);
    end
  end
  // One barrier copy per lane at most.
  MbarCopies_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      state_q == MbarRead |-> mb_next_q != 5'd31 || !mb_valid_q[31])
    else $error("stu_store_unit: more barrier copies than lanes");
`endif

endmodule
