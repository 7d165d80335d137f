// Store unit top: one warp store (PTX st, st.async, tcgen05.st, SASS ST) in, as its static
// fields (what the SASS instruction encodes) and its operand registers; line requests, TMEM
// writes, mbarrier reads, writes and complete-tx events, and a per-lane status out. Every
// decision that depends on run-time values is made here: address generation (PTX base + offset,
// SASS Ra/.E/immediate rules), the SASS guard and Plg, the cache policy (its decode and the
// trap), the qualifier rule of the space each lane resolves to, alignment, resolution, bounds,
// the same-location rule, the mbarrier arithmetic, the TMEM allocation and mapping, the
// ordering and the scope narrowing.
//
// The lane path moves a warp's lane data in groups of 128 bytes, one group per cycle, as the
// same-location rule says the hardware does: G = 128 / (bytes per lane) lanes (at most 32; one
// for .mmio and st.async) enter the path together, group after group in lane order. Each lane
// has its own stu_store_align -> stu_addr_resolve pipeline (one cycle each), then its checks:
// the qualifier rule of the resolved space (PTX) or Plg (SASS), the bounds (global: asked on the
// lane's allocation port, answered any cycle later; shared, local, .param::func: the configured
// sizes; kernel .param and .const are read-only). A lane that passes becomes a lane access;
// st.async lanes then go, in lane order, through the mbarrier engine (the barrier address on its
// own resolver: shared, 8-byte aligned, in bounds, in the data's CTA; complete-tx of the lane's
// byte count on stu_mbarrier, on a copy of the barrier word kept for the warp, read once on the
// mbarrier port). When every lane is done, stu_coalescer merges the accesses in the rule's rank
// order into line requests, the barrier words are written back (after the data: a store may
// write the barrier's own bytes), and a status beat closes the warp.
//
// tcgen05.st takes the TMEM path: the warp-level checks (every thread active, one address for
// the warp, a 32-bit TMEM address, a CTA of the cluster) fault the whole warp; otherwise its
// register beats (reg port) go to stu_tmem_wdp with the header and the CTA's allocation (kept by
// stu_tmem_alloc, which tcgen05.alloc/dealloc requests update), its runs leave on the TMEM port
// and its per-thread faults become the status. A warp that faulted still takes (and drops) its
// register beats.
// Reference: golden::execute / golden::execute_sass (include/stu/golden/executor.h).
//
// Latency: a group enters per cycle; a lane is done 3 cycles after its group entered (global:
// plus the allocation round trip); then one cycle per line request and the status. One warp at
// a time. valid/ready on every port; the allocation and mbarrier-read ports are
// request/response (the response may come any cycle after the request).
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_store_unit
  import stu_pkg::*;
(
  input  logic                   clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                   rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration: selectors 0..9 are stu_addr_resolve's windows and cluster size; 10 shared
  // bytes per CTA, 11 local bytes per thread, 12 .param::func bytes per thread, 13 SASS registers
  // per thread, 14 the SASS misalignment mode (misalign_e).
  input  logic                   cfg_valid_i,
  input  logic [3:0]             cfg_sel_i,
  input  logic [63:0]            cfg_data_i,
  // tcgen05.alloc / tcgen05.dealloc (stu_tmem_alloc).
  input  logic                   ta_req_valid_i,
  input  logic                   ta_req_dealloc_i,
  input  logic [3:0]             ta_req_cta_i,
  input  logic [31:0]            ta_req_cols_i,
  input  logic [31:0]            ta_req_taddr_i,
  output logic                   ta_rsp_valid_o,
  output logic                   ta_rsp_ok_o,
  output logic [31:0]            ta_rsp_taddr_o,
  // Warp store in: the static fields.
  input  logic                   in_valid_i,
  output logic                   in_ready_o,
  input  logic [2:0]             in_kind_i,      // 0 PTX st, 1 st.async (mbarrier form), 2 SASS
                                                 // ST, 3 st.async release form, 4 tcgen05.st
  input  logic [15:0]            in_cta_i,
  input  logic [15:0]            in_warp_i,
  input  logic [NumLanes-1:0]    in_active_i,    // PTX: after its guard; SASS: before @Pg
  input  logic                   in_generic_i,   // generic address (in_space_i ignored)
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
  input  logic                   in_has_policy_i,   // .L2::cache_hint
  input  logic                   in_abs_i,       // PTX [imm]: the address is in_imm_i
  input  logic [63:0]            in_imm_i,       // PTX: the address offset; SASS: ImmS32/ImmU32
  input  logic                   in_mbar_abs_i,  // st.async [mbar] as [imm]
  input  logic [63:0]            in_mbar_imm_i,
  // SASS ST: .E, Ra (none: [ImmU32] or RZ), the guard and Plg predicates (7: PT).
  input  logic                   in_sass_extended_i,
  input  logic                   in_sass_no_ra_i,
  input  logic [7:0]             in_sass_ra_i,
  input  logic [2:0]             in_guard_i,
  input  logic                   in_guard_neg_i,
  input  logic [2:0]             in_plg_i,
  input  logic                   in_plg_neg_i,
  // Operand registers per lane, lane l's at [l*W +: W] (W its width).
  input  logic [NumLanes*64-1:0] in_addr_i,      // PTX: the address register (or symbol)
  input  logic [NumLanes*64-1:0] in_mbar_i,      // st.async: the [mbar] register
  input  logic [NumLanes*64-1:0] in_policy_i,    // the policy register
  input  logic [NumLanes*32-1:0] in_ra_lo_i,     // SASS: Ra
  input  logic [NumLanes*32-1:0] in_ra_hi_i,     // SASS: Ra+1
  input  logic [NumLanes*7-1:0]  in_pred_i,      // SASS: P0..P6
  input  logic [NumLanes*MaxAccessBytes*8-1:0] in_data_i,
  // tcgen05.st: the header (with the warp store) and the register beats (beat j: register j of
  // every thread).
  input  tmem_shape_e            in_shape_i,
  input  logic [7:0]             in_num_i,
  input  logic                   in_unpack_i,
  input  logic [31:0]            in_split_i,
  input  logic                   reg_valid_i,
  output logic                   reg_ready_o,
  input  logic                   reg_last_i,
  input  logic [NumLanes*32-1:0] reg_data_i,     // thread t's register at [32t +: 32]
  // TMEM writes: 32-column runs of a lane.
  output logic                   tm_valid_o,
  input  logic                   tm_ready_i,
  output tmem_write_t            tm_o,
  // Global allocation check, per lane (is [addr, addr + size) backed?).
  output logic [NumLanes-1:0]    alloc_req_valid_o,
  output logic [NumLanes*64-1:0] alloc_req_addr_o,
  output logic [5:0]             alloc_req_size_o,
  input  logic [NumLanes-1:0]    alloc_rsp_valid_i,
  input  logic [NumLanes-1:0]    alloc_rsp_ok_i,
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
  // The attributes of the warp in flight, for the cache path (valid with every request).
  output logic                   attr_release_o,  // a release store: drain before its lines
  output logic                   attr_strong_o,
  output logic                   attr_mmio_o,
  output logic                   attr_has_cop_o,
  output cache_op_e              attr_cop_o,
  output logic                   attr_has_l1_o,
  output l1_evict_e              attr_l1_o,
  output logic                   attr_has_l2_o,
  output l2_evict_e              attr_l2_o,
  output policy_kind_e           attr_policy_kind_o,  // the lowest active lane's policy
  output l2_priority_e           attr_policy_primary_o,
  output l2_priority_e           attr_policy_secondary_o,
  output logic [4:0]             attr_policy_lines_o,
  // Status of the warp, after its last line request.
  output logic                   st_valid_o,
  input  logic                   st_ready_i,
  output logic [NumLanes*FaultBits-1:0] st_fault_o,  // fault_e of lane l at [l*FaultBits +: ..]
  output logic [NumLanes*64-1:0] st_fault_addr_o,
  output logic [NumLanes-1:0]    st_stored_o,
  output logic [NumLanes-1:0]    st_forced_o,
  output logic [31:0]            st_bytes_o,     // bytes written (tcgen05.st: 4 per cell)
  // The ordering (golden::Ordering): semantics, strong, scope (narrowed to .cluster for a .sys
  // store that reached shared memory only), release, volatile, async.
  output sem_e                   st_sem_o,
  output logic                   st_strong_o,
  output logic                   st_has_scope_o,
  output scope_e                 st_scope_o,
  output logic                   st_release_o,
  output logic                   st_volatile_o,
  output logic                   st_async_o
);

  localparam logic [2:0] KindAsync = 3'd1, KindSass = 3'd2, KindAsyncRelease = 3'd3,
                         KindTcgen05 = 3'd4;  // 0: PTX st

  typedef enum logic [3:0] {
    Idle, Lanes, Coalesce, Lines, WriteBack, TmemBeats, TmemRuns, TmemDrain, Status
  } state_e;
  // Per lane: where it is in the lane path.
  typedef enum logic [2:0] {LIdle, LAlign, LResolve, LCheck, LAlloc, LMbar, LDone} lane_e;
  localparam int unsigned LaneStBits = 3;  // $bits(lane_e)
  // The mbarrier engine (st.async, in lane order).
  typedef enum logic [2:0] {MScan, MResolve, MCheck, MRead, MStep, MStepWait, MEvent} mstate_e;

  // Per-lane arrays are plain vectors, lane l's element at [l*W +: W] (W its width), and
  // per-lane structs are kept field by field: yosys 0.23 reads no multi-dimensional packed
  // array and drops the array dimension of an array of structs (docs/rtl.md, synthesis). The
  // lane's field macros below name the slices.
