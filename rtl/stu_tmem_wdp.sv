// TMEM write datapath of tcgen05.st: a warp's registers into 32-column runs of TMEM lanes.
//
// An instruction comes in as regs_per_rep(shape) * num register beats: beat j carries register
// j of the 32 threads (data_i[t]); in_last_i marks the last beat. The header (shape, num,
// unpack, taddr, split offset, the warp's quarter, the CTA's 16-bit allocation unit mask, CTA)
// is sampled with beat 0 and ignored on the others. Register j of thread t goes to the cells of
// ../shared/spec/tmem.md (.unpack::16b: two cells, the low half in the lower column, each half
// in bits 15:0 with bits 31:16 zero); .16x32bx2's threads 16..31 address from taddr + split
// (mod 2^32). While the beats stream in, every thread's cells of that register are checked
// (forward map): a thread faults at its first failing cell in (register, cell) order, with the
// cell's TMEM address {lane[15:0], col[15:0]}: a lane outside the warp's quarter (or >= 128)
// is FaultTmemLaneQuarter, else a column not allocated (or >= 512) FaultTmemColumnRange. A
// faulting thread writes nothing. The beats are kept in one of two buffers of 128 registers x
// 32 threads (with the header and the faults), so that the next instruction's beats come in
// while the previous one's runs go out.
//
// Then the candidate runs, the quarter's lanes x 32-column blocks inside an access's lane and
// column footprint, lanes that a thread without a fault writes, are visited in (lane, column)
// order, one per cycle: each run's 32 cells are gathered from the buffer with the inverse map of
// the shape (the second access of .16x32bx2 wins a cell both write); a run no thread writes
// (its columns' writers fault) is skipped, a non-empty one goes out (write_valid_o, wr_o).
// Last comes one status beat (write_valid_o low, last_o high) with every thread's fault kind
// and address (fault_o, fault_addr_o, valid with last_o). Unwritten cells of a run are 0.
// Reference: golden::tmem_write (include/stu/golden/tmem.h).
//
// The register buffer sits behind 32 memories (stu_ram_1r1w, one synchronous read port each):
// register j of both buffers is in memory j % 32, at word {buffer, j / 32}, a word holding the
// register of all 32 threads. A beat writes one word. The cells of a run come from at most 32
// registers with distinct j % 32 (a run's registers span at most 32 consecutive numbers), so a
// run reads each memory once, in one cycle; the one exception is a .16x32bx2 run that both
// accesses write, which reads the first access's registers and then the second's (two cycles,
// the second's cells winning). The registers read are gathered into the run the cycle after.
//
// Latency: R register beats (one per cycle), then one cycle per candidate run (C <= 32 lanes x
// blocks spanned: 32x32b.x1 at an aligned column 32, 16x256b.x32 160; 0 when every thread
// faults; a .16x32bx2 run both accesses write counts twice), the gather cycle, then the status
// beat: 32x32b.x1 leaves its status beat 35 cycles after its beat (R + C + 3 cycles from the
// first beat offered to the status beat taken). Throughput: the beats of an instruction overlap
// the runs of the one before, so without back-pressure one instruction every max(R, C + 2)
// cycles (a buffer frees when its status beat is loaded). valid/ready on both sides.
`include "stu_pkg.svh"
`include "stu_assert.svh"

module stu_tmem_wdp
  import stu_pkg::*;
