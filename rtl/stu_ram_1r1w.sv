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

  // One array of words. A write merges its enabled bytes into the word it replaces: yosys
  // turns that feedback into one write port with a write enable per byte (a byte-enabled
  // memory, as a macro offers), and Verilator 5.006 writes whole elements (it rejects a
  // procedural write of an element's slice, and a memory per byte lane costs it a check per
  // lane every cycle). The merge is done at the clock edge, so a memory costs nothing between
  // its writes.
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;
  always_ff @(posedge clk_i) begin
    if (re_i) rdata_q <= mem_q[raddr_i];
    if (we_i) begin : write
      logic [Width-1:0] merged;
      merged = mem_q[waddr_i];
      for (int unsigned b = 0; b < Width / 8; b++) begin
        if (wbe_i[b]) merged[b*8 +: 8] = wdata_i[b*8 +: 8];
      end
      mem_q[waddr_i] <= merged;
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
