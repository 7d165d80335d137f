// Coalescer: the lane accesses of one warp store into 128-byte line requests.
//
// A warp comes in as one transaction: up to 32 lane accesses (stu_pkg::lane_access_t, one per
// lane, each aligned to its size and so within one 32-byte sector). Line requests go out one
// per cycle, in ascending (destination, line) order: destination by space, CTA, thread, then the
// line address. Each request carries the sector mask, the byte mask, the data, the lanes that
// contributed and the lowest of them. When lanes write the same byte, the same-location rule
// decides (golden::LaneGroup, silicon-checked): lane data moves in groups of G lanes (G =
// 2^group_log2_i: 128 bytes of lane data, or 1 for .mmio and st.async), groups in lane order,
// the lowest lane first inside a group; so the lanes are merged in ascending rank,
// rank = lane XOR (G - 1), and the last one merged wins. A lane whose byte mask is empty (all of
// its elements are sinks) contributes nothing.
// Reference: golden::coalesce (include/stu/golden/access.h).
//
// Each cycle the smallest (destination, line) key among the lanes still pending is found, the
// lanes with that key are merged into the output register and retired (the order is
// stu_coalescer_order's, proved apart from the byte merge). A warp of N lines takes
// N cycles; the next warp is taken in the cycle its predecessor's last line leaves the pending
// set, so back-to-back warps flow at one line per cycle. valid/ready on both sides; last_o marks
// the final line of a warp.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_coalescer
  import stu_pkg::*;
(
  input  logic                        clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                        rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Warp in.
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  logic         [NumLanes-1:0] lane_valid_i,  // lanes that store (active, no fault)
  input  logic [NumLanes*LaneAccessBits-1:0] acc_i,  // lane_access_t of lane l at [l*W +: W]
  input  logic [2:0]                  group_log2_i,  // lanes moved together: 1 .. 32
  // Line requests out.
  output logic                        out_valid_o,
  input  logic                        out_ready_i,
  output line_req_t                   req_o,
  output logic                        last_o         // the last line of its warp
);

  localparam int unsigned KeyBits = DestBits + 64 - $clog2(LineBytes);

  // Lanes of the warp being coalesced, and G - 1 of its same-location rule.
  logic [NumLanes*LaneAccessBits-1:0] acc_q;
  logic         [4:0]          flip_q;

  // Output register (its valid and last bits are the ordering's).
  line_req_t req_q, req_d;

  // The key of a line: destination then line number (the address without its low 7 bits).
  function automatic logic [KeyBits-1:0] key_of(dest_t dest, logic [63-$clog2(LineBytes):0] num);
    dest_t d;
    d = dest;