(
  input  logic                              clk_i,
  /* verilator lint_off SYNCASYNCNET */  // asynchronous reset; the assertions' disable iff
  input  logic                              rst_ni,
  /* verilator lint_on SYNCASYNCNET */
  // Register beats in (header with beat 0).
  input  logic                              in_valid_i,
  output logic                              in_ready_o,
  input  logic                              in_last_i,      // the last register beat
  input  tmem_shape_e                       shape_i,
  input  logic [7:0]                        num_i,          // .num: 1 .. 128 / regs_per_rep
  input  logic                              unpack_i,       // .unpack::16b
  input  logic [31:0]                       taddr_i,
  input  logic [31:0]                       split_i,        // .16x32bx2 immHalfSplitoff
  input  logic [1:0]                        quarter_i,      // warp % 4
  input  logic [15:0]                       alloc_i,        // bit u: columns 32u .. 32u+31
  input  logic [15:0]                       cta_i,
  input  logic [NumLanes*32-1:0]            data_i,         // register j: thread t's at 32t
  // Runs, then the status beat, out.
  output logic                              out_valid_o,
  input  logic                              out_ready_i,
  output logic                              write_valid_o,  // wr_o is a run (else the status)
  output tmem_write_t                       wr_o,
  output logic                              last_o,         // the status beat
  output logic [NumLanes*FaultBits-1:0]     fault_o,        // fault_e per thread, with last_o
  output logic [NumLanes*32-1:0]            fault_addr_o    // thread t's at 32t
);

  localparam int unsigned MaxRegs   = 128;
  localparam int unsigned Blocks    = TmemColumns / 32;  // 32-column blocks of a lane
  localparam int unsigned Cands     = NumLanes * Blocks;  // candidate runs of a quarter
  localparam int unsigned Banks     = 32;                 // register j is in memory j % 32
  localparam int unsigned BankDepth = 2 * MaxRegs / Banks;  // word {buffer, j / 32}
  localparam int unsigned WordBits  = NumLanes * 32;      // a register of every thread
  localparam int unsigned GroupBits = 4 * 32;             // the register of 4 threads
  localparam int unsigned HdrBits   = TmemShapeBits + 8 + 1 + 32 + 32 + 2 + 16 + 16;

  typedef struct packed {
    tmem_shape_e shape;
    logic [7:0]  regs;   // regs_per_rep * num
    logic        unpack;
    logic [31:0] base0;  // taddr
    logic [31:0] base1;  // taddr + split
    logic [1:0]  quarter;
    logic [15:0] alloc;
    logic [15:0] cta;
  } hdr_t;

  // Two buffers: one takes the beats of an instruction (wb_q) while the other's runs go out
  // (rb_q). A buffer is full from its last beat until its status beat is loaded.
  logic [1:0] full_q, full_d;
  logic       wb_q, wb_d, rb_q, rb_d;
  logic [HdrBits-1:0] hdr_q [2];
  hdr_t       hdr_in;
  // hdr: the header of the beats (the forward map does not need the CTA); eh: the header of
  // the buffer being emitted (the allocation was checked with the beats).
  /* verilator lint_off UNUSEDSIGNAL */
  hdr_t       hdr, eh;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [6:0] beat_q, beat_d;  // register index of the next beat

  // The faults (stu_pkg::fault_e, thread t's at FaultBits * t) and fault addresses (at 32t) of
  // each buffer's threads. (Every array here is a plain vector or an unpacked array of them:
  // yosys 0.23 reads no multi-dimensional packed array.)
  localparam int unsigned FaultsBits = NumLanes * FaultBits;
  logic [FaultsBits-1:0]  fault_q [2];
  logic [NumLanes*32-1:0] faddr_q [2];
  logic [FaultsBits-1:0]  fault_d, ef;  // ef: those of the buffer emitted
  logic [NumLanes*32-1:0] faddr_d;
  logic [Cands-1:0]       done_q, done_d;  // candidates visited
  // The fault of thread T of the buffer emitted.
