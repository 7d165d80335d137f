// A fixture for scripts/mutate.py --list: one site of each mutation, and what it must leave
// alone (comments: a == b; declarations, assertions, strings, `macros, non-blocking writes,
// a checker between `mutate: off` and `mutate: on` markers).
module fixture #(
  parameter int unsigned W = 4 - 1
) (
  input  logic         clk_i,
  input  logic [W:0]   a_i,
  output logic [W:0]   q_o
);
  logic [W:0] q_q, d;
  always_comb begin
    d = '0;
    if (a_i == 4'd3 && !a_i[0]) d = a_i + 4'b0001;  /* a block comment: a != b */
    unique case (a_i[1:0])
      2'd0: d = a_i & 4'hf;
      2'd1: ;  // an empty item: nothing for `case` to drop
      default: d = '1;
    endcase
  end
  always_ff @(posedge clk_i) q_q <= (a_i <= d) ? d : a_i;
  `ASSERT(Never_A, q_q == 4'd15)
  `ASSUME_IF(Legal_A, a_i != 4'd9 && (a_i < 4'd12 ||
                      a_i == 4'd13), d == '0)  // a continuation line: not mutated either
  logic chk;
  // mutate: off
  always_comb chk = (a_i == 4'd2) || (q_q != '0);
  // mutate: on
  assign q_o = q_q;
endmodule
