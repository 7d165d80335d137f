// Store path: the store unit with the caches its global stores go through, as one block.
//
//   stu_store_unit ─► line requests ─► memory (req port: every line, the architectural update)
//                          └─ global lines ─► stu_l1_wpath ─► stu_l2_wslice ─► DRAM writes
//                             (+ stu_l2_action)
//
// Every global line request of a store is offered to the L1 write path together with the
// store's cache attributes and ordering, in the coalescer's order; the first global line of a
// release store is the release point (the write buffer drains first); the L2 action each line
// carries is decided here (stu_l2_action, from the store's cache operator, .L2:: priority and
// decoded policy, .mmio and the line's address). A command drains the write buffer into the L2,
// and a flush then writes every dirty L2 line to DRAM.
// Reference: golden::MemoryHierarchy (store, drain, flush) behind golden::execute.
//
// With `Caches` 0 the caches are left out: line requests go to memory only and the cache ports
// are idle (a test without caches pays nothing for them).
`include "stu_pkg.svh"

module stu_store_path
  import stu_pkg::*;
#(
  parameter int unsigned Caches    = 1,  // 0: no caches
  parameter int unsigned L1Sets    = 64,  // the caches' maxima (the geometry in use: cfg_*)
  parameter int unsigned L1Ways    = 8,
  parameter int unsigned WbEntries = 16,
  parameter int unsigned L2Sets    = 128,
  parameter int unsigned L2Ways    = 16
) (
  input  logic                   clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the blocks' assertions
  input  logic                   rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration of the store unit (stu_store_unit's selectors) and of the caches (static).
  input  logic                   cfg_valid_i,
  input  logic [3:0]             cfg_sel_i,
  input  logic [63:0]            cfg_data_i,
  input  logic [$clog2(L1Sets)-1:0]    cfg_l1_set_mask_i,
  input  logic [$clog2(L1Ways):0]      cfg_l1_ways_i,
  input  logic [$clog2(WbEntries):0]   cfg_wb_entries_i,
  input  logic [$clog2(L2Sets)-1:0]    cfg_l2_set_mask_i,
  input  logic [$clog2(L2Ways):0]      cfg_l2_ways_i,
  input  logic                         cfg_l2_random_i,  // the L2's replacement (stu_l2_wslice)
  // tcgen05.alloc / dealloc.
  input  logic                   ta_req_valid_i,
  input  logic                   ta_req_dealloc_i,
  input  logic [3:0]             ta_req_cta_i,
  input  logic [31:0]            ta_req_cols_i,
  input  logic [31:0]            ta_req_taddr_i,
  output logic                   ta_rsp_valid_o,
  output logic                   ta_rsp_ok_o,
  output logic [31:0]            ta_rsp_taddr_o,
  // Warp store in (stu_store_unit's in_* ports).
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  logic [2:0]             in_kind_i,
  input  logic [15:0]            in_cta_i,
  input  logic [15:0]            in_warp_i,
  input  logic [NumLanes-1:0]    in_active_i,
  input  logic                   in_generic_i,
  input  isa_space_e             in_space_i,
  input  logic [2:0]             in_elem_log2_i,
  input  logic [1:0]             in_elems_log2_i,
  input  logic [7:0]             in_sinks_i,
  input  sem_e                   in_sem_i,
  input  logic                   in_has_scope_i,
  input  scope_e                 in_scope_i,
  input  logic                   in_mmio_i,
  input  logic                   in_has_cop_i,
  input  cache_op_e              in_cop_i,
  input  logic                   in_has_l1_i,
  input  l1_evict_e              in_l1_i,
  input  logic                   in_has_l2_i,
  input  l2_evict_e              in_l2_i,
  input  logic                   in_has_policy_i,
  input  logic                   in_abs_i,
  input  logic [63:0]            in_imm_i,
  input  logic                   in_mbar_abs_i,
  input  logic [63:0]            in_mbar_imm_i,
  input  logic                   in_sass_extended_i,
  input  logic                   in_sass_no_ra_i,
  input  logic [7:0]             in_sass_ra_i,
  input  logic [2:0]             in_guard_i,
  input  logic                   in_guard_neg_i,
  input  logic [2:0]             in_plg_i,
  input  logic                   in_plg_neg_i,
  input  logic [NumLanes*64-1:0] in_addr_i,      // lane l's at [l*W +: W] (W its width)
  input  logic [NumLanes*64-1:0] in_mbar_i,
  input  logic [NumLanes*64-1:0] in_policy_i,
  input  logic [NumLanes*32-1:0] in_ra_lo_i,
  input  logic [NumLanes*32-1:0] in_ra_hi_i,
  input  logic [NumLanes*7-1:0]  in_pred_i,
  input  logic [NumLanes*MaxAccessBytes*8-1:0] in_data_i,
  input  tmem_shape_e            in_shape_i,
  input  logic [7:0]             in_num_i,
  input  logic                   in_unpack_i,
  input  logic [31:0]            in_split_i,
  input  logic                   reg_valid_i,
  output logic                   reg_ready_o,
  input  logic                   reg_last_i,
  input  logic [NumLanes*32-1:0] reg_data_i,
  output logic                   tm_valid_o,
  input  logic                   tm_ready_i,
  output tmem_write_t            tm_o,
  output logic [NumLanes-1:0]    alloc_req_valid_o,
  output logic [NumLanes*64-1:0] alloc_req_addr_o,
  output logic [5:0]             alloc_req_size_o,
  input  logic [NumLanes-1:0]    alloc_rsp_valid_i,
  input  logic [NumLanes-1:0]    alloc_rsp_ok_i,
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
  output logic                   ev_valid_o,
  input  logic                   ev_ready_i,
  output logic [15:0]            ev_cta_o,
  output logic [63:0]            ev_offset_o,
  output logic [31:0]            ev_bytes_o,
  output logic [4:0]             ev_lane_o,
  output logic                   ev_completed_o,
  // Every line request, to memory.
  output logic                   req_valid_o,
  input  logic                   req_ready_i,
  output line_req_t              req_o,
  // The store's status, with its cache attributes (golden::CacheAttrs' policy).
  output logic                   st_valid_o,
  input  logic                   st_ready_i,
  output logic [NumLanes*FaultBits-1:0] st_fault_o,  // fault_e of lane l at [l*FaultBits +: ..]
  output logic [NumLanes*64-1:0] st_fault_addr_o,
  output logic [NumLanes-1:0]    st_stored_o,
  output logic [NumLanes-1:0]    st_forced_o,
  output logic [31:0]            st_bytes_o,
  output sem_e                   st_sem_o,
  output logic                   st_strong_o,
  output logic                   st_has_scope_o,
  output scope_e                 st_scope_o,
  output logic                   st_release_o,
  output logic                   st_volatile_o,
  output logic                   st_async_o,
  output policy_kind_e           st_policy_kind_o,
  output l2_priority_e           st_policy_primary_o,
  output l2_priority_e           st_policy_secondary_o,
  output logic [4:0]             st_policy_lines_o,
  // Cache commands: drain the write buffer into the L2 (and with `flush`, then every dirty L2
  // line to DRAM). A command comes after every store taken before it (it waits while a store
  // is in progress); a store taken with it or after it may go into the L1 while it drains.
  // cmd_busy_o falls when the drain is complete: the buffer empty, the L1's last event taken,
  // its last write in the L2 (and for a flush, the L2's flush result taken).
  input  logic                   cmd_valid_i,
  output logic                   cmd_ready_o,
  input  logic                   cmd_flush_i,
  output logic                   cmd_busy_o,     // a command still in progress
  // What the caches do: L1 events, the L2 writes the slice takes, its results, DRAM writes.
  output logic                   l1_ev_valid_o,
  input  logic                   l1_ev_ready_i,
  output l1_event_t              l1_ev_o,
  output logic                   l2_wr_valid_o,  // a monitor: no back-pressure
  output l2_write_t              l2_wr_o,
  output logic                   l2_res_valid_o,
  input  logic                   l2_res_ready_i,
  output l2_result_t             l2_res_o,
  output logic                   dram_valid_o,
  input  logic                   dram_ready_i,
  output dram_write_t            dram_o,
  // Debug reads (combinational) of a line in the L1 and in the L2, and the buffer's occupancy.
  input  logic [63:0]            dbg_l1_line_i,
  output logic                   dbg_l1_hit_o,
  output logic [31:0]            dbg_l1_set_o,
  output logic [7:0]             dbg_l1_way_o,
  output logic [127:0]           dbg_l1_valid_o,
  output logic [127:0]           dbg_l1_dirty_o,
  output evict_class_e           dbg_l1_cls_o,
  output logic [7:0]             dbg_wb_count_o,
  input  logic [63:0]            dbg_l2_line_i,
  output logic                   dbg_l2_hit_o,
  output logic [31:0]            dbg_l2_set_o,
  output logic [7:0]             dbg_l2_way_o,
  output logic [127:0]           dbg_l2_valid_o,
  output logic [127:0]           dbg_l2_dirty_o,
  output evict_class_e           dbg_l2_cls_o
);

  // ---------------------------------------------------------------------------------------
  // The store unit.
  logic      su_req_valid, su_req_ready;
  line_req_t su_req;
  logic      a_release, a_strong, a_mmio, a_has_cop, a_has_l1, a_has_l2;
  cache_op_e a_cop;
  l1_evict_e a_l1;
  l2_evict_e a_l2;

  stu_store_unit u_unit (
    .clk_i, .rst_ni, .cfg_valid_i, .cfg_sel_i, .cfg_data_i,
    .ta_req_valid_i, .ta_req_dealloc_i, .ta_req_cta_i, .ta_req_cols_i, .ta_req_taddr_i,
    .ta_rsp_valid_o, .ta_rsp_ok_o, .ta_rsp_taddr_o,
    .in_valid_i, .in_ready_o, .in_kind_i, .in_cta_i, .in_warp_i, .in_active_i, .in_generic_i,
    .in_space_i, .in_elem_log2_i, .in_elems_log2_i, .in_sinks_i, .in_sem_i, .in_has_scope_i,
    .in_scope_i, .in_mmio_i, .in_has_cop_i, .in_cop_i, .in_has_l1_i, .in_l1_i, .in_has_l2_i,
    .in_l2_i, .in_has_policy_i, .in_abs_i, .in_imm_i, .in_mbar_abs_i, .in_mbar_imm_i,
    .in_sass_extended_i, .in_sass_no_ra_i, .in_sass_ra_i, .in_guard_i, .in_guard_neg_i,
    .in_plg_i, .in_plg_neg_i, .in_addr_i, .in_mbar_i, .in_policy_i, .in_ra_lo_i, .in_ra_hi_i,
    .in_pred_i, .in_data_i, .in_shape_i, .in_num_i, .in_unpack_i, .in_split_i,
    .reg_valid_i, .reg_ready_o, .reg_last_i, .reg_data_i,
    .tm_valid_o, .tm_ready_i, .tm_o,
    .alloc_req_valid_o, .alloc_req_addr_o, .alloc_req_size_o, .alloc_rsp_valid_i,
    .alloc_rsp_ok_i,
    .mbar_rd_valid_o, .mbar_rd_cta_o, .mbar_rd_offset_o, .mbar_rd_rsp_valid_i, .mbar_rd_word_i,
    .mbar_wr_valid_o, .mbar_wr_ready_i, .mbar_wr_cta_o, .mbar_wr_offset_o, .mbar_wr_word_o,
    .ev_valid_o, .ev_ready_i, .ev_cta_o, .ev_offset_o, .ev_bytes_o, .ev_lane_o, .ev_completed_o,
    .req_valid_o            (su_req_valid),
    .req_ready_i            (su_req_ready),
    .req_o                  (su_req),
    .attr_release_o         (a_release),
    .attr_strong_o          (a_strong),
    .attr_mmio_o            (a_mmio),
    .attr_has_cop_o         (a_has_cop),
    .attr_cop_o             (a_cop),
    .attr_has_l1_o          (a_has_l1),
    .attr_l1_o              (a_l1),
    .attr_has_l2_o          (a_has_l2),
    .attr_l2_o              (a_l2),
    .attr_policy_kind_o     (st_policy_kind_o),
    .attr_policy_primary_o  (st_policy_primary_o),
    .attr_policy_secondary_o(st_policy_secondary_o),
    .attr_policy_lines_o    (st_policy_lines_o),
    .st_valid_o, .st_ready_i, .st_fault_o, .st_fault_addr_o, .st_stored_o, .st_forced_o,
    .st_bytes_o, .st_sem_o, .st_strong_o, .st_has_scope_o, .st_scope_o, .st_release_o,
    .st_volatile_o, .st_async_o
  );

  // The cache path's requests (declared here, not in g_caches: yosys 0.23 reads no field of a
  // struct declared in a generate block).
  typedef enum logic [2:0] {CIdle, CDrain, CDrained, CFlush, CFlushWait} cstate_e;
  /* verilator lint_off UNUSEDSIGNAL */
  /* verilator lint_off UNDRIVEN */
  l2_write_t l1_wr, l2_req;
  l1_req_t   l1_req;
  /* verilator lint_on UNDRIVEN */
  /* verilator lint_on UNUSEDSIGNAL */

  if (Caches != 0) begin : g_caches
    // ---------------------------------------------------------------------------------------
    // Global lines to the L1 write path, with the store's attributes and each line's L2 action.
    logic to_l1, l1_req_valid, l1_req_ready;
    assign to_l1        = su_req.dest.space == MemGlobal;
    assign req_valid_o  = su_req_valid && (!to_l1 || l1_req_ready);
    assign l1_req_valid = su_req_valid && to_l1 && req_ready_i;
    assign su_req_ready = req_ready_i && (!to_l1 || l1_req_ready);
    assign req_o        = su_req;

    // The release point: the first global line of a release store.
    logic seen_global_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) seen_global_q <= 1'b0;
      else if (in_valid_i && in_ready_o) seen_global_q <= 1'b0;
      else if (l1_req_valid && l1_req_ready) seen_global_q <= 1'b1;
    end

    evict_class_e l2_cls;
    logic l2_keep, l2_through;
    stu_l2_action u_l2_action (
      .has_l2_i      (a_has_l2),
      .l2_i          (a_l2),
      .policy_kind_i (st_policy_kind_o),
      .primary_i     (st_policy_primary_o),
      .secondary_i   (st_policy_secondary_o),
      .lines_i       (st_policy_lines_o),
      .has_cop_i     (a_has_cop),
      .cop_i         (a_cop),
      .line_bits_i   (su_req.line[10:7]),
      .cls_o         (l2_cls),
      .keep_cls_o    (l2_keep),
      .through_o     (l2_through)
    );

    // Commands: drain (a request to the L1), then for a flush, once the buffer is empty and no
    // L2 write is waiting, a flush request to the L2.
    cstate_e cs_q, cs_d;
    logic    flush_q;
    logic    l1_wr_valid, l1_wr_ready, l2_req_valid, l2_req_ready;

    always_comb begin
      l1_req = '0;
      if (cs_q == CDrain) begin
        l1_req.drain = 1'b1;
      end else begin
        l1_req.line        = su_req.line;
        l1_req.bytes       = su_req.byte_mask;
        l1_req.data        = su_req.data;
        l1_req.has_cop     = a_has_cop;
        l1_req.cop         = a_cop;
        l1_req.has_l1      = a_has_l1;
        l1_req.l1          = a_l1;
        l1_req.is_strong   = a_strong;
        l1_req.is_mmio     = a_mmio;
        l1_req.is_release  = a_release && !seen_global_q;
        l1_req.l2_cls      = l2_cls;
        l1_req.l2_keep_cls = l2_keep;
        l1_req.l2_through  = l2_through;
      end
    end

    logic l1_in_valid, l1_in_ready;
    assign l1_in_valid  = cs_q == CDrain || l1_req_valid;
    assign l1_req_ready = l1_in_ready && cs_q != CDrain;
    // A command is ordered after every store taken before it: it is taken only while no store
    // is in progress (the unit ready for a new warp), so their lines are in the L1 ahead of it.
    assign cmd_ready_o  = cs_q == CIdle && in_ready_o;
    assign cmd_busy_o   = cs_q != CIdle;

    stu_l1_wpath #(.Sets(L1Sets), .Ways(L1Ways), .WbEntries(WbEntries)) u_l1 (
      .clk_i, .rst_ni,
      .cfg_set_mask_i   (cfg_l1_set_mask_i),
      .cfg_ways_i       (cfg_l1_ways_i),
      .cfg_wb_entries_i (cfg_wb_entries_i),
      .dbg_line_i       (dbg_l1_line_i),
      .dbg_hit_o        (dbg_l1_hit_o),
      .dbg_set_o        (dbg_l1_set_o),
      .dbg_way_o        (dbg_l1_way_o),
      .dbg_valid_o      (dbg_l1_valid_o),
      .dbg_dirty_o      (dbg_l1_dirty_o),
      .dbg_cls_o        (dbg_l1_cls_o),
      .dbg_wb_count_o   (dbg_wb_count_o),
      .req_valid_i      (l1_in_valid),
      .req_ready_o      (l1_in_ready),
      .req_i            (l1_req),
      .ev_valid_o       (l1_ev_valid_o),
      .ev_ready_i       (l1_ev_ready_i),
      .ev_o             (l1_ev_o),
      .l2_valid_o       (l1_wr_valid),
      .l2_ready_i       (l1_wr_ready),
      .l2_o             (l1_wr)
    );

    // The L2's requests: the L1's writes, or the flush.
    always_comb begin
      l2_req       = l1_wr;
      l2_req_valid = l1_wr_valid && cs_q != CFlush;
      l1_wr_ready  = l2_req_ready && cs_q != CFlush;
      if (cs_q == CFlush) begin
        l2_req       = '0;
        l2_req.flush = 1'b1;
        l2_req_valid = 1'b1;
      end
    end
    assign l2_wr_valid_o = l2_req_valid && l2_req_ready && !l2_req.flush;
    assign l2_wr_o       = l2_req;

    stu_l2_wslice #(.Sets(L2Sets), .Ways(L2Ways)) u_l2 (
      .clk_i, .rst_ni,
      .cfg_set_mask_i (cfg_l2_set_mask_i),
      .cfg_ways_i     (cfg_l2_ways_i),
      .cfg_random_i   (cfg_l2_random_i),
      .dbg_line_i     (dbg_l2_line_i),
      .dbg_hit_o      (dbg_l2_hit_o),
      .dbg_set_o      (dbg_l2_set_o),
      .dbg_way_o      (dbg_l2_way_o),
      .dbg_valid_o    (dbg_l2_valid_o),
      .dbg_dirty_o    (dbg_l2_dirty_o),
      .dbg_cls_o      (dbg_l2_cls_o),
      .req_valid_i    (l2_req_valid),
      .req_ready_o    (l2_req_ready),
      .req_i          (l2_req),
      .res_valid_o    (l2_res_valid_o),
      .res_ready_i    (l2_res_ready_i),
      .res_o          (l2_res_o),
      .dram_valid_o,
      .dram_ready_i,
      .dram_o
    );

    always_comb begin
      cs_d = cs_q;
      unique case (cs_q)
        CIdle:      if (cmd_valid_i && cmd_ready_o) cs_d = CDrain;
        CDrain:     if (l1_in_ready) cs_d = CDrained;
        // The drain is done when the buffer is empty and its last write is in the L2.
        CDrained:   if (dbg_wb_count_o == '0 && !l1_wr_valid && !l1_ev_valid_o)
                      cs_d = flush_q ? CFlush : CIdle;
        CFlush:     if (l2_req_ready) cs_d = CFlushWait;
        CFlushWait: if (l2_res_valid_o && l2_res_ready_i && l2_res_o.flush) cs_d = CIdle;
        default:    cs_d = CIdle;
      endcase
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cs_q    <= CIdle;
        flush_q <= 1'b0;
      end else begin
        cs_q <= cs_d;
        if (cmd_valid_i && cmd_ready_o) flush_q <= cmd_flush_i;
      end
    end
  end else begin : g_no_caches
    assign req_valid_o   = su_req_valid;
    assign su_req_ready  = req_ready_i;
    assign req_o         = su_req;
    assign cmd_ready_o   = 1'b1;
    assign cmd_busy_o    = 1'b0;
    assign l1_ev_valid_o = 1'b0;
    assign l1_ev_o       = '0;
    assign l2_wr_valid_o = 1'b0;
    assign l2_wr_o       = '0;
    assign l2_res_valid_o = 1'b0;
    assign l2_res_o      = '0;
    assign dram_valid_o  = 1'b0;
    assign dram_o        = '0;
    assign dbg_l1_hit_o  = 1'b0;
    assign dbg_l1_set_o  = '0;
    assign dbg_l1_way_o  = '0;
    assign dbg_l2_set_o  = '0;
    assign dbg_l2_way_o  = '0;
    assign dbg_l1_valid_o = '0;
    assign dbg_l1_dirty_o = '0;
    assign dbg_l1_cls_o  = EvictNormal;
    assign dbg_wb_count_o = '0;
    assign dbg_l2_hit_o  = 1'b0;
    assign dbg_l2_valid_o = '0;
    assign dbg_l2_dirty_o = '0;
    assign dbg_l2_cls_o  = EvictNormal;
    logic unused_no_caches;
    assign unused_no_caches = ^{cmd_valid_i, cmd_flush_i, l1_ev_ready_i, l2_res_ready_i,
                                dram_ready_i, dbg_l1_line_i, dbg_l2_line_i, cfg_l1_set_mask_i,
                                cfg_l1_ways_i, cfg_wb_entries_i, cfg_l2_set_mask_i, cfg_l2_ways_i,
                                cfg_l2_random_i,
                                a_release, a_strong, a_mmio, a_has_cop, a_cop, a_has_l1, a_l1,
                                a_has_l2, a_l2};
  end

endmodule