`define STU_TW_EF(T) ef[32'(T)*FaultBits +: FaultBits]

  // Output register (the status beat's faults are copied: their buffer is reused).
  logic        out_valid_q, out_valid_d;
  logic        wvalid_q, wvalid_d;
  tmem_write_t wr_q;
  logic        last_q, last_d;
  logic [FaultsBits-1:0]  ofault_q;
  logic [NumLanes*32-1:0] ofaddr_q;
  logic        load_run, load_status;  // the output register takes a run / the status beat

  logic take, first, advance, emitting;
  assign first    = beat_q == '0;
  assign emitting = full_q[rb_q];  // the read buffer holds an instruction to emit

  // Registers per repetition: 16x128b 2, 16x256b 4, the others 1.
  function automatic logic [7:0] regs_of(tmem_shape_e s, logic [7:0] num);
    logic [7:0] r;
    unique case (s)
      ShapeS16x128b: r = {num[6:0], 1'b0};
      ShapeS16x256b: r = {num[5:0], 2'b00};
      default:       r = num;
    endcase
    regs_of = r;
  endfunction

  // The header of the instruction taking beats: from the ports with beat 0, then its buffer's.
  always_comb begin
    hdr_in.shape   = shape_i;
    hdr_in.regs    = regs_of(shape_i, num_i);
    hdr_in.unpack  = unpack_i;
    hdr_in.base0   = taddr_i;
    hdr_in.base1   = taddr_i + split_i;
    hdr_in.quarter = quarter_i;
    hdr_in.alloc   = alloc_i;
    hdr_in.cta     = cta_i;
    hdr            = first ? hdr_in : hdr_q[wb_q];
  end
  // The buffer being emitted (apart from the ports: the emitter does not depend on the inputs).
  assign eh = hdr_q[rb_q];
  assign ef = fault_q[rb_q];

  ///////////////////////////////////////
  // Forward map: faults of each beat //
  ///////////////////////////////////////

  // Cell offsets of register beat_q of thread t (packed column; .unpack doubles it).
  // cell_*[2t + c]: cell c of thread t.
  logic [4:0]           fw_lane [NumLanes];
  logic [8:0]           fw_col [NumLanes];  // packed column offset (up to 255)
  logic [NumLanes-1:0]  fw_snd;             // .16x32bx2 second access
  logic [FaultBits-1:0] cell_fault [2*NumLanes];
  logic [31:0]          cell_addr [2*NumLanes];
  // Evaluated only while a beat is offered (Verilator runs a block's loops only when its
  // condition holds, so an idle block costs little in a larger design).
  always_comb begin
    logic [4:0]  tt;
    logic [6:0]  j;
    logic [31:0] b;
    logic [16:0] lane;
    logic [16:0] col;
    {tt, j, b, lane, col} = '0;
    fw_snd = '0;
    for (int unsigned t = 0; t < NumLanes; t++) begin
      fw_lane[t]            = '0;
      fw_col[t]             = '0;
      cell_fault[2*t]       = FaultNone;
      cell_fault[2*t+1]     = FaultNone;
      cell_addr[2*t]        = '0;
      cell_addr[2*t+1]      = '0;
    end
    if (in_valid_i) begin
      for (int unsigned t = 0; t < NumLanes; t++) begin
        tt = 5'(t);
        j  = beat_q;
        unique case (hdr.shape)
          ShapeS16x64b: begin  // lane t/4 + 8(t%2), column ((t>>1)&1) + 2j
            fw_lane[t] = {1'b0, tt[0], tt[4:2]};
            fw_col[t]  = {1'b0, j, tt[1]};
          end
          ShapeS16x128b: begin  // 2k+r: lane t/4 + 8r, column t%4 + 4k
            fw_lane[t] = {1'b0, j[0], tt[4:2]};
            fw_col[t]  = {1'b0, j[6:1], tt[1:0]};
          end
          ShapeS16x256b: begin  // 4k+r: lane t/4 + 8(r/2), column 2(t%4) + r%2 + 8k
            fw_lane[t] = {1'b0, j[1], tt[4:2]};
            fw_col[t]  = {1'b0, j[6:2], tt[1:0], j[0]};
          end
          ShapeS16x32bx2: begin  // lane t%16, column j; threads 16..31 from base1
            fw_lane[t] = {1'b0, tt[3:0]};
            fw_col[t]  = {2'b00, j};
            fw_snd[t]  = tt[4];
          end
          default: begin  // 32x32b: lane t, column j
            fw_lane[t] = tt;
            fw_col[t]  = {2'b00, j};
          end
        endcase
        b = fw_snd[t] ? hdr.base1 : hdr.base0;
        for (int unsigned c = 0; c < 2; c++) begin
          lane = {1'b0, b[31:16]} + 17'(fw_lane[t]);
          col  = {1'b0, b[15:0]} + (hdr.unpack ? 17'({fw_col[t], 1'(c)}) : 17'(fw_col[t]));
          cell_addr[2*t+c] = {lane[15:0], col[15:0]};
          if (lane[16:7] != '0 || lane[6:5] != hdr.quarter) begin
            cell_fault[2*t+c] = FaultTmemLaneQuarter;
          end else if (col[16:9] != '0 || !hdr.alloc[col[8:5]]) begin
            cell_fault[2*t+c] = FaultTmemColumnRange;
          end else begin
            cell_fault[2*t+c] = FaultNone;
          end
        end
      end
    end
  end

  // A thread keeps its first fault: the one of an earlier beat, else cell 0, else cell 1.
  always_comb begin
    fault_d = fault_q[wb_q];
    faddr_d = faddr_q[wb_q];
    if (take) begin
      for (int unsigned t = 0; t < NumLanes; t++) begin
        if (first || fault_q[wb_q][t*FaultBits +: FaultBits] == FaultNone) begin
          fault_d[t*FaultBits +: FaultBits] = FaultNone;
          faddr_d[t*32 +: 32]               = '0;
          if (cell_fault[2*t] != FaultNone) begin
            fault_d[t*FaultBits +: FaultBits] = cell_fault[2*t];
            faddr_d[t*32 +: 32]               = cell_addr[2*t];
          end else if (hdr.unpack && cell_fault[2*t+1] != FaultNone) begin
            fault_d[t*FaultBits +: FaultBits] = cell_fault[2*t+1];
            faddr_d[t*32 +: 32]               = cell_addr[2*t+1];
          end
        end
      end
    end
  end

  //////////////////////////
  // The register buffer //
  //////////////////////////

  // Each memory reads the word {buffer, j / 32} of raddr; the gather stage takes from the word
  // read last (held until the memory's next read) the register of the group of 4 threads it
  // needs (s2_grp_q). (grp is unpacked: Verilator 5.006 builds a packed array of generated
  // assignments through a chain of ever wider temporaries.)
  logic [1:0]              raddr [Banks];
  logic                    rd;  // every memory reads (a phase of a run issues)
  logic [2:0]              s2_grp_q;
  logic [GroupBits-1:0]    grp [Banks];
  for (genvar k = 0; k < Banks; k++) begin : g_bank
    logic [WordBits-1:0] word;
    stu_ram_1r1w #(
      .Depth(BankDepth),
      .Width(WordBits)
    ) u_ram (
      .clk_i,
      .we_i   (take && beat_q[4:0] == 5'(k)),
      .waddr_i({wb_q, beat_q[6:5]}),
      .wbe_i  ({(WordBits / 8){1'b1}}),
      .wdata_i(data_i),
      .re_i   (rd),
      .raddr_i({rb_q, raddr[k]}),
      .rdata_o(word)
    );
    assign grp[k] = word[32'(s2_grp_q) * GroupBits +: GroupBits];
  end

  ////////////////////////////////////////
  // Candidate runs and the inverse map //
  ////////////////////////////////////////

  // Footprint of an access in columns: 32x32b and 16x32bx2 one per register, the 16-lane
  // shapes two per register; doubled by .unpack.
  logic [9:0] cols;
  always_comb begin
    cols = (eh.shape == ShapeS32x32b || eh.shape == ShapeS16x32bx2) ?
           {2'b00, eh.regs} : {1'b0, eh.regs, 1'b0};
    if (eh.unpack) cols = {cols[8:0], 1'b0};
  end

  // Lanes (of the quarter) and blocks inside each access's footprint; a lane is a candidate
  // only when one of the threads that write it (inverse map: the lane offset fixes 1, 2 or 4
  // threads) does not fault.
  // [a * NumLanes + l], [a * Blocks + k]: access a's.
  logic [2*NumLanes-1:0] lane_in;
  logic [2*NumLanes-1:0] lane_live;
  logic [2*Blocks-1:0]   blk_in;
  logic [Cands-1:0]         cand, remaining;
  always_comb begin
    logic [31:0] b;
    logic [17:0] lo, hi;     // inclusive ranges
    logic [17:0] abs_lane;
    logic [4:0]  dl;         // the lane offset (when lane_in)
    logic [3:0]  ok;         // the writers of the lane that do not fault
    logic        live;
    {b, lo, hi, abs_lane, dl, ok, live} = '0;
    lane_in   = '0;
    lane_live = '0;
    blk_in    = '0;
    cand      = '0;
    if (emitting) begin  // (see the forward map)
      for (int unsigned a = 0; a < 2; a++) begin
        b = a == 0 ? eh.base0 : eh.base1;
        lo = {2'b00, b[31:16]};
        hi = lo + ((eh.shape == ShapeS32x32b) ? 18'd31 : 18'd15);
        for (int unsigned l = 0; l < NumLanes; l++) begin
          abs_lane   = 18'({eh.quarter, 5'(l)});
          dl         = abs_lane[4:0] - lo[4:0];
          lane_in[a*NumLanes+l] = abs_lane >= lo && abs_lane <= hi &&
                                  (a == 0 || eh.shape == ShapeS16x32bx2);
          for (int unsigned x = 0; x < 4; x++) begin
            ok[x] = `STU_TW_EF({dl[2:0], 2'(x)}) == FaultNone;
          end
          unique case (eh.shape)
            ShapeS16x64b:   live = `STU_TW_EF({dl[2:0], 1'b0, dl[3]}) == FaultNone ||
                                   `STU_TW_EF({dl[2:0], 1'b1, dl[3]}) == FaultNone;
            ShapeS16x128b,
            ShapeS16x256b:  live = |ok;
            ShapeS16x32bx2: live = `STU_TW_EF({1'(a), dl[3:0]}) == FaultNone;
            default:        live = `STU_TW_EF(dl[4:0]) == FaultNone;
          endcase
          lane_live[a*NumLanes+l] = live && lane_in[a*NumLanes+l];
        end
        lo = {2'b00, b[15:0]};
        hi = lo + 18'(cols) - 18'd1;
        for (int unsigned k = 0; k < Blocks; k++) begin
          blk_in[a*Blocks+k] = 18'(32 * k + 31) >= lo && 18'(32 * k) <= hi;
        end
      end
      for (int unsigned l = 0; l < NumLanes; l++) begin
        for (int unsigned k = 0; k < Blocks; k++) begin
          cand[l*Blocks+k] = (lane_live[l] && blk_in[k]) ||
                             (lane_live[NumLanes+l] && blk_in[Blocks+k]);
        end
      end
    end
    remaining = cand & ~done_q;
  end

  // The next candidate: lowest lane, then lowest block.
  logic                any_rem;
  logic [4:0]          sel_lane;
  logic [3:0]          sel_blk;
  logic [NumLanes-1:0] lane_rem;
  always_comb begin
    sel_lane = '0;
    sel_blk  = '0;
    for (int l = NumLanes - 1; l >= 0; l--) begin
      lane_rem[l] = |remaining[l*Blocks +: Blocks];
      if (lane_rem[l]) sel_lane = 5'(l);
    end
    any_rem = |lane_rem;
    for (int k = Blocks - 1; k >= 0; k--) begin
      if (remaining[{sel_lane, 4'(k)}]) sel_blk = 4'(k);
    end
  end

  // The cells of the selected candidate, per access a and column i: whether a writes the cell
  // (inside its footprint, the writer without a fault), the writer's thread t, register j and
  // half (.unpack). All of an access's cells in one run have the same t / 4 (grp).
  // [32a + i]: access a's cell i.
  logic [63:0] wmask;
  logic [4:0]  wt [64];
  logic [6:0]  wj [64];
  logic [63:0] whalf;
  logic [2:0]  wgrp [2];
  always_comb begin
    logic [31:0] b;
    logic [17:0] dl;  // the lane's offset from the access base (in range below the size)
    logic [17:0] dc;  // the column's offset from the access base
    logic [7:0]  pc;  // packed column offset
    logic [4:0]  t;
    logic [6:0]  j;
    {b, dl, dc, pc, t, j} = '0;
    wmask   = '0;
    whalf   = '0;
    wgrp[0] = '0;
    wgrp[1] = '0;
    for (int unsigned n = 0; n < 64; n++) begin
      wt[n] = '0;
      wj[n] = '0;
    end
    if (emitting && any_rem) begin  // (see the forward map)
      for (int unsigned a = 0; a < 2; a++) begin
        b  = a == 0 ? eh.base0 : eh.base1;
        dl = {2'b00, 9'd0, eh.quarter, sel_lane} - {2'b00, b[31:16]};
        for (int unsigned i = 0; i < 32; i++) begin
          dc = {9'd0, sel_blk, 5'(i)} - {2'b00, b[15:0]};
          pc = eh.unpack ? dc[8:1] : dc[7:0];  // in range: below 256
          unique case (eh.shape)
            ShapeS16x64b: begin  // t = 4(dl%8) + 2(pc%2) + dl/8, j = pc/2
              t = {dl[2:0], pc[0], dl[3]};
              j = pc[7:1];
            end
            ShapeS16x128b: begin  // t = 4(dl%8) + pc%4, j = 2(pc/4) + dl/8
              t = {dl[2:0], pc[1:0]};
              j = {pc[7:2], dl[3]};
            end
            ShapeS16x256b: begin  // t = 4(dl%8) + (pc%8)/2, j = 4(pc/8) + 2(dl/8) + pc%2
              t = {dl[2:0], pc[2:1]};
              j = {pc[7:3], dl[3], pc[0]};
            end
            ShapeS16x32bx2: begin  // t = 16a + dl, j = pc
              t = {1'(a), dl[3:0]};
              j = pc[6:0];
            end
            default: begin  // 32x32b: t = dl, j = pc
              t = dl[4:0];
              j = pc[6:0];
            end
          endcase
          wt[32*a+i]    = t;
          wj[32*a+i]    = j;
          whalf[32*a+i] = eh.unpack && dc[0];
          wmask[32*a+i] = lane_in[a*NumLanes+32'(sel_lane)] &&
                          dl < ((eh.shape == ShapeS32x32b) ? 18'd32 : 18'd16) &&
                          dc < 18'(cols) && `STU_TW_EF(t) == FaultNone;
          if (wmask[32*a+i]) wgrp[a] = t[4:2];
        end
      end
    end
  end

  // The phase a run reads: the cells of one access (of the second on a .16x32bx2 run's second
  // phase, ph_q), each memory at the word of the register it holds for them.
  logic ph_q, ph_d;  // the second phase of a run both accesses write
  logic two, acc;    // both accesses write the run; the access this phase reads
  assign two = |wmask[31:0] && |wmask[63:32];
  assign acc = two ? ph_q : |wmask[63:32];
  always_comb begin
    logic [6:0] j;
    j = '0;
    for (int unsigned k = 0; k < Banks; k++) raddr[k] = '0;
    for (int unsigned i = 0; i < 32; i++) begin
      j = wj[{acc, 5'(i)}];
      if (wmask[{acc, 5'(i)}]) raddr[j[4:0]] = j[6:5];
    end
  end

  // The gather stage: the phase read last, its cells' memory, thread within the group of 4
  // (grp), half; the first phase's cells wait in acc_* for the second's.
  logic                 s2_valid_q, s2_valid_d;
  logic                 s2_final_q;  // the run goes out after this phase
  logic                 s2_over_q;   // the second phase: over the first's cells
  logic [4:0]           s2_lane_q;
  logic [3:0]           s2_blk_q;
  logic [31:0]          s2_mask_q, s2_half_q;
  logic [4:0]           s2_bank_q [32];
  logic [1:0]           s2_thr_q [32];
  logic [31:0]          acc_mask_q;
  logic [1023:0]        acc_data_q;
  logic                 s2_take, s1_go, status;

  tmem_write_t run;
  always_comb begin
    logic [31:0] v;
    v            = '0;
    run          = '0;
    run.cta      = eh.cta;
    run.lane     = {9'd0, eh.quarter, s2_lane_q};
    run.col      = {7'd0, s2_blk_q, 5'd0};
    run.unpacked = eh.unpack;
    if (s2_valid_q) begin  // (see the forward map)
      for (int unsigned i = 0; i < 32; i++) begin
        v = grp[s2_bank_q[i]][32'(s2_thr_q[i]) * 32 +: 32];
        if (s2_mask_q[i]) begin
          run.col_mask[i]      = 1'b1;
          run.data[32*i +: 32] = !eh.unpack ? v :
                                 s2_half_q[i] ? {16'd0, v[31:16]} : {16'd0, v[15:0]};
        end else if (s2_over_q && acc_mask_q[i]) begin
          run.col_mask[i]      = 1'b1;
          run.data[32*i +: 32] = acc_data_q[32*i +: 32];
        end
      end
    end
  end

  /////////////
  // Control //
  /////////////

  assign advance    = !out_valid_q || out_ready_i;
  assign in_ready_o = !full_q[wb_q];
  assign take       = in_valid_i && in_ready_o;
  // The gather stage empties (into the output register, or into acc_* on a first phase); the
  // next candidate is visited when it can take a phase; the status beat once all have left.
  assign s2_take = s2_valid_q && (!s2_final_q || advance);
  assign s1_go   = emitting && any_rem && (!s2_valid_q || s2_take);
  assign rd      = s1_go && |wmask;
  assign status  = emitting && !any_rem && !s2_valid_q && advance;

  always_comb begin
    full_d      = full_q;
    wb_d        = wb_q;
    rb_d        = rb_q;
    beat_d      = beat_q;
    done_d      = done_q;
    ph_d        = ph_q;
    s2_valid_d  = s2_valid_q && !s2_take;
    out_valid_d = out_valid_q && !out_ready_i;
    wvalid_d    = wvalid_q;
    last_d      = last_q;
    load_run    = 1'b0;
    load_status = 1'b0;
    if (take) begin
      beat_d = in_last_i ? '0 : beat_q + 7'd1;
      if (in_last_i) begin
        full_d[wb_q] = 1'b1;
        wb_d         = !wb_q;
      end
    end
    if (s1_go) begin  // a run no thread writes is visited and skipped
      if (two && !ph_q) begin
        ph_d = 1'b1;
      end else begin
        ph_d                        = 1'b0;
        done_d[{sel_lane, sel_blk}] = 1'b1;
      end
    end
    if (rd) s2_valid_d = 1'b1;
    if (s2_take && s2_final_q) begin
      out_valid_d = 1'b1;
      wvalid_d    = 1'b1;
      load_run    = 1'b1;
      last_d      = 1'b0;
    end
    if (status) begin
      out_valid_d  = 1'b1;
      wvalid_d     = 1'b0;
      last_d       = 1'b1;
      load_status  = 1'b1;
      done_d       = '0;
      full_d[rb_q] = 1'b0;
      rb_d         = !rb_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q      <= '0;
      wb_q        <= 1'b0;
      rb_q        <= 1'b0;
      beat_q      <= '0;
      done_q      <= '0;
      ph_q        <= 1'b0;
      s2_valid_q  <= 1'b0;
      out_valid_q <= 1'b0;
    end else begin
      full_q      <= full_d;
      wb_q        <= wb_d;
      rb_q        <= rb_d;
      beat_q      <= beat_d;
      done_q      <= done_d;
      ph_q        <= ph_d;
      s2_valid_q  <= s2_valid_d;
      out_valid_q <= out_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take && first) hdr_q[wb_q] <= hdr_in;
    if (take) begin
      fault_q[wb_q] <= fault_d;
      faddr_q[wb_q] <= faddr_d;
    end
    if (rd) begin
      s2_final_q <= !(two && !ph_q);
      s2_over_q  <= two && ph_q;
      s2_lane_q  <= sel_lane;
      s2_blk_q   <= sel_blk;
      s2_grp_q   <= wgrp[acc];
      s2_mask_q  <= acc ? wmask[63:32] : wmask[31:0];
      s2_half_q  <= acc ? whalf[63:32] : whalf[31:0];
      for (int unsigned i = 0; i < 32; i++) begin
        s2_bank_q[i] <= wj[{acc, 5'(i)}][4:0];
        s2_thr_q[i]  <= wt[{acc, 5'(i)}][1:0];
      end
    end
    if (s2_take && !s2_final_q) begin
      acc_mask_q <= run.col_mask;
      acc_data_q <= run.data;
    end
    wvalid_q <= wvalid_d;
    last_q   <= last_d;
    // The wide output registers load only when they change (a copy every cycle would dominate
    // the simulation's cost in the store unit).
    if (load_run) wr_q <= run;
    if (load_status) begin
      ofault_q <= ef;
      ofaddr_q <= faddr_q[rb_q];
    end
  end

  assign out_valid_o   = out_valid_q;
  assign write_valid_o = wvalid_q;
  assign wr_o          = wr_q;
  assign last_o        = last_q;
  assign fault_o       = ofault_q;
  assign fault_addr_o  = ofaddr_q;

  ////////////////
  // Assertions //
  ////////////////

  // Input constraints: the header names a legal .num (a power of two up to 128 / regs_per_rep),
  // and the beats of an instruction are exactly regs_per_rep * num. At the clock edge: the beat
  // counter moves with it while the inputs of the beat taken still show.
  `ASSUME_EDGE(NumLegal_A, $onehot(num_i) && 32'(shape_i) <= 32'(ShapeS16x32bx2) &&
                          (shape_i == ShapeS16x256b ? num_i <= 8'd32 :
                           shape_i == ShapeS16x128b ? num_i <= 8'd64 : num_i <= 8'd128),
               take && first)
  `ASSUME_EDGE(BeatCount_A, in_last_i == (8'(beat_q) + 8'd1 == hdr.regs), take)
`ifndef SYNTHESIS
  // Immediate assertions at the clock edge: Verilator 5.006 cannot $sample a signal wider than
  // 64 bits in a concurrent assertion (its generated code does not compile). The checkers'
  // state is kept out of the mutants (scripts/mutate.py).
  // mutate: off
  logic        stalled_q;
  tmem_write_t wr_prev_q;
  logic        wvalid_prev_q, last_prev_q;
  logic [FaultsBits-1:0]  fault_prev_q;
  logic [NumLanes*32-1:0] faddr_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) stalled_q <= 1'b0;
    else stalled_q <= out_valid_o && !out_ready_i;
  end
  always_ff @(posedge clk_i) begin
    wr_prev_q     <= wr_o;
    wvalid_prev_q <= write_valid_o;
    last_prev_q   <= last_o;
    fault_prev_q  <= fault_o;
    faddr_prev_q  <= fault_addr_o;
  end
  // Every cell a phase reads is in the word its memory reads, and in the group of 4 threads
  // the gather takes (the claim the memories' organisation rests on). Checked at the clock
  // edge of each read, reported the cycle after.
  logic one_read_q = 1'b1;  // (set before the first reset: an immediate assertion watches it)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      one_read_q <= 1'b1;
    end else begin
      one_read_q <= 1'b1;
      if (rd) begin
        for (int unsigned i = 0; i < 32; i++) begin
          if (wmask[{acc, 5'(i)}] &&
              (raddr[wj[{acc, 5'(i)}][4:0]] != wj[{acc, 5'(i)}][6:5] ||
               wt[{acc, 5'(i)}][4:2] != wgrp[acc])) one_read_q <= 1'b0;
        end
      end
    end
  end
  // mutate: on
`endif
  `ASSERT_I(OneReadPerMemory_A, one_read_q)
  // A run always writes a cell, of a lane of the warp's quarter; a beat is a run or the status
  // beat.
  `ASSERT_EDGE(RunNotEmpty_A, write_valid_o ? |wr_o.col_mask && !last_o &&
                                              wr_o.lane[15:5] == {9'd0, eh.quarter}
                                            : last_o, out_valid_o)
  // The output holds while it waits.
  `ASSERT_I(OutStable_A, !(rst_ni && stalled_q) ||
                         (out_valid_o && write_valid_o == wvalid_prev_q &&
                          last_o == last_prev_q && (!write_valid_o || wr_o == wr_prev_q) &&
                          (!last_o || (fault_o == fault_prev_q && fault_addr_o == faddr_prev_q))))
  // Handshakes are known out of reset.
  `ASSERT_KNOWN(InReadyKnown_A, in_ready_o)
  `ASSERT_KNOWN(OutValidKnown_A, out_valid_o)

`undef STU_TW_EF

endmodule
