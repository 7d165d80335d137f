// Address generation: the effective address of every lane of a warp store, from its register
// values and the instruction's immediate.
//
// PTX (`sass_i` low): `[reg+imm]` and `[var+imm]` are the register (or symbol) value plus the
// sign-extended offset, in 64 bits; `[imm]` is the immediate alone.
// SASS ST (seed 002): with Ra omitted, RZ or at or beyond the configured register count
// (`cfg_regs_i`), the zero-extended 32-bit immediate; with `.E`, {Ra+1, Ra} plus the
// sign-extended immediate in 64 bits (Ra+1 reads zero when it is at or beyond the register
// count); without `.E` a 32-bit address, Ra plus the immediate modulo 2^32, zero-extended.
// Reference: golden::sass_address (executor.h) and the executor's PTX address (base + offset).
//
// Purely combinational, every lane at once. The per-lane ports are flat vectors, lane l at
// [l*64 +: 64] (or [l*32 +: 32]): the same bits as a [NumLanes][64] packed array, in a form
// yosys 0.23 reads.
`include "stu_pkg.svh"

module stu_addr_gen
  import stu_pkg::*;
(
  input  logic                      en_i,        // low: every address 0 (nothing to generate)
  input  logic                      sass_i,
  // PTX.
  input  logic                      abs_i,       // [imm]
  input  logic [NumLanes*64-1:0]    base_i,      // the address register per lane
  input  logic [63:0]               imm_i,       // the offset (PTX: 64-bit; SASS: bits 31:0)
  // SASS.
  input  logic                      extended_i,  // .E
  input  logic                      no_ra_i,     // [ImmU32] or RZ
  input  logic [7:0]                ra_i,        // the register number of Ra
  input  logic [8:0]                cfg_regs_i,  // registers per thread (golden sass_regs)
  input  logic [NumLanes*32-1:0]    ra_lo_i,     // Ra per lane
  input  logic [NumLanes*32-1:0]    ra_hi_i,     // Ra+1 per lane (as the register file holds it)
  output logic [NumLanes*64-1:0]    addr_o
);

  logic        sass_abs, hi_reads;
  logic [63:0] imm_sext32;
  assign sass_abs   = no_ra_i || 9'(ra_i) >= cfg_regs_i;
  assign hi_reads   = 9'(ra_i) + 9'd1 < cfg_regs_i;
  assign imm_sext32 = {{32{imm_i[31]}}, imm_i[31:0]};

  always_comb begin
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (!en_i) begin
        addr_o[l*64 +: 64] = '0;
      end else if (!sass_i) begin
        addr_o[l*64 +: 64] = abs_i ? imm_i : base_i[l*64 +: 64] + imm_i;
      end else if (sass_abs) begin
        addr_o[l*64 +: 64] = {32'd0, imm_i[31:0]};
      end else if (extended_i) begin
        addr_o[l*64 +: 64] = {hi_reads ? ra_hi_i[l*32 +: 32] : 32'd0, ra_lo_i[l*32 +: 32]} +
                             imm_sext32;
      end else begin
        addr_o[l*64 +: 64] = {32'd0, ra_lo_i[l*32 +: 32] + imm_i[31:0]};
      end
    end
  end

endmodule