`ifdef STU_BROKEN_KEY_NO_THREAD
    // Deliberately broken variant (docs/cosim.md): the key leaves out the destination's thread,
    // so the local (per-thread) lines of two threads at one offset merge into one request.
    d.thread = '0;
`endif
    key_of = {d, num};
  endfunction

  // The incoming warp's lanes that write a byte, and their keys.
  logic [NumLanes-1:0]         in_pending;
  logic [NumLanes*KeyBits-1:0] in_keys;
  // (The lanes' accesses are a plain vector, and each is copied whole before its fields are read:
  // yosys 0.23 silently drops the array dimension of a packed array of structs.)
  /* verilator lint_off UNUSEDSIGNAL */
  lane_access_t in_acc;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    in_acc = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      in_acc                        = acc_i[l*LaneAccessBits +: LaneAccessBits];
      in_pending[l]                 = lane_valid_i[l] && |in_acc.byte_mask;
      in_keys[l*KeyBits +: KeyBits] = key_of(in_acc.dest, in_acc.offset[63:$clog2(LineBytes)]);
    end
  end

  // The order of the lines (stu_coalescer_order): which lanes form the next one.
  logic                pick, any_pending;
  logic [NumLanes-1:0] match;
  logic [4:0]          first;
  logic [KeyBits-1:0]  pick_key;
  stu_coalescer_order #(
    .Lanes  (NumLanes),
    .KeyBits(KeyBits)
  ) u_order (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_pending_i (in_pending),
    .in_keys_i    (in_keys),
    .pick_o       (pick),
    .match_o      (match),
    .first_o      (first),
    .key_o        (pick_key),
    .any_pending_o(any_pending),
    .out_valid_o,
    .out_ready_i,
    .last_o
  );

  // The line merged from the lanes of the next line (ascending rank: the last wins).
  logic [4:0]               mlane;  // the lane merged at rank r
  /* verilator lint_off UNUSEDSIGNAL */
  lane_access_t             facc;   // the first lane's access
  lane_access_t             macc;   // lane mlane's access
  /* verilator lint_on UNUSEDSIGNAL */
  logic [LineBytes-1:0]     mmask;  // the line's bytes merged so far
  logic [LineBytes*8-1:0]   mdata;
  line_req_t                line;
  logic [1:0]               sec;
  logic [4:0]               in_sec;
  logic [SectorBytes-1:0]   lane_mask;
  logic [SectorBytes*8-1:0] lane_data;
  always_comb begin
    line            = '0;
    sec             = '0;
    in_sec          = '0;
    lane_mask       = '0;
    lane_data       = '0;
    mlane           = '0;
    macc            = '0;
    mmask           = '0;
    mdata           = '0;
    facc            = acc_q[first*LaneAccessBits +: LaneAccessBits];
    line.dest       = facc.dest;
    line.line       = {facc.offset[63:$clog2(LineBytes)], 7'd0};
    line.lane_mask  = match;
    line.first_lane = first;
    // (Merged only while a line is pending: the loops cost simulation time on every edge.)
    if (any_pending) begin
      for (int unsigned r = 0; r < NumLanes; r++) begin
        mlane = 5'(r) ^ flip_q;
        if (match[mlane]) begin
          macc      = acc_q[mlane*LaneAccessBits +: LaneAccessBits];
          sec       = macc.offset[6:5];
          in_sec    = macc.offset[4:0];
          lane_mask = macc.byte_mask << in_sec;
          lane_data = macc.data << {in_sec, 3'b000};
          // (Constant indices: a write at a variable index is a shifter per byte in hardware.)
          for (int unsigned s = 0; s < NumSectors; s++) begin
            if (sec == 2'(s)) begin
              for (int unsigned b = 0; b < SectorBytes; b++) begin
                if (lane_mask[b]) begin
                  mmask[s*SectorBytes+b]          = 1'b1;
                  mdata[(s*SectorBytes+b)*8 +: 8] = lane_data[b*8 +: 8];
                end
              end
            end
          end
        end
      end
    end
    line.byte_mask = mmask;
    line.data      = mdata;
    for (int unsigned s = 0; s < NumSectors; s++) begin
      line.sector_mask[s] = |mmask[s*SectorBytes +: SectorBytes];
    end
  end

  logic take;
  assign take  = in_valid_i && in_ready_o;
  assign req_d = pick ? line : req_q;

  always_ff @(posedge clk_i) begin
    if (take) begin
      acc_q  <= acc_i;
      flip_q <= 5'((6'd1 << group_log2_i) - 6'd1);
    end
    req_q <= req_d;
  end

  assign req_o = req_q;

  ////////////////
  // Assertions //
  ////////////////

  // Input constraints: at most 32 lanes move together; every lane access is aligned to its
  // size (a power of two up to 32), so within one sector. Combinational, as the lanes settle.
  `ASSUME_I(GroupLegal_A, !(in_valid_i && rst_ni) || group_log2_i <= 3'd5)
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane_asserts
    /* verilator lint_off UNUSEDSIGNAL */
    lane_access_t a;  // lane l's access (its size and offset are checked)
    /* verilator lint_on UNUSEDSIGNAL */
    assign a = acc_i[l*LaneAccessBits +: LaneAccessBits];
    `ASSUME_I(LaneAligned_A, !(in_valid_i && rst_ni && lane_valid_i[l]) ||
                             ($onehot(a.size) && a.size <= 6'(MaxAccessBytes) &&
                              (a.offset[5:0] & (a.size - 6'd1)) == '0))
  end

  // mutate: off
`ifndef SYNTHESIS
  // Assertion state (the request is wider than the 64 bits Verilator 5.006 samples in a
  // concurrent assertion, so these compare against registered copies at the clock edge).
  logic      stalled_q;
  line_req_t req_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) stalled_q <= 1'b0;
    else stalled_q <= out_valid_o && !out_ready_i;
  end
  always_ff @(posedge clk_i) req_prev_q <= req_o;
`endif
  // mutate: on
  // A line request always writes a byte, and its first lane is one of its lanes.
  `ASSERT_EDGE(ReqNotEmpty_A, |req_o.byte_mask && req_o.lane_mask[req_o.first_lane], out_valid_o)
  // The output holds while it waits.
  `ASSERT_I(OutStable_A, !(rst_ni && stalled_q) || (out_valid_o && req_o == req_prev_q))
  // The line loaded is the one the ordering chose: its key is the chosen key (the ordering's
  // properties, Ascending_A among them, are proved in stu_coalescer_order).
  `ASSERT_EDGE(LineIsPicked_A, key_of(line.dest, line.line[63:$clog2(LineBytes)]) == pick_key, pick)

endmodule
