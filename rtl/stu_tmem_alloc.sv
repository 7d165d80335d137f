// TMEM allocator: tcgen05.alloc / tcgen05.dealloc for each CTA of the cluster, and the
// allocation mask the TMEM write datapath checks columns against.
//
// Tensor memory is allocated in 32-column units (16 per CTA), always all 128 lanes. An alloc of
// `cols` (a power of two in [32, 512]) takes the lowest run of free units that fits (first fit)
// and answers its TMEM address (lane 0, first column: {16'd0, col}); a dealloc must name exactly
// one live allocation (its first column and its size). Anything else fails and changes nothing.
// Reference: golden::TmemAllocator (include/stu/golden/tmem.h).
//
// Latency 1 cycle (the answer is a register); one request per cycle. The mask read is
// combinational.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_tmem_alloc
  import stu_pkg::*;
(
  input  logic        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' check of it
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Requests.
  input  logic        req_valid_i,
  input  logic        req_dealloc_i,  // 0: alloc `cols`; 1: dealloc `cols` at `taddr`
  input  logic [3:0]  req_cta_i,
  input  logic [31:0] req_cols_i,
  input  logic [31:0] req_taddr_i,
  output logic        rsp_valid_o,
  output logic        rsp_ok_o,
  output logic [31:0] rsp_taddr_o,    // a successful alloc: its address (else not defined)
  // The allocation of one CTA (bit u: columns [32u, 32u + 32)).
  input  logic [3:0]  mask_cta_i,
  output logic [15:0] mask_o
);

  localparam int unsigned Units = TmemColumns / TmemAllocUnit;  // 16

  // Per CTA c: its units [c*Units +: Units], its allocation starts likewise, and the length in
  // units of the allocation starting at unit u, [(c*Units + u)*5 +: 5]. (Flat vectors: yosys
  // 0.23 reads no multi-dimensional packed array, and Verilator 5.006 resets no unpacked array
  // element in a loop.)
  logic [MaxClusterCtas*Units-1:0]   units_q, starts_q;
  logic [MaxClusterCtas*Units*5-1:0] len_q;
  logic [Units-1:0]                  req_units;  // the requesting CTA's
  assign req_units = units_q[32'(req_cta_i)*Units +: Units];

  assign mask_o = units_q[32'(mask_cta_i)*Units +: Units];

  // The request's count in units: a power of two of columns in [32, 512].
  logic       count_ok;
  logic [4:0] n;
  logic [15:0] want;
  always_comb begin
    count_ok = req_cols_i >= 32'(TmemAllocUnit) && req_cols_i <= 32'(TmemColumns) &&
               (req_cols_i & (req_cols_i - 32'd1)) == '0;
    n        = 5'(req_cols_i >> 5);
    want     = n >= 5'd16 ? 16'hFFFF : 16'((17'd1 << n) - 17'd1);
  end

  // Alloc: the lowest unit u where `want << u` is free and fits.
  logic       fit;
  logic [3:0] fit_u;
  always_comb begin
    fit   = 1'b0;
    fit_u = '0;
    for (int u = Units - 1; u >= 0; u--) begin
      if (count_ok && 32'(u) + 32'(n) <= Units &&
          (req_units & 16'(want << u)) == '0) begin
        fit   = 1'b1;
        fit_u = 4'(u);
      end
    end
  end

  // Dealloc: lane 0, a unit boundary inside TMEM, the start of a live allocation of that size.
  logic       free_ok;
  logic [3:0] free_u;
  assign free_u  = req_taddr_i[8:5];
  assign free_ok = count_ok && req_taddr_i[31:16] == '0 && req_taddr_i[4:0] == '0 &&
                   req_taddr_i[15:0] < 16'(TmemColumns) &&
                   starts_q[32'(req_cta_i)*Units + 32'(free_u)] &&
                   len_q[(32'(req_cta_i)*Units + 32'(free_u))*5 +: 5] == n;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      units_q     <= '0;
      starts_q    <= '0;
      len_q       <= '0;
      rsp_valid_o <= 1'b0;
      rsp_ok_o    <= 1'b0;
      rsp_taddr_o <= '0;
    end else begin
      rsp_valid_o <= req_valid_i;
      rsp_ok_o    <= req_dealloc_i ? free_ok : fit;
      rsp_taddr_o <= req_dealloc_i ? '0 : {16'd0, 7'd0, fit_u, 5'd0};
      if (req_valid_i && !req_dealloc_i && fit) begin
        units_q[32'(req_cta_i)*Units +: Units]               <= req_units | 16'(want << fit_u);
        starts_q[32'(req_cta_i)*Units + 32'(fit_u)]          <= 1'b1;
        len_q[(32'(req_cta_i)*Units + 32'(fit_u))*5 +: 5]    <= n;
      end
      if (req_valid_i && req_dealloc_i && free_ok) begin
        units_q[32'(req_cta_i)*Units +: Units]               <= req_units & ~(16'(want << free_u));
        starts_q[32'(req_cta_i)*Units + 32'(free_u)]         <= 1'b0;
        len_q[(32'(req_cta_i)*Units + 32'(free_u))*5 +: 5]   <= '0;
      end
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // Every allocation start lies inside allocated units.
  `ASSERT_EDGE(StartsAllocated_A, (starts_q & ~units_q) == '0, 1'b1)

endmodule
