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

  // The warp being coalesced, kept in the form the merge reads (written when the warp is
  // taken): each lane's destination and line number, and its bytes by sector and by byte of
  // the sector, lanes across: sec_q[s] bit l: lane l's access lies in sector s; col_q[j] bit l:
  // it writes byte j of its sector; dat_q[j] byte l: what it writes there. G - 1 of the warp's
  // same-location rule.
  localparam int unsigned LocBits = DestBits + 64 - $clog2(LineBytes);
  logic [NumLanes*LocBits-1:0]       loc_q;
  logic [NumSectors*NumLanes-1:0]    sec_q;
  logic [SectorBytes*NumLanes-1:0]   col_q;
  logic [SectorBytes*NumLanes*8-1:0] dat_q;
  logic [4:0]                        flip_q;

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

  // The line merged from the lanes of the next line. Byte by byte, every lane that writes the
  // byte is a candidate, and the one of highest rank wins (merging in ascending rank, the last
  // one merged wins): rank r is lane r ^ flip, so the candidates are moved to rank order, the
  // highest one is kept, and its rank goes back to a lane. Each byte is one flat select, with
  // no chain from lane to lane.
  logic [NumLanes-1:0]      cand, top;
  logic [4:0]               wlane;  // the byte's winner
  logic [NumLanes*8-1:0]    col;    // byte j of every lane's sector
  logic [LineBytes-1:0]     mmask;
  logic [LineBytes*8-1:0]   mdata;
  logic [LocBits-1:0]       floc;  // the first lane's destination and line number
  line_req_t                line;
  always_comb begin
    cand  = '0;
    top   = '0;
    wlane = '0;
    col   = '0;
    mmask = '0;
    mdata = '0;
    floc  = loc_q[first*LocBits +: LocBits];
    line            = '0;
    line.dest       = floc[LocBits-1 -: DestBits];
    line.line       = {floc[LocBits-DestBits-1:0], 7'd0};
    line.lane_mask  = match;
    line.first_lane = first;
    // (Merged only while a line is pending: the loops cost simulation time on every edge.)
    if (any_pending) begin
      for (int unsigned b = 0; b < LineBytes; b++) begin
        cand = match & sec_q[(b / SectorBytes)*NumLanes +: NumLanes] &
               col_q[(b % SectorBytes)*NumLanes +: NumLanes];
        if (cand != '0) begin
          top             = highest(by_xor(cand, flip_q));
          wlane           = index_of(top) ^ flip_q;
          col             = dat_q[(b % SectorBytes)*NumLanes*8 +: NumLanes*8];
          mmask[b]        = 1'b1;
          mdata[b*8 +: 8] = col[wlane*8 +: 8];
        end
      end
    end
    line.byte_mask = mmask;
    line.data      = mdata;
    for (int unsigned s = 0; s < NumSectors; s++) begin
      line.sector_mask[s] = |mmask[s*SectorBytes +: SectorBytes];
    end
  end

  // The lanes of `v` moved by XOR with `f` (bit l to bit l ^ f): one swap of neighbours per
  // bit of f. Its own inverse.
  function automatic logic [NumLanes-1:0] by_xor(input logic [NumLanes-1:0] v,
                                                 input logic [4:0] f);
    logic [NumLanes-1:0] x;
    x = v;
    if (f[0]) x = ((x & 32'h5555_5555) << 1) | ((x >> 1) & 32'h5555_5555);
    if (f[1]) x = ((x & 32'h3333_3333) << 2) | ((x >> 2) & 32'h3333_3333);
    if (f[2]) x = ((x & 32'h0F0F_0F0F) << 4) | ((x >> 4) & 32'h0F0F_0F0F);
    if (f[3]) x = ((x & 32'h00FF_00FF) << 8) | ((x >> 8) & 32'h00FF_00FF);
    if (f[4]) x = ((x & 32'h0000_FFFF) << 16) | ((x >> 16) & 32'h0000_FFFF);
    by_xor = x;
  endfunction
  // The highest set bit of `v` alone: a bit survives when no bit above it is set.
  function automatic logic [NumLanes-1:0] highest(input logic [NumLanes-1:0] v);
    logic [NumLanes-1:0] above;  // bit i: a bit above i is set
    above = v >> 1;
    above = above | (above >> 1);
    above = above | (above >> 2);
    above = above | (above >> 4);
    above = above | (above >> 8);
    above = above | (above >> 16);
    highest = v & ~above;
  endfunction
  // The index of the one set bit of `v`.
  function automatic logic [4:0] index_of(input logic [NumLanes-1:0] v);
    index_of = {|(v & 32'hFFFF_0000), |(v & 32'hFF00_FF00), |(v & 32'hF0F0_F0F0),
                |(v & 32'hCCCC_CCCC), |(v & 32'hAAAA_AAAA)};
  endfunction

  logic take;
  assign take  = in_valid_i && in_ready_o;
  assign req_d = pick ? line : req_q;

  // A taken warp's lanes in the merge's form: each lane's bytes moved to their place in its
  // sector, then laid out by sector and byte across the lanes. (Worked out only in the cycle a
  // warp is taken: the loops would cost simulation time whenever an input changes.)
  /* verilator lint_off UNUSEDSIGNAL */
  lane_access_t t_acc;  // (its size is not read)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [SectorBytes-1:0]            t_mask;
  logic [SectorBytes*8-1:0]          t_data;
  logic [NumLanes*LocBits-1:0]       t_loc;
  logic [NumSectors*NumLanes-1:0]    t_sec;
  logic [SectorBytes*NumLanes-1:0]   t_col;
  logic [SectorBytes*NumLanes*8-1:0] t_dat;
  always_comb begin
    t_acc  = '0;
    t_mask = '0;
    t_data = '0;
    t_loc  = '0;
    t_sec  = '0;
    t_col  = '0;
    t_dat  = '0;
    if (take) begin
      for (int unsigned l = 0; l < NumLanes; l++) begin
        t_acc  = acc_i[l*LaneAccessBits +: LaneAccessBits];
        t_mask = t_acc.byte_mask << t_acc.offset[4:0];
        t_data = t_acc.data << {t_acc.offset[4:0], 3'b000};
        t_loc[l*LocBits +: LocBits] = {t_acc.dest, t_acc.offset[63:$clog2(LineBytes)]};
        for (int unsigned s = 0; s < NumSectors; s++) begin
          t_sec[s*NumLanes + l] = t_acc.offset[6:5] == 2'(s);
        end
        for (int unsigned j = 0; j < SectorBytes; j++) begin
          t_col[j*NumLanes + l]          = t_mask[j];
          t_dat[(j*NumLanes + l)*8 +: 8] = t_data[j*8 +: 8];
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      loc_q  <= t_loc;
      sec_q  <= t_sec;
      col_q  <= t_col;
      dat_q  <= t_dat;
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
  // mutate: off
  // (One assumption over all lanes, not one per lane in a generate loop: yosys 0.23 names every
  // copy alike, and misreads a struct declared in a generate block or a function.)
  logic         lanes_aligned;
  /* verilator lint_off UNUSEDSIGNAL */
  lane_access_t chk_acc;  // a lane's access (its size and offset are checked)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    lanes_aligned = 1'b1;
    chk_acc       = '0;
    for (int l = 0; l < NumLanes; l++) begin
      chk_acc = acc_i[l*LaneAccessBits +: LaneAccessBits];
      if (lane_valid_i[l] && !($onehot(chk_acc.size) && chk_acc.size <= 6'(MaxAccessBytes) &&
                               (chk_acc.offset[5:0] & (chk_acc.size - 6'd1)) == '0))
        lanes_aligned = 1'b0;
    end
  end
  // mutate: on
  `ASSUME_I(LaneAligned_A, !(in_valid_i && rst_ni) || lanes_aligned)

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
