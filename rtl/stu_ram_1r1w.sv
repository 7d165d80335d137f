// A memory with one write port (byte enables) and one synchronous read port: the wrapper a
// large buffer sits behind, as a real design puts it behind an SRAM macro. This is its
// behavioural model; a technology flow replaces the body with the macro and keeps the ports.
//
// Write: at a clock edge with we_i, the bytes of wdata_i whose wbe_i bit is set are written at
// waddr_i; the others keep their contents.
// Read: at a clock edge with re_i, the word at raddr_i is loaded into rdata_o, which holds it
// until the next read. A read and a write of one address at the same edge read the contents
// before the write ("read first", the collision rule the macro must offer).
// No reset: the contents are undefined until written (the users never read a byte they have not
// written since they mark valid bytes themselves).
`include "stu_assert.svh"

module stu_ram_1r1w #(
  parameter int unsigned Depth = 64,
  parameter int unsigned Width = 1024,  // a multiple of 8
  localparam int unsigned AddrBits = Depth > 1 ? $clog2(Depth) : 1
) (
  input  logic                  clk_i,
  input  logic                  we_i,
  input  logic [AddrBits-1:0]   waddr_i,
  input  logic [Width/8-1:0]    wbe_i,
  input  logic [Width-1:0]      wdata_i,
  input  logic                  re_i,
  input  logic [AddrBits-1:0]   raddr_i,
  output logic [Width-1:0]      rdata_o
);

  // One memory per byte lane, each written when its enable is set: the byte-enabled word as a
  // synthesis tool infers it (Width / 8 memories of Depth bytes, one write port each), and a
  // form the Verilator 5.006 model takes (it rejects a procedural write of an element's slice).
  logic [Width-1:0] rdata_q;
  for (genvar b = 0; b < Width / 8; b++) begin : g_lane
    logic [7:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (re_i) rdata_q[b*8 +: 8] <= mem_q[raddr_i];
      if (we_i && wbe_i[b]) mem_q[waddr_i] <= wdata_i[b*8 +: 8];
    end
  end
  assign rdata_o = rdata_q;

  ////////////////
  // Assertions //
  ////////////////

  `ASSERT_INIT(WidthBytes_A, Width >= 8 && Width % 8 == 0)
  `ASSERT_INIT(DepthLegal_A, Depth >= 2)
  // Every address a port uses lies in the memory (Depth need not be a power of two).
  `ASSERT_IF(WriteInRange_A, 32'(waddr_i) < Depth, we_i, clk_i, 1'b1)
  `ASSERT_IF(ReadInRange_A, 32'(raddr_i) < Depth, re_i, clk_i, 1'b1)

endmodule