`define STU_SU_LST(v, l)   v[(l)*LaneStBits +: LaneStBits]
`define STU_SU_FLT(v, l)   v[(l)*FaultBits +: FaultBits]
`define STU_SU_W64(v, l)   v[(l)*64 +: 64]
`define STU_SU_DEST(v, l)  v[(l)*DestBits +: DestBits]

  // ---------------------------------------------------------------------------------------
  // Configuration of the bounds, the SASS register count and misalignment mode (the windows
  // live in the resolvers).
  logic [63:0] shared_bytes_q, local_bytes_q, param_func_bytes_q, cluster_q;
  logic [8:0]  sass_regs_q;
  misalign_e   sass_misalign_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shared_bytes_q     <= 64'd49152;  // golden ModelConfig defaults
      local_bytes_q      <= 64'd4096;
      param_func_bytes_q <= 64'd4096;
      cluster_q          <= DefaultClusterCtas;
      sass_regs_q        <= 9'd255;
      sass_misalign_q    <= MisalignFault;
    end else if (cfg_valid_i) begin
      unique case (cfg_sel_i)
        4'd9:  cluster_q          <= cfg_data_i;
        4'd10: shared_bytes_q     <= cfg_data_i;
        4'd11: local_bytes_q      <= cfg_data_i;
        4'd12: param_func_bytes_q <= cfg_data_i;
        4'd13: sass_regs_q        <= cfg_data_i[8:0];
        4'd14: sass_misalign_q    <= cfg_data_i[0] ? MisalignFault : MisalignForceAlign;
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------------------
  // Decode of a new warp (combinational on the inputs, captured when it is taken).
  logic [NumLanes*64-1:0] gen_addr, gen_mbar;
  // (The decode of a new warp is worked out only while one is offered: the input logic is
  // evaluated whenever any input changes, the readies included.)
  stu_addr_gen u_addr_gen (
    .en_i       (in_valid_i),
    .sass_i     (in_kind_i == KindSass),
    .abs_i      (in_abs_i),
    .base_i     (in_addr_i),
    .imm_i      (in_imm_i),
    .extended_i (in_sass_extended_i),
    .no_ra_i    (in_sass_no_ra_i),
    .ra_i       (in_sass_ra_i),
    .cfg_regs_i (sass_regs_q),
    .ra_lo_i    (in_ra_lo_i),
    .ra_hi_i    (in_ra_hi_i),
    .addr_o     (gen_addr)
  );
  stu_addr_gen u_mbar_gen (
    .en_i       (in_valid_i && in_kind_i == KindAsync),
    .sass_i     (1'b0),
    .abs_i      (in_mbar_abs_i),
    .base_i     (in_mbar_i),
    .imm_i      (in_mbar_imm_i),
    .extended_i (1'b0),
    .no_ra_i    (1'b0),
    .ra_i       ('0),
    .cfg_regs_i (sass_regs_q),
    .ra_lo_i    ('0),
    .ra_hi_i    ('0),
    .addr_o     (gen_mbar)
  );

  // SASS: the guard gates lanes; Plg says whether a lane's address is local/global (7 is PT).
  function automatic logic pred_of(input logic [6:0] p, input logic [2:0] idx);
    pred_of = idx == 3'd7 ? 1'b1 : p[idx];
  endfunction
  logic [NumLanes-1:0] in_run, in_plg;
  always_comb begin
    in_run = '0;
    in_plg = '0;
    if (in_valid_i) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        in_run[l] = in_active_i[l] && (in_kind_i != KindSass ||
                                       pred_of(in_pred_i[l*7 +: 7], in_guard_i) != in_guard_neg_i);
        in_plg[l] = pred_of(in_pred_i[l*7 +: 7], in_plg_i) != in_plg_neg_i;
      end
    end
  end

  // The policy of every lane (the trap), and of the lowest active lane (the cache attributes).
  policy_kind_e pol_kind [NumLanes];
  l2_priority_e pol_primary [NumLanes];
  l2_priority_e pol_secondary [NumLanes];
  logic [4:0]   pol_lines [NumLanes];
  for (genvar l = 0; l < NumLanes; l++) begin : g_policy
    stu_policy_decode u_policy (
      .policy_i    (in_policy_i[l*64 +: 64]),
      .kind_o      (pol_kind[l]),
      .primary_o   (pol_primary[l]),
      .secondary_o (pol_secondary[l]),
      .lines_o     (pol_lines[l])
    );
  end
  logic       policy_trap;
  logic [4:0] low_lane;
  always_comb begin
    policy_trap = 1'b0;
    low_lane    = '0;
    if (in_valid_i && in_has_policy_i) begin
      for (int l = NumLanes - 1; l >= 0; l--) begin
        if (in_active_i[l]) low_lane = 5'(l);
      end
    end
    // A warp has one policy, the lowest active lane's (ptxas moves it to a uniform register
    // with R2UR, which reads the first active lane; silicon-checked, docs/golden.md).
    policy_trap = in_valid_i && in_has_policy_i && in_active_i != '0 &&
                  pol_kind[low_lane] == PolicyIllegal;
  end
  // The same-location rule (golden::LaneGroup): 2^(7 - log2 size) lanes (at most 32) move
  // together; .mmio and st.async move one lane at a time.
  logic [2:0] in_size_log2, in_group_log2;
  always_comb begin
    in_size_log2  = in_elem_log2_i + {1'b0, in_elems_log2_i};
    in_group_log2 = in_size_log2 <= 3'd2 ? 3'd5 : 3'd7 - in_size_log2;
    if (in_mmio_i || in_kind_i == KindAsync || in_kind_i == KindAsyncRelease) in_group_log2 = '0;
  end

  // Ordering (golden::ordering_of): st.async of the mbarrier form and tcgen05.st are weak and
  // asynchronous; the st.async release form is a release; .mmio is strong at .sys; .volatile
  // is strong at .sys; .relaxed/.release at their scope.
  sem_e   in_ord_sem;
  logic   in_ord_strong, in_ord_has_scope, in_ord_volatile;
  scope_e in_ord_scope;
  always_comb begin
    in_ord_sem       = SemWeak;
    in_ord_strong    = 1'b0;
    in_ord_has_scope = 1'b0;
    in_ord_scope     = ScopeCta;
    in_ord_volatile  = 1'b0;
    if (in_kind_i != KindAsync && in_kind_i != KindTcgen05 && in_kind_i != KindSass) begin
      in_ord_sem = in_kind_i == KindAsyncRelease ? SemRelease : in_sem_i;
      if (in_mmio_i) begin
        in_ord_strong    = 1'b1;
        in_ord_has_scope = 1'b1;
        in_ord_scope     = ScopeSys;
        if (in_kind_i != KindAsyncRelease) in_ord_sem = SemRelaxed;
      end else if (in_ord_sem == SemVolatile) begin
        in_ord_strong    = 1'b1;
        in_ord_volatile  = 1'b1;
        in_ord_has_scope = 1'b1;
        in_ord_scope     = ScopeSys;
      end else if (in_ord_sem == SemRelaxed || in_ord_sem == SemRelease) begin
        in_ord_strong    = 1'b1;
        in_ord_has_scope = in_has_scope_i;
        in_ord_scope     = in_scope_i;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // The warp being executed.
  state_e                  state_q, state_d;
  logic [2:0]              kind_q;
  logic [15:0]             cta_q, warp_q;
  logic [NumLanes-1:0]     run_q;              // lanes that execute
  logic                    generic_q;
  isa_space_e              space_q;
  logic [2:0]              elem_log2_q;
  logic [1:0]              elems_log2_q;
  logic [7:0]              sinks_q;
  logic [NumLanes-1:0]     plg_q;
  logic [2:0]              group_log2_q;
  logic [5:0]              grp_q, grp_d;       // the next group to enter the lane path
  logic [NumLanes*64-1:0]  addr_q, mbar_q;
  logic [NumLanes*MaxAccessBytes*8-1:0] data_q;
  // Static fields the space rule and the status read.
  logic                    mmio_q, has_l1_q, has_l2_q, wide_q;
  logic                    has_cop_q;
  cache_op_e               cop_q;
  l1_evict_e               l1_q;
  l2_evict_e               l2_q;
  policy_kind_e            pk_q;
  l2_priority_e            pp_q, ps_q;
  logic [4:0]              pl_q;
  sem_e                    ord_sem_q;
  logic                    ord_strong_q, ord_has_scope_q, ord_volatile_q;
  scope_e                  ord_scope_q;
  logic [31:0]             bytes_q, bytes_d;

  // Per-lane state and results.
  logic [NumLanes*LaneStBits-1:0] lst_q, lst_d;   // lane_e
  logic [NumLanes*FaultBits-1:0]  fault_q;        // fault_e
  logic [NumLanes*64-1:0]  fault_addr_q;
  logic [NumLanes-1:0]     stored_q, stored_d, forced_q, forced_d;
  logic [NumLanes*64-1:0]  a_addr_q;           // the aligned address
  // The lane access (stu_pkg::lane_access_t), field by field; its size is the warp's.
  logic [NumLanes*DestBits-1:0]      acc_dest_q;
  logic [NumLanes*64-1:0]            acc_off_q;
  logic [NumLanes*SectorBytes-1:0]   acc_mask_q;
  logic [NumLanes*SectorBytes*8-1:0] acc_data_q;
  logic                    any_global_q, any_global_d, any_shared_q, any_shared_d;

  // Per-lane events of this cycle (for the registers below).
  logic [NumLanes-1:0]     lane_fault, lane_commit, sa_take, rs_take;
  logic [NumLanes*FaultBits-1:0] lane_fault_kind;
  logic [NumLanes*64-1:0]  lane_fault_addr;

  // ---------------------------------------------------------------------------------------
  // The lane path: per lane, stu_store_align then stu_addr_resolve.
  logic [5:0] size;  // bytes of the access
  assign size = 6'd1 << (elem_log2_q + {1'b0, elems_log2_q});
  misalign_e mode;
  assign mode = kind_q == KindSass ? sass_misalign_q : MisalignFault;

  logic [NumLanes-1:0]               sa_in_valid, sa_out_valid, sa_forced, sa_fault;
  logic [NumLanes*64-1:0]            sa_addr;
  logic [NumLanes*SectorBytes-1:0]   sa_mask;
  logic [NumLanes*SectorBytes*8-1:0] sa_data;
  logic [NumLanes-1:0]               rs_out_valid;
  logic [NumLanes*DestBits-1:0]      rs_dest;
  logic [NumLanes*64-1:0]            rs_off;
  logic [NumLanes*FaultBits-1:0]     rs_fault;

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic        unused_ready_a, unused_ready_r;
    logic [63:0] unused_line;
    logic [1:0]  unused_sector;
    stu_store_align u_align (
      .clk_i, .rst_ni,
      .in_valid_i   (sa_in_valid[l]),
      .in_ready_o   (unused_ready_a),  // always ready: the output is taken every cycle
      .addr_i       (addr_q[l*64 +: 64]),
      .elem_log2_i  (elem_log2_q),
      .elems_log2_i (elems_log2_q),
      .sinks_i      (sinks_q),
      .mode_i       (mode),
      .data_i       (data_q[l*MaxAccessBytes*8 +: MaxAccessBytes*8]),
      .out_valid_o  (sa_out_valid[l]),
      .out_ready_i  (1'b1),
      .addr_o       (sa_addr[l*64 +: 64]),
      .forced_o     (sa_forced[l]),
      .fault_o      (sa_fault[l]),
      .line_o       (unused_line),
      .sector_o     (unused_sector),
      .sector_mask_o(sa_mask[l*SectorBytes +: SectorBytes]),
      .sector_data_o(sa_data[l*SectorBytes*8 +: SectorBytes*8])
    );
    stu_addr_resolve u_resolve (
      .clk_i, .rst_ni, .cfg_valid_i, .cfg_sel_i, .cfg_data_i,
      .in_valid_i (sa_out_valid[l] && !sa_fault[l]),
      .in_ready_o (unused_ready_r),
      .addr_i     (sa_addr[l*64 +: 64]),
      .generic_i  (generic_q || kind_q == KindSass),
      .space_i    (space_q),
      .cta_i      (cta_q),
      .warp_i     (warp_q),
      .lane_i     (5'(l)),
      .out_valid_o(rs_out_valid[l]),
      .out_ready_i(1'b1),
      .dest_o     (rs_dest[l*DestBits +: DestBits]),
      .offset_o   (rs_off[l*64 +: 64]),
      .fault_o    (rs_fault[l*FaultBits +: FaultBits])
    );
  end

  // Each lane's destination (its space and CTA), from the captured access.
  logic [NumLanes*MemSpaceBits-1:0] lane_space;  // mem_space_e
  logic [NumLanes*16-1:0]           lane_cta;
  // (Struct variables at module level: yosys 0.23 reads no field of a block's local struct.)
  /* verilator lint_off UNUSEDSIGNAL */
  dest_t ld;  // (its thread is not read here)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    ld = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      ld = `STU_SU_DEST(acc_dest_q, l);
      lane_space[l*MemSpaceBits +: MemSpaceBits] = ld.space;
      lane_cta[l*16 +: 16] = ld.cta;
    end
  end

  // The qualifier rule of a resolved space, the part that faults at run time
  // (isa::faults_when_resolved; PTX only): st.async's mbarrier form stores to shared memory and
  // its release form to global; kernel .param and .const are read-only; outside global a
  // 256-bit vector is illegal. Ordering and cache qualifiers (.mmio, .relaxed/.release,
  // .volatile, eviction priorities, a cache hint) are ignored in the space a generic address
  // resolved to: the store is performed there (silicon-checked, docs/golden.md).
  // Then the bounds of a resolved data location (golden MachineState::check_store; global: the
  // allocation port).
  function automatic logic fits(input logic [63:0] off, input logic [63:0] n,
                                input logic [63:0] limit);
    fits = off <= limit && n <= limit - off;
  endfunction

  // The checks of each lane after resolution (in golden's order: the space rule or Plg, then
  // the bounds).
  logic [NumLanes*FaultBits-1:0] check_fault;  // fault_e
  always_comb begin : lane_checks
    logic [MemSpaceBits-1:0] s;
    logic [63:0]             off, limit;
    logic [FaultBits-1:0]    f;
    check_fault = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      s     = lane_space[l*MemSpaceBits +: MemSpaceBits];
      off   = acc_off_q[l*64 +: 64];
      f     = FaultNone;
      limit = '0;
      // (only lanes at their checks: the checks cost simulation time on every edge)
      if (`STU_SU_LST(lst_q, l) == LCheck) begin
        if (kind_q == KindSass) begin
          if (plg_q[l] == (s == MemShared)) f = FaultPlgMismatch;
        end else if (kind_q == KindAsync) begin
          if (s != MemShared) f = FaultIllegalForSpace;
        end else if (kind_q == KindAsyncRelease) begin
          if (s != MemGlobal) f = FaultIllegalForSpace;
        end else if (s == MemConst || s == MemParamEntry) begin
          f = FaultReadOnly;
        end else if (s != MemGlobal && wide_q) begin
          f = FaultIllegalForSpace;
        end
        if (f == FaultNone) begin
          unique case (s)
            MemShared:    limit = shared_bytes_q;
            MemLocal:     limit = local_bytes_q;
            MemParamFunc: limit = param_func_bytes_q;
            default:      ;
          endcase
          if (s == MemParamEntry || s == MemConst) begin
            f = FaultReadOnly;
          end else if ((s == MemShared || s == MemLocal || s == MemParamFunc) &&
                       !fits(off, 64'(size), limit)) begin
            f = FaultOutOfAllocation;
          end
        end
      end
      check_fault[l*FaultBits +: FaultBits] = f;
    end
  end

  // ---------------------------------------------------------------------------------------
  // The mbarrier engine: st.async lanes, in lane order, once their data checks passed.
  mstate_e     ms_q, ms_d;
  logic [5:0]  mp_q, mp_d;      // the lane it is at (32: done)
  logic [4:0]  mlane;
  assign mlane = mp_q[4:0];

  logic rm_in_valid, rm_out_valid, unused_ready_m;
  dest_t rm_dest;
  logic [63:0] rm_off;
  fault_e rm_fault;
  stu_addr_resolve u_resolve_mbar (
    .clk_i, .rst_ni, .cfg_valid_i, .cfg_sel_i, .cfg_data_i,
    .in_valid_i (rm_in_valid),
    .in_ready_o (unused_ready_m),
    .addr_i     (mbar_q[mlane*64 +: 64]),
    .generic_i  (generic_q),
    .space_i    (space_q),
    .cta_i      (cta_q),
    .warp_i     (warp_q),
    .lane_i     (mlane),
    .out_valid_o(rm_out_valid),
    .out_ready_i(1'b1),
    .dest_o     (rm_dest),
    .offset_o   (rm_off),
    .fault_o    (rm_fault)
  );

  dest_t       m_dest_q, m_dest_d;
  logic [63:0] m_off_q, m_off_d;
  fault_e      m_fault_q, m_fault_d;

  // The warp's copies of the mbarrier words it touches.
  logic [NumLanes-1:0]     mb_valid_q, mb_valid_d;
  logic [NumLanes*16-1:0]  mb_cta_q;
  logic [NumLanes*64-1:0]  mb_off_q;
  logic [NumLanes*MbarWordBits-1:0] mb_word_q;  // mbar_word_t
  logic [4:0]              mb_idx_q, mb_idx_d;   // the entry of the current lane
  logic [4:0]              mb_next_q, mb_next_d; // first free entry
  logic                    ev_completed_q, ev_completed_d;
  logic                    mb_load, mb_update;

  logic mb_in_valid, mb_in_ready, mb_out_valid, mb_completed;
  mbar_word_t mb_word_out;
  fault_e mb_fault;
  logic [31:0] tx_bytes;
  always_comb begin
    tx_bytes = '0;
    for (int unsigned b = 0; b < SectorBytes; b++)
      tx_bytes = tx_bytes + 32'(acc_mask_q[mlane*SectorBytes + b]);
  end

  stu_mbarrier u_mbarrier (
    .clk_i, .rst_ni,
    .in_valid_i (mb_in_valid),
    .in_ready_o (mb_in_ready),
    .word_i     (mb_word_q[mb_idx_q*MbarWordBits +: MbarWordBits]),
    .op_i       (MbarOpCompleteTx),
    .count_i    (tx_bytes),
    .out_valid_o(mb_out_valid),
    .out_ready_i(1'b1),
    .word_o     (mb_word_out),
    .completed_o(mb_completed),
    .fault_o    (mb_fault)
  );

  // The mbarrier checks of st.async, worked out in the MCheck state below.
  fault_e mbar_fault;

  // The warp's copy of the current lane's barrier.
  logic       mb_hit;
  logic [4:0] mb_hit_idx;
  always_comb begin
    mb_hit     = 1'b0;
    mb_hit_idx = '0;
    for (int e = NumLanes - 1; e >= 0; e--) begin
      if (mb_valid_q[e] && mb_cta_q[e*16 +: 16] == m_dest_q.cta &&
          `STU_SU_W64(mb_off_q, e) == m_off_q) begin
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

  // ---------------------------------------------------------------------------------------
  // The coalescer and the TMEM write datapath.
  logic co_in_valid, co_in_ready, co_out_valid, co_last;
  line_req_t co_req;
  logic [NumLanes*LaneAccessBits-1:0] co_acc;  // lane_access_t of lane l at [l*W +: W]
  lane_access_t a;
  always_comb begin
    a = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      a.dest      = `STU_SU_DEST(acc_dest_q, l);
      a.offset    = `STU_SU_W64(acc_off_q, l);
      a.size      = size;
      a.byte_mask = acc_mask_q[l*SectorBytes +: SectorBytes];
      a.data      = acc_data_q[l*SectorBytes*8 +: SectorBytes*8];
      co_acc[l*LaneAccessBits +: LaneAccessBits] = a;
    end
  end
  stu_coalescer u_coalescer (
    .clk_i, .rst_ni,
    .in_valid_i  (co_in_valid),
    .in_ready_o  (co_in_ready),
    .lane_valid_i(stored_q),
    .acc_i       (co_acc),
    .group_log2_i(group_log2_q),
    .out_valid_o (co_out_valid),
    .out_ready_i (req_ready_i),
    .req_o       (co_req),
    .last_o      (co_last)
  );
  assign req_valid_o = co_out_valid;
  assign req_o       = co_req;

  logic [15:0] alloc_mask;
  stu_tmem_alloc u_tmem_alloc (
    .clk_i, .rst_ni,
    .req_valid_i   (ta_req_valid_i),
    .req_dealloc_i (ta_req_dealloc_i),
    .req_cta_i     (ta_req_cta_i),
    .req_cols_i    (ta_req_cols_i),
    .req_taddr_i   (ta_req_taddr_i),
    .rsp_valid_o   (ta_rsp_valid_o),
    .rsp_ok_o      (ta_rsp_ok_o),
    .rsp_taddr_o   (ta_rsp_taddr_o),
    .mask_cta_i    (cta_q[3:0]),
    .mask_o        (alloc_mask)
  );

  logic tw_in_valid, tw_in_ready, tw_out_valid, tw_out_ready, tw_write_valid, tw_last;
  tmem_write_t tw_wr;
  logic [NumLanes*FaultBits-1:0] tw_fault;  // stu_pkg::fault_e per thread
  logic [NumLanes*32-1:0] tw_fault_addr;
  tmem_shape_e shape_q;
  logic [7:0] num_q;
  logic unpack_q;
  logic [31:0] split_q;

  stu_tmem_wdp u_tmem_wdp (
    .clk_i, .rst_ni,
    .in_valid_i   (tw_in_valid),
    .in_ready_o   (tw_in_ready),
    .in_last_i    (reg_last_i),
    .shape_i      (shape_q),
    .num_i        (num_q),
    .unpack_i     (unpack_q),
    .taddr_i      (addr_q[31:0]),
    .split_i      (split_q),
    .quarter_i    (warp_q[1:0]),
    .alloc_i      (alloc_mask),
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

  // tcgen05.st's bytes: 4 per cell, one cell per register (two with .unpack::16b) of every
  // thread that did not fault.
  logic [7:0] regs_per_rep;
  always_comb begin
    unique case (shape_q)
      ShapeS16x128b: regs_per_rep = 8'd2;
      ShapeS16x256b: regs_per_rep = 8'd4;
      default:       regs_per_rep = 8'd1;
    endcase
  end
  logic [31:0] tmem_bytes;
  always_comb begin
    tmem_bytes = '0;
    for (int unsigned t = 0; t < NumLanes; t++) begin
      if (`STU_SU_FLT(tw_fault, t) == FaultNone) tmem_bytes = tmem_bytes + 32'd4;
    end
    tmem_bytes = tmem_bytes * 32'(regs_per_rep) * 32'(num_q) * (unpack_q ? 32'd2 : 32'd1);
  end

  // ---------------------------------------------------------------------------------------
  // Whole-warp faults of a new warp.
  logic addr_uniform;
  always_comb begin
    addr_uniform = 1'b1;
    if (in_kind_i == KindTcgen05) begin
      for (int unsigned l = 1; l < NumLanes; l++) begin
        if (`STU_SU_W64(gen_addr, l) != gen_addr[63:0]) addr_uniform = 1'b0;
      end
    end
  end
  fault_e warp_fault;
  always_comb begin
    warp_fault = FaultNone;
    if (in_kind_i == KindTcgen05) begin
      if (in_active_i != '1) warp_fault = FaultTmemInactiveThreads;
      else if (!addr_uniform) warp_fault = FaultTmemAddrNotUniform;
      else if (gen_addr[63:32] != '0 || 64'(in_cta_i) >= cluster_q)
        warp_fault = FaultOutOfWindow;
    end else if (64'(in_cta_i) >= cluster_q) begin
      warp_fault = FaultBadInstruction;
    end else if (policy_trap) begin
      warp_fault = FaultIllegalInstruction;
    end
  end

  logic lines_expected;
  always_comb begin
    lines_expected = 1'b0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (stored_q[l] && |acc_mask_q[l*SectorBytes +: SectorBytes]) lines_expected = 1'b1;
    end
  end

  // Every lane done (and the mbarrier engine through the warp).
  logic lanes_done;
  always_comb begin
    lanes_done = mp_q == 6'd32;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (`STU_SU_LST(lst_q, l) != LIdle && `STU_SU_LST(lst_q, l) != LDone) lanes_done = 1'b0;
      if (run_q[l] && `STU_SU_LST(lst_q, l) == LIdle) lanes_done = 1'b0;  // group not entered
    end
  end

  // ---------------------------------------------------------------------------------------
  // Control.
  logic take, tmem_done;
  assign in_ready_o = state_q == Idle;
  assign take       = in_valid_i && in_ready_o;

  always_comb begin
    state_d        = state_q;
    grp_d          = grp_q;
    lst_d          = lst_q;
    stored_d       = stored_q;
    forced_d       = forced_q;
    any_global_d   = any_global_q;
    any_shared_d   = any_shared_q;
    bytes_d        = bytes_q;
    ms_d           = ms_q;
    mp_d           = mp_q;
    m_dest_d       = m_dest_q;
    m_off_d        = m_off_q;
    m_fault_d      = m_fault_q;
    mbar_fault     = FaultNone;
    mb_valid_d     = mb_valid_q;
    mb_idx_d       = mb_idx_q;
    mb_next_d      = mb_next_q;
    ev_completed_d = ev_completed_q;

    sa_in_valid       = '0;
    sa_take           = '0;
    rs_take           = '0;
    rm_in_valid       = 1'b0;
    mb_in_valid       = 1'b0;
    co_in_valid       = 1'b0;
    tw_in_valid       = 1'b0;
    tw_out_ready      = 1'b0;
    reg_ready_o       = 1'b0;
    tmem_done         = 1'b0;
    alloc_req_valid_o = '0;
    mbar_rd_valid_o   = 1'b0;
    mbar_wr_valid_o   = 1'b0;
    ev_valid_o        = 1'b0;
    st_valid_o        = 1'b0;
    mb_load           = 1'b0;
    mb_update         = 1'b0;
    lane_fault        = '0;
    lane_fault_addr   = '0;
    for (int unsigned l = 0; l < NumLanes; l++) `STU_SU_FLT(lane_fault_kind, l) = FaultNone;
    lane_commit       = '0;

    unique case (state_q)
      Idle: ;
      Lanes: begin
        // A group enters the lane path.
        if (grp_q <= (6'd31 >> group_log2_q)) begin
          for (int unsigned l = 0; l < NumLanes; l++) begin
            if (run_q[l] && 6'(l >> group_log2_q) == grp_q) begin
              sa_in_valid[l] = 1'b1;
              `STU_SU_LST(lst_d, l)       = LAlign;
            end
          end
          grp_d = grp_q + 6'd1;
        end
        for (int unsigned l = 0; l < NumLanes; l++) begin
          unique case (`STU_SU_LST(lst_q, l))
            LAlign: if (sa_out_valid[l]) begin
              sa_take[l] = 1'b1;
              if (sa_fault[l]) begin
                lane_fault[l]      = 1'b1;
                `STU_SU_FLT(lane_fault_kind, l) = FaultMisaligned;
                `STU_SU_W64(lane_fault_addr, l) = `STU_SU_W64(addr_q, l);
              end else begin
                forced_d[l] = sa_forced[l];  // forced down, whatever the later checks say
                `STU_SU_LST(lst_d, l)    = LResolve;
              end
            end
            LResolve: if (rs_out_valid[l]) begin
              rs_take[l] = 1'b1;
              if (`STU_SU_FLT(rs_fault, l) != FaultNone) begin
                lane_fault[l]      = 1'b1;
                `STU_SU_FLT(lane_fault_kind, l) = `STU_SU_FLT(rs_fault, l);
                `STU_SU_W64(lane_fault_addr, l) = `STU_SU_W64(a_addr_q, l);
              end else begin
                `STU_SU_LST(lst_d, l) = LCheck;  // the checks read the captured destination next cycle
              end
            end
            LCheck: begin
              if (`STU_SU_FLT(check_fault, l) != FaultNone) begin
                lane_fault[l]      = 1'b1;
                `STU_SU_FLT(lane_fault_kind, l) = `STU_SU_FLT(check_fault, l);
                `STU_SU_W64(lane_fault_addr, l) = `STU_SU_W64(a_addr_q, l);
              end else if (lane_space[l*MemSpaceBits +: MemSpaceBits] == MemGlobal) begin
                `STU_SU_LST(lst_d, l) = LAlloc;
              end else if (kind_q == KindAsync) begin
                `STU_SU_LST(lst_d, l) = LMbar;
              end else begin
                lane_commit[l] = 1'b1;
              end
            end
            LAlloc: begin
              alloc_req_valid_o[l] = 1'b1;
              if (alloc_rsp_valid_i[l]) begin
                if (!alloc_rsp_ok_i[l]) begin
                  lane_fault[l]      = 1'b1;
                  `STU_SU_FLT(lane_fault_kind, l) = FaultOutOfAllocation;
                  `STU_SU_W64(lane_fault_addr, l) = `STU_SU_W64(a_addr_q, l);
                end else begin
                  // (st.async's data is shared: a global lane failed the space rule already.)
                  lane_commit[l] = 1'b1;
                end
              end
            end
            default: ;
          endcase
        end

        // The mbarrier engine (st.async): lane by lane, in order.
        unique case (ms_q)
          MScan: begin
            if (mp_q != 6'd32) begin
              if (!run_q[mlane] || `STU_SU_LST(lst_q, mlane) == LDone) begin
                mp_d = mp_q + 6'd1;
              end else if (`STU_SU_LST(lst_q, mlane) == LMbar) begin
                rm_in_valid = 1'b1;
                ms_d        = MResolve;
              end
            end
          end
          MResolve: if (rm_out_valid) begin
            m_dest_d  = rm_dest;
            m_off_d   = rm_off;
            m_fault_d = rm_fault;
            ms_d      = MCheck;
          end
          MCheck: begin
            // The mbarrier checks of st.async, first failing first (golden: resolve, shared,
            // 8-byte aligned, bounds, CTA). Here rather than in a block of their own: Verilator
            // 5.006 copies such a block into two evaluation functions and counts its coverage
            // points in only one of them, which never sees a fault.
            if (m_fault_q != FaultNone) mbar_fault = m_fault_q;
            else if (m_dest_q.space != MemShared) mbar_fault = FaultMbarNotShared;
            else if (mbar_q[mlane*64 +: 3] != 3'd0) mbar_fault = FaultMbarMisaligned;
            else if (!fits(m_off_q, 64'd8, shared_bytes_q)) mbar_fault = FaultOutOfAllocation;
            else if (m_dest_q.cta != lane_cta[mlane*16 +: 16]) mbar_fault = FaultMbarCtaMismatch;
            if (mbar_fault != FaultNone) begin
              lane_fault[mlane]      = 1'b1;
              `STU_SU_FLT(lane_fault_kind, mlane) = mbar_fault;
              `STU_SU_W64(lane_fault_addr, mlane) = `STU_SU_W64(mbar_q, mlane);
              ms_d                   = MScan;
              mp_d                   = mp_q + 6'd1;
            end else if (mb_hit) begin
              mb_idx_d = mb_hit_idx;
              ms_d     = MStep;
            end else begin
              ms_d = MRead;
            end
          end
          MRead: begin
            mbar_rd_valid_o = 1'b1;
            if (mbar_rd_rsp_valid_i) begin
              mb_valid_d[mb_next_q] = 1'b1;
              mb_load               = 1'b1;
              mb_idx_d              = mb_next_q;
              mb_next_d             = mb_next_q + 5'd1;
              ms_d                  = MStep;
            end
          end
          MStep: begin
            mb_in_valid = 1'b1;
            if (mb_in_ready) ms_d = MStepWait;
          end
          MStepWait: begin
            if (mb_out_valid) begin
              if (mb_fault != FaultNone) begin
                lane_fault[mlane]      = 1'b1;
                `STU_SU_FLT(lane_fault_kind, mlane) = mb_fault;
                `STU_SU_W64(lane_fault_addr, mlane) = `STU_SU_W64(mbar_q, mlane);
                ms_d                   = MScan;
                mp_d                   = mp_q + 6'd1;
              end else begin
                mb_update      = 1'b1;
                ev_completed_d = mb_completed;
                ms_d           = MEvent;
              end
            end
          end
          MEvent: begin
            ev_valid_o = 1'b1;
            if (ev_ready_i) begin
              lane_commit[mlane] = 1'b1;
              ms_d               = MScan;
              mp_d               = mp_q + 6'd1;
            end
          end
          default: ms_d = MScan;
        endcase

        if (lanes_done) state_d = Coalesce;
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
        if (co_out_valid && req_ready_i) begin
          for (int unsigned b = 0; b < LineBytes; b++)
            bytes_d = bytes_d + 32'(co_req.byte_mask[b]);
          if (co_last) state_d = WriteBack;
        end
      end
      WriteBack: begin  // after the data, as the barrier's bytes may be among them
        if (!wb_any) begin
          state_d = Status;
        end else begin
          mbar_wr_valid_o = 1'b1;
          if (mbar_wr_ready_i) mb_valid_d[wb_idx] = 1'b0;
        end
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
          bytes_d   = tmem_bytes;
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

    // A lane ends: faulted (writes nothing) or committed (a lane access).
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (lane_commit[l]) begin
        stored_d[l]  = 1'b1;
        any_global_d = any_global_d || lane_space[l*MemSpaceBits +: MemSpaceBits] == MemGlobal;
        any_shared_d = any_shared_d || lane_space[l*MemSpaceBits +: MemSpaceBits] == MemShared;
      end
      if (lane_fault[l] || lane_commit[l]) `STU_SU_LST(lst_d, l) = LDone;
    end

    if (tmem_done) begin
      for (int unsigned t = 0; t < NumLanes; t++) stored_d[t] = `STU_SU_FLT(tw_fault, t) == FaultNone;
    end

    // A new warp.
    if (take) begin
      stored_d     = '0;
      forced_d     = '0;
      any_global_d = 1'b0;
      any_shared_d = 1'b0;
      bytes_d      = '0;
      mb_valid_d   = '0;
      mb_next_d    = '0;
      grp_d        = '0;
      for (int unsigned l = 0; l < NumLanes; l++) `STU_SU_LST(lst_d, l) = LIdle;
      ms_d         = MScan;
      mp_d         = in_kind_i == KindAsync ? 6'd0 : 6'd32;
      state_d      = Lanes;
      if (warp_fault != FaultNone) begin
        grp_d = 6'd32;  // no group enters
        mp_d  = 6'd32;
      end
      if (in_kind_i == KindTcgen05) state_d = warp_fault != FaultNone ? TmemDrain : TmemBeats;
    end
  end

  // The warp's decoded policy (reset: the cache path reads it combinationally from the start).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pk_q <= PolicyOpaque;
      pp_q <= PriorityUnchanged;
      ps_q <= PriorityUnchanged;
      pl_q <= 5'd16;
    end else if (take) begin
      pk_q <= in_has_policy_i ? pol_kind[low_lane] : PolicyOpaque;
      pp_q <= pol_primary[low_lane];
      ps_q <= pol_secondary[low_lane];
      pl_q <= pol_lines[low_lane];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      for (int unsigned l = 0; l < NumLanes; l++) `STU_SU_LST(lst_q, l) <= LIdle;
      ms_q    <= MScan;
      mp_q    <= 6'd32;
      grp_q   <= 6'd32;
    end else begin
      state_q <= state_d;
      lst_q   <= lst_d;
      ms_q    <= ms_d;
      mp_q    <= mp_d;
      grp_q   <= grp_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      kind_q          <= in_kind_i;
      cta_q           <= in_cta_i;
      warp_q          <= in_warp_i;
      run_q           <= warp_fault != FaultNone ? '0 : in_run;
      generic_q       <= in_generic_i;
      space_q         <= in_space_i;
      elem_log2_q     <= in_elem_log2_i;
      elems_log2_q    <= in_elems_log2_i;
      sinks_q         <= in_sinks_i;
      plg_q           <= in_plg;
      group_log2_q    <= in_group_log2;
      addr_q          <= gen_addr;
      mbar_q          <= gen_mbar;
      data_q          <= in_data_i;
      shape_q         <= in_shape_i;
      num_q           <= in_num_i;
      unpack_q        <= in_unpack_i;
      split_q         <= in_split_i;
      mmio_q          <= in_mmio_i;
      has_l1_q        <= in_has_l1_i;
      has_l2_q        <= in_has_l2_i;
      wide_q          <= in_size_log2 == 3'd5;  // .v8 of 32-bit, .v4 of 64-bit elements
      has_cop_q       <= in_has_cop_i;
      cop_q           <= in_cop_i;
      l1_q            <= in_l1_i;
      l2_q            <= in_l2_i;
      ord_sem_q       <= in_ord_sem;
      ord_strong_q    <= in_ord_strong;
      ord_has_scope_q <= in_ord_has_scope;
      ord_scope_q     <= in_ord_scope;
      ord_volatile_q  <= in_ord_volatile;
    end
    stored_q       <= stored_d;
    forced_q       <= forced_d;
    any_global_q   <= any_global_d;
    any_shared_q   <= any_shared_d;
    bytes_q        <= bytes_d;
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
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (take) begin
        // A non-uniform TMEM address faults every lane at its own address; other warp faults
        // name the TMEM address (tcgen05.st) or none.
        `STU_SU_FLT(fault_q, l) <= (in_active_i[l] || warp_fault == FaultTmemAddrNotUniform) ?
                                   warp_fault : FaultNone;
        `STU_SU_W64(fault_addr_q, l) <=
            warp_fault == FaultTmemAddrNotUniform ? `STU_SU_W64(gen_addr, l)
          : (in_kind_i == KindTcgen05 && warp_fault == FaultOutOfWindow) ? gen_addr[63:0] : '0;
      end else if (tmem_done) begin
        `STU_SU_FLT(fault_q, l)      <= `STU_SU_FLT(tw_fault, l);
        `STU_SU_W64(fault_addr_q, l) <= 64'(tw_fault_addr[l*32 +: 32]);
      end else if (lane_fault[l]) begin
        `STU_SU_FLT(fault_q, l)      <= `STU_SU_FLT(lane_fault_kind, l);
        `STU_SU_W64(fault_addr_q, l) <= `STU_SU_W64(lane_fault_addr, l);
      end
      if (sa_take[l]) begin
        `STU_SU_W64(a_addr_q, l) <= `STU_SU_W64(sa_addr, l);
        acc_mask_q[l*SectorBytes +: SectorBytes] <=
            sa_mask[l*SectorBytes +: SectorBytes] >> sa_addr[l*64 +: 5];
        acc_data_q[l*SectorBytes*8 +: SectorBytes*8] <=
            sa_data[l*SectorBytes*8 +: SectorBytes*8] >> {sa_addr[l*64 +: 5], 3'b000};
      end
      if (rs_take[l]) begin
        `STU_SU_DEST(acc_dest_q, l) <= `STU_SU_DEST(rs_dest, l);
        `STU_SU_W64(acc_off_q, l)   <= `STU_SU_W64(rs_off, l);
      end
    end
    if (mb_load) begin
      mb_cta_q[mb_next_q*16 +: 16]                     <= m_dest_q.cta;
      mb_off_q[mb_next_q*64 +: 64]                     <= m_off_q;
      mb_word_q[mb_next_q*MbarWordBits +: MbarWordBits] <= mbar_rd_word_i;
    end
    if (mb_update) mb_word_q[mb_idx_q*MbarWordBits +: MbarWordBits] <= mb_word_out;
  end

  // Ports fed from the captured state.
  assign alloc_req_addr_o = acc_off_q;
  assign alloc_req_size_o = size;
  assign mbar_rd_cta_o    = m_dest_q.cta;
  assign mbar_rd_offset_o = m_off_q;
  assign mbar_wr_cta_o    = mb_cta_q[wb_idx*16 +: 16];
  assign mbar_wr_offset_o = mb_off_q[wb_idx*64 +: 64];
  assign mbar_wr_word_o   = mb_word_q[wb_idx*MbarWordBits +: MbarWordBits];
  assign ev_cta_o         = mb_cta_q[mb_idx_q*16 +: 16];
  assign ev_offset_o      = mb_off_q[mb_idx_q*64 +: 64];
  assign ev_bytes_o       = tx_bytes;
  assign ev_lane_o        = mlane;
  assign ev_completed_o   = ev_completed_q;

  assign attr_release_o          = ord_sem_q == SemRelease;
  assign attr_strong_o           = ord_strong_q;
  assign attr_mmio_o             = mmio_q;
  assign attr_has_cop_o          = has_cop_q;
  assign attr_cop_o              = cop_q;
  assign attr_has_l1_o           = has_l1_q;
  assign attr_l1_o               = l1_q;
  assign attr_has_l2_o           = has_l2_q;
  assign attr_l2_o               = l2_q;
  assign attr_policy_kind_o      = pk_q;
  assign attr_policy_primary_o   = pp_q;
  assign attr_policy_secondary_o = ps_q;
  assign attr_policy_lines_o     = pl_q;

  assign st_fault_o      = fault_q;
  assign st_fault_addr_o = fault_addr_q;
  assign st_stored_o     = stored_q;
  assign st_forced_o     = forced_q;
  assign st_bytes_o      = bytes_q;
  assign st_sem_o        = ord_sem_q;
  assign st_strong_o     = ord_strong_q;
  assign st_has_scope_o  = ord_has_scope_q;
  assign st_scope_o      = (ord_has_scope_q && ord_scope_q == ScopeSys && any_shared_q &&
                            !any_global_q) ? ScopeCluster : ord_scope_q;
  assign st_release_o    = ord_sem_q == SemRelease;
  assign st_volatile_o   = ord_volatile_q;
  assign st_async_o      = kind_q == KindAsync || kind_q == KindAsyncRelease ||
                           kind_q == KindTcgen05;

  ////////////////
  // Assertions //
  ////////////////

  // A lane never both faults and stores; the status comes after every lane is done. At most
  // one group enters per cycle, and only lanes of that group.
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane_asserts
    `ASSERT_EDGE(LaneOutcome_A, !(stored_q[l] && `STU_SU_FLT(fault_q, l) != FaultNone),
                 st_valid_o)
    `ASSERT_EDGE(StatusAfterLanes_A,
                 `STU_SU_LST(lst_q, l) == LIdle || `STU_SU_LST(lst_q, l) == LDone, st_valid_o)
    `ASSERT_I(OneGroup_A, !(rst_ni && state_q == Lanes) || !sa_in_valid[l] ||
                          6'(l >> group_log2_q) == grp_q)
  end
  // One barrier copy per lane at most.
  `ASSERT_IF(MbarCopies_A, mb_next_q != 5'd31 || !mb_valid_q[31], ms_q == MRead)
  // The stages the state machines wait for answer one cycle after they are asked, and the
  // mbarrier unit is always ready (its output is always taken): the waits, which keep the
  // machines right for a stage with more latency, are never taken (rtl/coverage_waivers.txt).
  for (genvar l = 0; l < NumLanes; l++) begin : gen_stage_asserts
    `ASSERT_IF(AlignAnswers_A, sa_out_valid[l],
               state_q == Lanes && `STU_SU_LST(lst_q, l) == LAlign)
    `ASSERT_IF(ResolveAnswers_A, rs_out_valid[l],
               state_q == Lanes && `STU_SU_LST(lst_q, l) == LResolve)
  end
  `ASSERT_IF(MbarResolveAnswers_A, rm_out_valid, ms_q == MResolve)
  `ASSERT_IF(MbarUnitReady_A, mb_in_ready, ms_q == MStep)
  `ASSERT_IF(MbarUnitAnswers_A, mb_out_valid, ms_q == MStepWait)
  // The group and mbarrier lane pointers count up to 32 (done) and stop there: a value past it
  // would wrap round through the lanes before the warp's status.
  `ASSERT(GroupInRange_A, grp_q <= 6'd32)
  `ASSERT(MbarLaneInRange_A, mp_q <= 6'd32)

`undef STU_SU_LST
`undef STU_SU_FLT
`undef STU_SU_W64
`undef STU_SU_DEST

endmodule
