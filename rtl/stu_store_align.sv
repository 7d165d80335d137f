// Store alignment and byte lanes of one lane of a store.
//
// Takes a lane's address, its element size and count (a scalar is one element), the sink
// elements of a brace list and the data, and places the access in its line: the address
// (forced down to the access size in SASS ST's ForceAlign mode), a misaligned fault (PTX
// always; SASS in Fault mode), the line, the sector, the bytes of the sector written and the
// data at their places in the sector. An aligned access of at most 32 bytes never leaves its
// sector. Reference: golden::store_align (include/stu/golden/store_align.h).
//
// Latency 1 cycle (one output register), throughput 1 lane per cycle; valid/ready on both
// sides (in_ready_o = output register empty or being taken).
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_store_align
  import stu_pkg::*;
(
  input  logic                        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Lane in.
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  logic [63:0]                 addr_i,
  input  logic [2:0]                  elem_log2_i,   // element bytes: 1 << elem_log2_i (1..16)
  input  logic [1:0]                  elems_log2_i,  // elements: 1 << elems_log2_i (1..8)
  input  logic [7:0]                  sinks_i,       // bit e: element e is not written
  input  misalign_e                   mode_i,
  input  logic [MaxAccessBytes*8-1:0] data_i,
  // Placement out.
  output logic                        out_valid_o,
  input  logic                        out_ready_i,
  output logic [63:0]                 addr_o,        // the address used (forced down if so)
  output logic                        forced_o,
  output logic                        fault_o,       // misaligned, Fault mode: nothing written
  output logic [63:0]                 line_o,
  output logic [1:0]                  sector_o,
  output logic [SectorBytes-1:0]      sector_mask_o,
  output logic [SectorBytes*8-1:0]    sector_data_o
);

  localparam int unsigned SizeLog2Max = $clog2(MaxAccessBytes);  // 5: 32 bytes

  // Combinational placement.
  logic [2:0]               size_log2;
  logic [63:0]              low_mask;     // size - 1
  logic                     misaligned;
  logic [63:0]              addr_used;
  logic [MaxAccessBytes-1:0] elem_mask;   // bytes of one element
  logic [MaxAccessBytes-1:0] access_mask;  // bytes of the access, sinks cleared
  logic [4:0]               in_sector;
  logic [SectorBytes-1:0]   mask_d;
  logic [SectorBytes*8-1:0] data_d;
  logic [SectorBytes*8-1:0] data_shift;  // the data moved to its place in the sector

  always_comb begin
    size_log2 = elem_log2_i + {1'b0, elems_log2_i};
    low_mask  = (64'd1 << size_log2) - 64'd1;
    misaligned = |(addr_i & low_mask);
    addr_used  = (misaligned && mode_i == MisalignForceAlign) ? (addr_i & ~low_mask) : addr_i;

    // The masks and the data are worked out only for a lane offered (the loops cost simulation
    // time on every clock edge otherwise).
    elem_mask   = '0;
    access_mask = '0;
    in_sector   = addr_used[4:0];
    mask_d      = '0;
    data_d      = '0;
    data_shift  = '0;
    if (in_valid_i && !(misaligned && mode_i == MisalignFault)) begin
      for (int unsigned b = 0; b < 16; b++) begin
        if (b < (32'd1 << elem_log2_i)) elem_mask[b] = 1'b1;
      end
      for (int unsigned e = 0; e < 8; e++) begin
        if (e < (32'd1 << elems_log2_i) && !sinks_i[e]) begin
          access_mask = access_mask | (elem_mask << (e << elem_log2_i));
        end
      end
      data_shift = data_i << {in_sector, 3'b000};  // bytes pushed past the sector: not masked in
      mask_d = access_mask << in_sector;
      for (int unsigned b = 0; b < SectorBytes; b++) begin
        if (mask_d[b]) data_d[b*8 +: 8] = data_shift[b*8 +: 8];
      end
    end
  end

  // Output register.
  logic                     valid_q, valid_d;
  logic [63:0]              addr_q, addr_d;
  logic                     forced_q, forced_d, fault_q, fault_d;
  logic [1:0]               sector_q, sector_d;
  logic [SectorBytes-1:0]   mask_q;
  logic [SectorBytes*8-1:0] data_q;
  logic                     take;

  assign in_ready_o = !valid_q || out_ready_i;
  assign take       = in_valid_i && in_ready_o;

  always_comb begin
    valid_d  = take ? 1'b1 : (valid_q && !out_ready_i);
    addr_d   = addr_used;
    forced_d = misaligned && mode_i == MisalignForceAlign;
    fault_d  = misaligned && mode_i == MisalignFault;
    sector_d = (misaligned && mode_i == MisalignFault) ? 2'd0 : addr_used[6:5];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= valid_d;
    end
  end

  // Payload registers load when a lane is taken (no reset: don't-care while not valid).
  always_ff @(posedge clk_i) begin
    if (take) begin
      addr_q   <= addr_d;
      forced_q <= forced_d;
      fault_q  <= fault_d;
      sector_q <= sector_d;
      mask_q   <= mask_d;
      data_q   <= data_d;
    end
  end

  assign out_valid_o   = valid_q;
  assign addr_o        = addr_q;
  assign forced_o      = forced_q;
  assign fault_o       = fault_q;
  assign line_o        = fault_q ? 64'd0 : {addr_q[63:7], 7'd0};
  assign sector_o      = sector_q;
  assign sector_mask_o = mask_q;
  assign sector_data_o = data_q;

  ////////////////
  // Assertions //
  ////////////////

  // Input constraint: the access is at most MaxAccessBytes (st.v8.b32, st.v4.b64) and not a .v8
  // of 64-bit elements.
  `ASSUME_IF(AccessSize_A, 32'(elem_log2_i) + 32'(elems_log2_i) <= SizeLog2Max &&
                           elem_log2_i <= 3'd4, in_valid_i)
  // A lane is never both faulted and forced down.
  `ASSERT_IF(NoFaultNoForce_A, !(fault_o && forced_o), out_valid_o)
  // A faulted lane writes nothing; a lane that does not fault is placed in its address's line
  // and sector.
  `ASSERT_IF(FaultNoBytes_A, sector_mask_o == '0, out_valid_o && fault_o)
  `ASSERT_IF(LineOfAddr_A, line_o[63:7] == addr_o[63:7] && line_o[6:0] == 7'd0 &&
                           sector_o == addr_o[6:5], out_valid_o && !fault_o)
  // The output holds while it waits.
  `ASSERT_NEXT(OutStable_A, out_valid_o && $stable(addr_o) && $stable(sector_mask_o),
               out_valid_o && !out_ready_i)
`ifdef STU_FORMAL_WRONG
  // Deliberately wrong (rtl/formal/formal.sh --wrong shows its counterexample): a lane is never
  // forced down, which ForceAlign mode does to every misaligned lane.
  `ASSERT_IF(NeverForced_A, !forced_o, out_valid_o)
`endif
  // Handshakes and outputs are known out of reset.
  `ASSERT_KNOWN(InReadyKnown_A, in_ready_o)
  `ASSERT_KNOWN(OutValidKnown_A, out_valid_o)
  `ASSERT_KNOWN_IF(OutKnown_A, {addr_o, forced_o, fault_o, sector_o, sector_mask_o}, out_valid_o)

endmodule
