// stu_assert: the assertion macros of the RTL blocks (in the style of lowRISC's prim_assert).
//
// One file, three expansions:
//   - simulation (Verilator, or any SystemVerilog simulator): concurrent SVA, `assert property
//     (@(posedge clk) disable iff (!rst_n) ...) else $error(...)`; a failure sets the Verilated
//     context's gotError() (the harnesses run with fatalOnError(false)). Verilator checks an
//     `assume property` exactly like an `assert property`, so an input constraint stays checked
//     in every simulation.
//   - formal (yosys `read_verilog -formal`, which defines YOSYS and FORMAL): immediate
//     `assert`/`assume` inside `always @(posedge clk)`, with `$past` for the next-cycle forms;
//     yosys 0.23 takes neither `disable iff`, `|->`/`|=>` nor `else $error`.
//   - synthesis (SYNTHESIS defined, or yosys without -formal): nothing, except ASSERT_INIT.
//
// Macros (clk and rst_n default to clk_i and rst_ni; rst_n is active low, and every clocked
// check is off while it is low):
//   ASSERT(name, prop)              prop holds at every clock edge
//   ASSERT_IF(name, prop, en)       en |-> prop
//   ASSERT_NEXT(name, prop, en)     en |=> prop (prop may use $stable/$past)
//   ASSERT_EDGE(name, prop, en)     en |-> prop as an immediate assertion at the clock edge (in an
//                                   always_ff under simulation): for properties over signals
//                                   wider than 64 bits, which Verilator 5.006 cannot sample in a
//                                   concurrent assertion (its generated C++ does not compile)
//   ASSERT_I(name, prop)            immediate, combinational (always_comb): prop holds whenever
//                                   its inputs settle; name the reset in prop if it matters
//   ASSERT_KNOWN(name, sig)         sig is never X/Z out of reset (simulators with four states;
//                                   it documents and lints under two-state Verilator; nothing
//                                   under yosys, whose formal model has no X); at most 64 bits
//   ASSERT_KNOWN_IF(name, sig, en)  the same while en (a payload while its valid is high)
//   ASSERT_INIT(name, prop)         a parameter check at elaboration: a generate `if` that
//                                   stops elaboration with $fatal (in every tool, synthesis too)
//   ASSUME, ASSUME_IF, ASSUME_NEXT, ASSUME_EDGE, ASSUME_I: the same forms for an input
//                                   constraint: an assumption for the prover, an assertion in
//                                   simulation.
// The assertion's name is a label (`Foo_A` for an assertion, `Foo_M` is not used: the names of
// the existing properties are kept) and appears in the failure message with the instance path.
`ifndef STU_ASSERT_SVH
`define STU_ASSERT_SVH

`define ASSERT_DEFAULT_CLK clk_i
`define ASSERT_DEFAULT_RST_N rst_ni

// Parameter legality, at elaboration, in every tool.
`define ASSERT_INIT(__name, __prop) \
  if (!(__prop)) begin : gen_``__name \
    $fatal(1, "parameter check %s failed: %s", `"__name`", `"__prop`"); \
  end

`ifdef YOSYS
`ifdef FORMAL
// ---- yosys read_verilog -formal ------------------------------------------------------------
`define ASSERT(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if (__rst_n) __name: assert (__prop);
`define ASSERT_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && (__en)) __name: assert (__prop);
`define ASSERT_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && (__en)) __name: assert (__prop);
`define ASSERT_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && $past(__rst_n) && $past(__en)) __name: assert (__prop);
`define ASSERT_I(__name, __prop) always @* __name: assert (__prop);
`define ASSERT_KNOWN(__name, __sig, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if (__rst_n) __name: assume (__prop);
`define ASSUME_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && (__en)) __name: assume (__prop);
`define ASSUME_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && (__en)) __name: assume (__prop);
`define ASSUME_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always @(posedge __clk) if ((__rst_n) && $past(__rst_n) && $past(__en)) __name: assume (__prop);
`define ASSUME_I(__name, __prop) always @* __name: assume (__prop);
`else
// ---- yosys synthesis: no checks -------------------------------------------------------------
`define STU_ASSERT_NONE
`endif
`elsif SYNTHESIS
`define STU_ASSERT_NONE
`else
// ---- simulation: concurrent SVA ------------------------------------------------------------
`define ASSERT(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSERT_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__en) |-> (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSERT_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__en) |=> (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSERT_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always_ff @(posedge __clk) begin \
    if ((__rst_n) && (__en)) begin \
      __name: assert (__prop) else $error("%m: %s failed", `"__name`"); \
    end \
  end
`define ASSERT_I(__name, __prop) \
  always_comb begin \
    __name: assert (__prop) else $error("%m: %s failed", `"__name`"); \
  end
`define ASSERT_KNOWN(__name, __sig, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  `ASSERT(__name, !$isunknown(__sig), __clk, __rst_n)
`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  `ASSERT_IF(__name, !$isunknown(__sig), __en, __clk, __rst_n)
`define ASSUME(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assume property (@(posedge __clk) disable iff (!(__rst_n)) (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSUME_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assume property (@(posedge __clk) disable iff (!(__rst_n)) (__en) |-> (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSUME_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  __name: assume property (@(posedge __clk) disable iff (!(__rst_n)) (__en) |=> (__prop)) \
    else $error("%m: %s failed", `"__name`");
`define ASSUME_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N) \
  always_ff @(posedge __clk) begin \
    if ((__rst_n) && (__en)) begin \
      __name: assume (__prop) else $error("%m: %s failed", `"__name`"); \
    end \
  end
`define ASSUME_I(__name, __prop) \
  always_comb begin \
    __name: assume (__prop) else $error("%m: %s failed", `"__name`"); \
  end
`endif

`ifdef STU_ASSERT_NONE
`define ASSERT(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_I(__name, __prop)
`define ASSERT_KNOWN(__name, __sig, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME(__name, __prop, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME_IF(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME_NEXT(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME_EDGE(__name, __prop, __en, __clk = `ASSERT_DEFAULT_CLK, __rst_n = `ASSERT_DEFAULT_RST_N)
`define ASSUME_I(__name, __prop)
`endif

`endif  // STU_ASSERT_SVH
