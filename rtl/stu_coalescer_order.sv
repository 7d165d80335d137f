// Coalescer ordering: which lanes of a warp form each line request, and in what order.
//
// A warp comes in as one transaction: the lanes that write a byte (in_pending_i) and each
// lane's key (in_keys_i, lane l in bits [l*KeyBits +: KeyBits]; stu_coalescer's key is the
// destination, then the line number). Each cycle the output register can load, the smallest key
// among the lanes still pending is found; the lanes with that key (match_o, the lowest of them
// first_o) leave the pending set, and pick_o tells stu_coalescer to load the line it merges from
// them (key_o: their key). out_valid_o/last_o are that output register's valid and "last line of its warp" bits.
// So the lines of a warp leave in strictly ascending key order, one per cycle while the output
// is taken, and a warp is taken in the cycle the previous one's last line leaves the pending
// set. The ordering is this module's alone, apart from the 32-lane byte merge, so that it can
// be proved (rtl/formal/formal.sh, at a small geometry; the properties hold for any).
`include "stu_assert.svh"

module stu_coalescer_order #(
  parameter int unsigned Lanes   = 32,
  parameter int unsigned KeyBits = 8
) (
  input  logic                     clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                     rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Warp in.
  input  logic                     in_valid_i,
  output logic                     in_ready_o,
  input  logic [Lanes-1:0]         in_pending_i,  // lanes that write a byte
  input  logic [Lanes*KeyBits-1:0] in_keys_i,
  // The line chosen this cycle (valid with pick_o).
  output logic                     pick_o,        // the output register loads it
  output logic [Lanes-1:0]         match_o,       // its lanes
  output logic [$clog2(Lanes)-1:0] first_o,       // the lowest of them
  output logic [KeyBits-1:0]       key_o,         // their key
  output logic                     any_pending_o,
  // The output register's handshake.
  output logic                     out_valid_o,
  input  logic                     out_ready_i,
  output logic                     last_o         // its line is the last of its warp
);

  `ASSERT_INIT(LanesPow2_A, Lanes >= 2 && (Lanes & (Lanes - 1)) == 0)
  `ASSERT_INIT(KeyBitsLegal_A, KeyBits >= 1)

  logic [Lanes*KeyBits-1:0] keys_q;
  logic [Lanes-1:0]         pending_q, pending_d;
  logic                     out_valid_q, out_valid_d;
  logic                     last_q, last_d;

  // The smallest key among the pending lanes.
  logic [KeyBits-1:0] min_key;
  always_comb begin
    min_key = '1;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (pending_q[l] && keys_q[l*KeyBits +: KeyBits] < min_key) begin
        min_key = keys_q[l*KeyBits +: KeyBits];
      end
    end
  end

  assign key_o = min_key;

  // Its lanes, and the lowest of them.
  always_comb begin
    match_o = '0;
    first_o = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (pending_q[l] && keys_q[l*KeyBits +: KeyBits] == min_key) begin
        match_o[l] = 1'b1;
        first_o    = l[$clog2(Lanes)-1:0];
      end
    end
  end

  // Control: the output register loads the next line when it is empty or being taken; a warp
  // is taken when no lane of the previous one is pending after this cycle.
  logic advance, take;
  assign any_pending_o = |pending_q;
  assign advance       = !out_valid_q || out_ready_i;
  assign pick_o        = advance && any_pending_o;
  assign in_ready_o    = !any_pending_o || (advance && (pending_q & ~match_o) == '0);
  assign take          = in_valid_i && in_ready_o;

  always_comb begin
    pending_d   = pending_q;
    out_valid_d = out_valid_q && !out_ready_i;
    last_d      = last_q;
    if (pick_o) begin
      pending_d   = pending_q & ~match_o;
      out_valid_d = 1'b1;
      last_d      = (pending_q & ~match_o) == '0;
    end
    if (take) pending_d = in_pending_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q   <= '0;
      out_valid_q <= 1'b0;
    end else begin
      pending_q   <= pending_d;
      out_valid_q <= out_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) keys_q <= in_keys_i;
    last_q <= last_d;
  end

  assign out_valid_o = out_valid_q;
  assign last_o      = last_q;

  ////////////////
  // Assertions //
  ////////////////

  // mutate: off
`ifndef SYNTHESIS
  // Assertion state: the key of the line in the output register, of the last line taken from
  // it, and whether one was taken since reset and whether it was its warp's last.
  logic [KeyBits-1:0] out_key_q, sent_key_q;
  logic               sent_q, sent_last_q;
  logic [Lanes-1:0]   above;  // lane l is not pending, or its key is above the output's
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      above[l] = !pending_q[l] || keys_q[l*KeyBits +: KeyBits] > out_key_q;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sent_q <= 1'b0;
    else sent_q <= sent_q || (out_valid_o && out_ready_i);
  end
  always_ff @(posedge clk_i) begin
    if (pick_o) out_key_q <= min_key;
    if (out_valid_o && out_ready_i) begin
      sent_key_q  <= out_key_q;
      sent_last_q <= last_o;
    end
  end
`endif
  // mutate: on
  // The lines of a warp leave in strictly ascending key order; the line after one that is not
  // its warp's last follows at once. PendingAbove_A (every lane still pending lies above the
  // output's line) and NotLastPending_A make the ordering inductive.
  `ASSERT_EDGE(Ascending_A, out_key_q > sent_key_q, out_valid_o && sent_q && !sent_last_q)
  `ASSERT_EDGE(NextFollows_A, out_valid_o, sent_q && !sent_last_q)
  `ASSERT_EDGE(PendingAbove_A, &above, out_valid_o && !last_o)
  `ASSERT_EDGE(NotLastPending_A, |pending_q, out_valid_o && !last_o)
  // A chosen line has a lane: the lowest of its lanes is one of them.
  `ASSERT_EDGE(PickHasLane_A, match_o[first_o], pick_o)
  // Handshakes are known out of reset.
  `ASSERT_KNOWN(InReadyKnown_A, in_ready_o)
  `ASSERT_KNOWN(OutValidKnown_A, out_valid_o)
  `ASSERT_KNOWN_IF(LastKnown_A, last_o, out_valid_o)

endmodule
