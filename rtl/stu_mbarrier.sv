// mbarrier update: one operation (init, expect-tx, complete-tx, arrive, arrive.expect_tx) on
// one barrier word in stu's 64-bit layout (stu_pkg::mbar_word_t), giving the next word, whether
// the phase completed, and a fault.
//
// Init takes a count in 1..MbarMaxCount (else MbarTxRange) and resets the barrier whatever it
// held. Every other operation needs an initialised barrier (expected != 0, else
// MbarUninitialized), keeps the tx-count in -MbarMaxTx..MbarMaxTx and the pending count from
// going negative (else MbarTxRange). The phase completes when pending and tx-count are both zero
// afterwards: the parity flips and pending reloads from expected. On a fault the word is
// returned unchanged (with its reserved bits cleared, as the golden encode does).
// Reference: golden::mbar_step with golden::decode_mbar / golden::encode.
//
// Latency 1 cycle, throughput 1 operation per cycle; valid/ready on both sides.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_mbarrier
  import stu_pkg::*;
(
  input  logic        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Operation in.
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  mbar_word_t  word_i,
  input  mbar_op_e    op_i,
  input  logic [31:0] count_i,      // init: expected arrivals; arrive: arrivals; *tx: bytes
  // Result out.
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output mbar_word_t  word_o,
  output logic        completed_o,  // the phase completed
  output fault_e      fault_o
);

  // Wide signed arithmetic: tx (21-bit signed) +/- count (32-bit unsigned) fits in 35 bits.
  localparam int unsigned W = 35;

  logic signed [W-1:0] tx, pending, count, max_tx;
  mbar_word_t          word_d, clean;
  logic                completed_d;
  fault_e              fault_d;

  always_comb begin
    clean      = word_i;
    clean.zero = '0;
    tx         = W'($signed(word_i.tx));
    pending    = W'({1'b0, word_i.pending});
    count      = W'({1'b0, count_i});
    max_tx     = W'(MbarMaxTx);

    word_d      = clean;
    completed_d = 1'b0;
    fault_d     = FaultNone;

    if (op_i == MbarOpInit) begin
      if (count_i == '0 || count_i > MbarMaxCount) begin
        fault_d = FaultMbarTxRange;
      end else begin
        word_d          = '0;
        word_d.expected = count_i[19:0];
        word_d.pending  = count_i[19:0];
      end
    end else if (word_i.expected == '0) begin
      fault_d = FaultMbarUninitialized;
    end else begin
      unique case (op_i)
        MbarOpExpectTx:   tx = tx + count;
        MbarOpCompleteTx: tx = tx - count;
        MbarOpArrive:     pending = pending - count;
        MbarOpArriveExpectTx: begin
          tx      = tx + count;
          pending = pending - W'(1);
        end
        default: ;
      endcase
      if (tx > max_tx || tx < -max_tx || pending < 0) begin
        fault_d = FaultMbarTxRange;
      end else begin
        word_d.tx      = tx[20:0];
        word_d.pending = pending[19:0];
        if (pending == 0 && tx == 0) begin
          word_d.phase   = ~clean.phase;
          word_d.pending = clean.expected;
          completed_d    = 1'b1;
        end
      end
    end
  end

  // Output register.
  logic       valid_q;
  mbar_word_t word_q;
  logic       completed_q;
  fault_e     fault_q;
  logic       take;

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
      word_q      <= word_d;
      completed_q <= completed_d;
      fault_q     <= fault_d;
    end
  end

  assign out_valid_o = valid_q;
  assign word_o      = word_q;
  assign completed_o = completed_q;
  assign fault_o     = fault_q;

  ////////////////
  // Assertions //
  ////////////////

  // Input constraint: the operation is one of the five.
  `ASSUME_IF(OpKnown_A, op_i == MbarOpInit || op_i == MbarOpExpectTx || op_i == MbarOpCompleteTx ||
                        op_i == MbarOpArrive || op_i == MbarOpArriveExpectTx, in_valid_i)
  // A completed phase leaves a barrier with no transaction bytes outstanding, pending reloaded.
  `ASSERT_IF(CompletedReloads_A, word_o.tx == '0 && word_o.pending == word_o.expected,
             out_valid_o && completed_o)
  // A result never has its reserved bits set.
  `ASSERT_IF(Reserved_A, word_o.zero == '0, out_valid_o)
  // A faulting operation completes no phase.
  `ASSERT_IF(FaultNoComplete_A, !completed_o, out_valid_o && fault_o != FaultNone)
  // The output holds while it waits.
  `ASSERT_NEXT(OutStable_A, out_valid_o && $stable(word_o) && $stable(fault_o),
               out_valid_o && !out_ready_i)
  // Handshakes and outputs are known out of reset.
  `ASSERT_KNOWN(InReadyKnown_A, in_ready_o)
  `ASSERT_KNOWN(OutValidKnown_A, out_valid_o)
  `ASSERT_KNOWN_IF(OutKnown_A, {word_o, completed_o, fault_o}, out_valid_o)

endmodule
