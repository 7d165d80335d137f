// Address resolution: a 64-bit address, generic or of a named state space, to the memory it
// lands in (space, CTA rank, thread in the CTA), the offset there, or a fault.
//
// Generic addresses are matched against the windows (shared::cluster, local, kernel param,
// const; outside all of them: global). A window of size 0 is disabled. Shared addresses
// (generic or .shared::cluster) select CTA rank = offset / stride, which must be below the
// cluster size. Named spaces: .global is the address itself, .local and .shared::cta are
// bounded by the window size and the stride, .param::func / .param::entry / .const are taken
// as given (their bounds are the memory's, checked after this block).
// Reference: golden::resolve_generic / golden::resolve_space (include/stu/golden/address.h).
//
// The windows are configuration registers written through the cfg port (one register per
// cycle; reset values are the golden defaults). The stride must be a power of two.
//
// Latency 1 cycle, throughput 1 address per cycle; valid/ready on both sides.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_addr_resolve
  import stu_pkg::*;
(
  input  logic        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Configuration: register cfg_sel_i takes cfg_data_i when cfg_valid_i.
  input  logic        cfg_valid_i,
  input  logic [3:0]  cfg_sel_i,   // 0 shared base, 1 shared size, 2 shared stride, 3 local base,
                                   // 4 local size, 5 param base, 6 param size, 7 const base,
                                   // 8 const size, 9 cluster CTAs
  input  logic [63:0] cfg_data_i,
  // Address in.
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] addr_i,
  input  logic        generic_i,   // a generic address (space_i is ignored)
  input  isa_space_e  space_i,     // the state space a store names
  input  logic [15:0] cta_i,       // who: CTA rank, warp in the CTA, lane
  input  logic [15:0] warp_i,
  input  logic [4:0]  lane_i,
  // Resolution out.
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output dest_t       dest_o,      // all zero on a fault
  output logic [63:0] offset_o,    // zero on a fault
  output fault_e      fault_o
);

  // log2 of the stride (a power of two), kept beside it when it is written.
  function automatic logic [5:0] log2_of(input logic [63:0] v);
    logic [5:0] r;
    r = '0;
    for (int b = 0; b < 64; b++) begin
      if (v[b]) r = 6'(b);
    end
    log2_of = r;  // (yosys 0.23 takes no `return` here)
  endfunction

  // Configuration registers.
  logic [5:0]  stride_log2_q;
  logic [63:0] shared_base_q, shared_size_q, stride_q, local_base_q, local_size_q;
  logic [63:0] param_base_q, param_size_q, const_base_q, const_size_q, cluster_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shared_base_q <= DefaultSharedBase;
      shared_size_q <= DefaultSharedSize;
      stride_q      <= DefaultSharedStride;
      stride_log2_q   <= log2_of(DefaultSharedStride);
      local_base_q  <= DefaultLocalBase;
      local_size_q  <= DefaultLocalSize;
      param_base_q  <= DefaultParamBase;
      param_size_q  <= DefaultParamSize;
      const_base_q  <= DefaultConstBase;
      const_size_q  <= DefaultConstSize;
      cluster_q     <= DefaultClusterCtas;
    end else if (cfg_valid_i) begin
      unique case (cfg_sel_i)
        4'd0: shared_base_q <= cfg_data_i;
        4'd1: shared_size_q <= cfg_data_i;
        4'd2: begin
          stride_q    <= cfg_data_i;
          stride_log2_q <= log2_of(cfg_data_i);
        end
        4'd3: local_base_q  <= cfg_data_i;
        4'd4: local_size_q  <= cfg_data_i;
        4'd5: param_base_q  <= cfg_data_i;
        4'd6: param_size_q  <= cfg_data_i;
        4'd7: const_base_q  <= cfg_data_i;
        4'd8: const_size_q  <= cfg_data_i;
        4'd9: cluster_q     <= cfg_data_i;
        default: ;
      endcase
    end
  end


  // Window hits: a - base < size (unsigned; a size of 0 never hits).
  logic [63:0] shared_rel, local_rel, param_rel, const_rel;
  logic        in_shared, in_local, in_param, in_const;
  assign shared_rel = addr_i - shared_base_q;
  assign local_rel  = addr_i - local_base_q;
  assign param_rel  = addr_i - param_base_q;
  assign const_rel  = addr_i - const_base_q;
  assign in_shared  = addr_i >= shared_base_q && shared_rel < shared_size_q;
  assign in_local   = addr_i >= local_base_q && local_rel < local_size_q;
  assign in_param   = addr_i >= param_base_q && param_rel < param_size_q;
  assign in_const   = addr_i >= const_base_q && const_rel < const_size_q;

  // Thread index in the CTA.
  logic [31:0] thread;
  assign thread = {11'd0, warp_i, lane_i};  // warp * 32 + lane


  dest_t       dest_d;
  logic [63:0] offset_d;
  fault_e      fault_d;
  logic [63:0] rank, off;

  always_comb begin
    dest_d   = '0;
    offset_d = '0;
    fault_d  = FaultNone;
    rank     = '0;
    off      = '0;
    if (generic_i) begin
      if (in_shared) begin
        rank = shared_rel >> stride_log2_q;  // .shared::cluster: rank and offset in the CTA
        off  = shared_rel & (stride_q - 64'd1);
        if (rank >= cluster_q) fault_d = FaultOutOfWindow;
        else begin
          dest_d.space  = MemShared;
          dest_d.cta    = rank[15:0];
          offset_d = off;
        end
      end else if (in_local) begin
        dest_d.space  = MemLocal;
        dest_d.cta    = cta_i;
        dest_d.thread = thread;
        offset_d = local_rel;
      end else if (in_param) begin
        dest_d.space = MemParamEntry;
        offset_d     = param_rel;
      end else if (in_const) begin
        dest_d.space = MemConst;
        offset_d     = const_rel;
      end else begin
        dest_d.space = MemGlobal;
        offset_d     = addr_i;
      end
    end else begin
      unique case (space_i)
        SpaceGlobal: begin
          dest_d.space = MemGlobal;
          offset_d     = addr_i;
        end
        SpaceLocal: begin
          if (addr_i >= local_size_q) fault_d = FaultOutOfWindow;
          else begin
            dest_d.space  = MemLocal;
            dest_d.cta    = cta_i;
            dest_d.thread = thread;
            offset_d = addr_i;
          end
        end
        SpaceShared, SpaceSharedCta: begin
          if (addr_i >= stride_q) fault_d = FaultOutOfWindow;
          else begin
            dest_d.space  = MemShared;
            dest_d.cta    = cta_i;
            offset_d = addr_i;
          end
        end
        SpaceSharedCluster: begin
          rank = addr_i >> stride_log2_q;
          off  = addr_i & (stride_q - 64'd1);
          if (rank >= cluster_q) fault_d = FaultOutOfWindow;
          else begin
            dest_d.space  = MemShared;
            dest_d.cta    = rank[15:0];
            offset_d = off;
          end
        end
        SpaceParam, SpaceParamFunc: begin
          dest_d.space  = MemParamFunc;
          dest_d.cta    = cta_i;
          dest_d.thread = thread;
          offset_d = addr_i;
        end
        SpaceParamEntry: begin
          dest_d.space = MemParamEntry;
          offset_d     = addr_i;
        end
        SpaceConst: begin
          dest_d.space = MemConst;
          offset_d     = addr_i;
        end
        default: fault_d = FaultOutOfWindow;
      endcase
    end
  end

  // Output register.
  logic        valid_q;
  dest_t       dest_q;
  logic [63:0] offset_q;
  fault_e      fault_q;
  logic        take;

  assign in_ready_o = !valid_q || out_ready_i;
  assign take       = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= take || (valid_q && !out_ready_i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      dest_q   <= dest_d;
      offset_q <= offset_d;
      fault_q  <= fault_d;
    end
  end

  assign out_valid_o = valid_q;
  assign dest_o      = dest_q;
  assign offset_o    = offset_q;
  assign fault_o     = fault_q;

  ////////////////
  // Assertions //
  ////////////////

  // Input constraint: the shared stride is a power of two (golden ModelConfig::check), so
  // rank/offset are a shift/mask.
  `ASSUME_IF(StrideOneHot_A, $onehot(stride_q), in_valid_i)
  // Input constraint: the issuing CTA is a CTA of its cluster (cta_i < the cluster size), for
  // the one resolution that uses it as a shared rank, `.shared::cta` (a store to its own CTA's
  // shared memory); golden::resolve_space does not check it either. Without it SharedRank_A
  // fails (a `.shared::cta` store of CTA 16 in a cluster of 1).
  `ASSUME_IF(CtaInCluster_A, 64'(cta_i) < cluster_q,
             take && !generic_i && (space_i == SpaceShared || space_i == SpaceSharedCta) &&
             addr_i < stride_q)
  // Input constraint: the cluster size is written only while the block is idle (no address
  // offered, and no result that stays in the output register past this edge: none, or one
  // leaving now): a result's rank is checked against the size it was resolved with.
  `ASSUME_IF(ClusterQuiet_A, !in_valid_i && (!out_valid_o || out_ready_i),
             cfg_valid_i && cfg_sel_i == 4'd9)
  // A faulting address produces no destination.
  `ASSERT_IF(FaultNoDest_A, dest_o == '0 && offset_o == '0, out_valid_o && fault_o != FaultNone)
  // A shared destination is a CTA of the cluster.
  `ASSERT_IF(SharedRank_A, 64'(dest_o.cta) < cluster_q,
             out_valid_o && fault_o == FaultNone && dest_o.space == MemShared)
  // The output holds while it waits.
  `ASSERT_NEXT(OutStable_A, out_valid_o && $stable(dest_o) && $stable(offset_o),
               out_valid_o && !out_ready_i)
  // Handshakes and outputs are known out of reset.
  `ASSERT_KNOWN(InReadyKnown_A, in_ready_o)
  `ASSERT_KNOWN(OutValidKnown_A, out_valid_o)
  `ASSERT_KNOWN_IF(DestKnown_A, dest_o, out_valid_o)
  `ASSERT_KNOWN_IF(OffsetKnown_A, offset_o, out_valid_o)
  `ASSERT_KNOWN_IF(FaultKnown_A, fault_o, out_valid_o)

endmodule
