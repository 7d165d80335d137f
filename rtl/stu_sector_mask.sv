// Line byte-mask generator.
//
// For one store of `size_bytes_i` bytes (1, 2, 4, 8, 16 or 32) at byte offset `offset_i`
// within a 128-byte line, produce the byte-enable mask over the line, the mask of the 32-byte
// sectors it touches, and a flag for an address that is not naturally aligned (offset not a
// multiple of the size). Bytes that would fall past the end of the line are not set: an
// access that crosses a line is split before this block. All outputs are zero while
// `valid_i` is low.
//
// Purely combinational: zero latency, one access per cycle.
`include "stu_assert.svh"

module stu_sector_mask #(
  parameter int unsigned LineBytes      = 128,
  parameter int unsigned SectorBytes    = 32,
  parameter int unsigned MaxAccessBytes = 32,   // st.v8.b32 / st.v4.b64
  localparam int unsigned NumSectors     = LineBytes / SectorBytes,
  localparam int unsigned OffsetBits     = $clog2(LineBytes),
  localparam int unsigned SizeBits       = $clog2(MaxAccessBytes) + 1
) (
  input  logic                  valid_i,
  input  logic [OffsetBits-1:0] offset_i,       // byte offset within the line
  input  logic [SizeBits-1:0]   size_bytes_i,   // 1, 2, 4, 8, 16 or 32
  output logic [LineBytes-1:0]  byte_mask_o,
  output logic [NumSectors-1:0] sector_mask_o,
  output logic                  misaligned_o
);

  logic [LineBytes-1:0] size_mask;  // `size_bytes_i` ones, starting at byte 0

  always_comb begin
    size_mask = '0;
    for (int unsigned i = 0; i < MaxAccessBytes; i++) begin
      if (i < 32'(size_bytes_i)) size_mask[i] = 1'b1;
    end

    byte_mask_o   = '0;
    sector_mask_o = '0;
    misaligned_o  = 1'b0;
    if (valid_i) begin
      byte_mask_o = size_mask << offset_i;
      for (int unsigned s = 0; s < NumSectors; s++) begin
        sector_mask_o[s] = |byte_mask_o[s*SectorBytes +: SectorBytes];
      end
      misaligned_o = |(offset_i & OffsetBits'(size_bytes_i - 1'b1));
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // Parameter legality: powers of two, sectors within the line, an access within a sector.
  `ASSERT_INIT(LinePow2_A, LineBytes != 0 && (LineBytes & (LineBytes - 1)) == 0)
  `ASSERT_INIT(SectorPow2_A, SectorBytes != 0 && (SectorBytes & (SectorBytes - 1)) == 0 &&
                             SectorBytes <= LineBytes)
  `ASSERT_INIT(AccessInSector_A, MaxAccessBytes != 0 && MaxAccessBytes <= SectorBytes)
  // Checked only for a valid access: the inputs of an idle cycle are don't-care.
  // Input constraint: the size is a power of two from 1 to MaxAccessBytes.
  `ASSUME_I(SizeLegal_A, !valid_i || ($onehot(size_bytes_i) && 32'(size_bytes_i) <= MaxAccessBytes))
  // A valid store always writes at least one byte, in at least one sector.
  `ASSERT_I(MaskNotEmpty_A, !valid_i || (|byte_mask_o && |sector_mask_o))

endmodule
