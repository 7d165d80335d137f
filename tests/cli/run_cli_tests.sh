#!/usr/bin/env bash
# Command-line behaviour of `stu`: exit status (0 ok, 1 finding, 2 usage/I-O), the exact
# gcc-style diagnostics of a file of bad stores, and `stu lower` output.
#   tests/cli/run_cli_tests.sh path/to/stu
set -u
stu=${1:?usage: run_cli_tests.sh path/to/stu}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

expect_status() {  # name, wanted status, command...
  local name=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got == "$want" ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got, want $want"
    sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20
  fi
}

same_file() {  # name, expected file, actual file: counts a pass or prints the difference
  if diff -u "$2" "$3" >"$tmp/diff"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1:"
    head -40 "$tmp/diff"
  fi
}

expect_status "check of real nvcc PTX" 0 "$stu" check "$root/examples/demo/store_tour.sm_100a.ptx"
expect_status "check of bad stores" 1 "$stu" check "$here/bad_stores.ptx"
expect_status "missing file" 2 "$stu" check "$tmp/does-not-exist.ptx"
# An unreadable file among others: the others are still checked, the status says I/O error.
"$stu" check -q "$root/tests/cli/bad_stores.ptx" "$tmp/nope.ptx" "$root/examples/demo/store_tour.sm_100a.ptx" \
  >"$tmp/out" 2>"$tmp/err"
st=$?
if [[ $st == 2 ]] && grep -q "bad_stores.ptx:16:11: error" "$tmp/err" && grep -q "cannot read" "$tmp/err"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL unreadable file among readable ones: exit $st"
fi
expect_status "directory as input" 2 "$stu" check "$tmp"
# -j: the same output on any number of threads, on a module long enough for threads to start
# (thousands of one-line stores, broken ones and warnings among them).
python3 "$root/scripts/gen_big_ptx.py" --stores 3000 --warnings 7 >"$tmp/big.ptx" 2>/dev/null &&
  sed -i '500s/.*/\tst.global.u32 [%rd1, %r1;/; 1500s/.*/\tst.global.u32 [%rd1], %r99;/' "$tmp/big.ptx"
"$stu" check -j 1 "$tmp/big.ptx" >"$tmp/j1.out" 2>"$tmp/j1.err"
st1=$?
for j in 2 3 0; do
  "$stu" check -j $j "$tmp/big.ptx" >"$tmp/jn.out" 2>"$tmp/jn.err"
  stn=$?
  if [[ $st1 == 1 && $stn == 1 ]] && cmp -s "$tmp/j1.out" "$tmp/jn.out" &&
    cmp -s "$tmp/j1.err" "$tmp/jn.err" && grep -q "error" "$tmp/j1.err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu check -j $j differs from -j 1 (exit $st1 / $stn)"
  fi
done
expect_status "bad --jobs" 2 "$stu" check -j many x.ptx
expect_status "no command" 2 "$stu"
expect_status "unknown command" 2 "$stu" frobnicate x.ptx
expect_status "unknown option" 2 "$stu" check --nope x.ptx
expect_status "bad --target" 2 "$stu" check --target sm_7 x.ptx
expect_status "no input files" 2 "$stu" check
expect_status "help" 0 "$stu" help
expect_status "--help" 0 "$stu" --help
# Per-subcommand help and options: an option of another subcommand is an error that names it.
for cmd in check lower conformance run tmem-map; do
  expect_status "stu $cmd --help" 0 "$stu" "$cmd" --help
  if ! grep -q "Usage: stu $cmd" "$tmp/out"; then
    fail=$((fail + 1))
    echo "FAIL stu $cmd --help does not show its usage"
  fi
done
expect_status "stu help run" 0 "$stu" help run
grep -q -- '--junit' "$tmp/out" && ! grep -q -- '--stats' "$tmp/out" && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL stu help run lists run's options only"; }
expect_status "stu help of an unknown command" 2 "$stu" help frobnicate
expect_status "an option of another subcommand" 2 "$stu" check --trace x.ptx
grep -q "option '--trace' does not apply to 'stu check' (it is an option of 'stu run')" "$tmp/err" &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL --trace on check:"; cat "$tmp/err"; }
expect_status "--stats on run" 2 "$stu" run --stats x.sts
grep -q "option '--stats' does not apply to 'stu run' (it is an option of 'stu check'" "$tmp/err" &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL --stats on run:"; cat "$tmp/err"; }
expect_status "a value for a flag" 2 "$stu" check --stats=3 x.ptx
expect_status "bad --max-errors" 2 "$stu" check --max-errors many x.ptx
expect_status "bad --ptx-version" 2 "$stu" check --ptx-version 8 x.ptx
expect_status "binary garbage" 1 "$stu" check /bin/true
expect_status "target override" 1 "$stu" check --target sm_80 "$root/examples/demo/store_tour.sm_100a.ptx"
printf 'ST.E.64 [R2+0x10], R4, P1;\nST.E.64 [R2+0x10], R5;\n' >"$tmp/x.sass"
expect_status "SASS listing with an odd pair" 1 "$stu" check "$tmp/x.sass"
printf 'ST.E.64 [R2+0x10], R4, P1;\n@!P0 ST.U8 [0x40], R1;\n' >"$tmp/ok.sass"
expect_status "SASS listing" 0 "$stu" check "$tmp/ok.sass"

# Every PTX 9.0 directive in a valid place (modules ptxas 13.0 accepts, tests/data/directives):
# no false error from the module reader.
for f in "$root"/tests/data/directives/valid_*.ptx; do
  expect_status "directives: $(basename "$f")" 0 "$stu" check -q "$f"
done

# Misplaced or malformed non-store directives (modules ptxas 13.0 rejects, or warns about):
# line 2 of each records stu's first diagnostic, which must be exactly that.
for f in "$root"/tests/data/directives/bad_*.ptx "$root"/tests/data/directives/warn_*.ptx; do
  want=$(sed -n '2s|^// stu: ||p' "$f")
  status=1
  [[ $(basename "$f") == warn_* ]] && status=0
  expect_status "directives: $(basename "$f")" "$status" "$stu" check -q "$f"
  got=$(sed -n "1s|^$f:||p" "$tmp/err")
  if [[ $got == "$want" ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL directives: $(basename "$f"): got '$got', want '$want'"
  fi
done

# --max-errors cuts the listing and says how many were left out.
"$stu" check -q --max-errors 2 "$here/bad_stores.ptx" 2>"$tmp/cut" >/dev/null
if [[ $(grep -c ': error: ' "$tmp/cut") == 2 ]] && grep -q '12 more errors not shown' "$tmp/cut"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL --max-errors:"
  cat "$tmp/cut"
fi

# Exact diagnostics (file name as given on the command line).
(cd "$here" && "$stu" check -q bad_stores.ptx) 2>"$tmp/diag" >/dev/null
same_file "diagnostics of bad_stores.ptx" "$here/bad_stores.expected" "$tmp/diag"

# stu lower: every store is followed by its SASS; a release store gets a MEMBAR first.
"$stu" lower "$root/examples/demo/store_tour.sm_100a.ptx" >"$tmp/lower" 2>&1
if grep -q 'st.release.gpu.b32' "$tmp/lower" && grep -A1 'st.release.gpu.b32' "$tmp/lower" | grep -q 'MEMBAR.ALL.GPU' &&
   grep -A1 'tcgen05.st.sync.aligned.32x32b.x4.b32' "$tmp/lower" | grep -q STTM &&
   grep -A1 'st.global.v4.f32' "$tmp/lower" | grep -q 'STG.E.128'; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL stu lower output:"
  head -30 "$tmp/lower"
fi

# stu run: .sts directed tests. Exact diagnostics of syntax errors (nothing runs) and of failed
# expectations (the run goes on), the --dump image, and the exit statuses.
compare_run() {  # name, expected-file, run args...
  local name=$1 want=$2
  shift 2
  (cd "$here" && "$stu" run -q "$@") 2>"$tmp/diag" >/dev/null
  same_file "$name" "$here/$want" "$tmp/diag"
}
compare_run "stu run syntax errors" run_syntax.expected run_syntax.sts
compare_run "stu run failed expectations" run_failing.expected run_failing.sts
expect_status "stu run of a syntax error" 1 "$stu" run "$here/run_syntax.sts"
expect_status "stu run of failing expectations" 1 "$stu" run "$here/run_failing.sts"
expect_status "stu run of a passing test" 0 "$stu" run "$root/tests/sts/coalesce_u32.sts"
expect_status "stu run of a missing file" 2 "$stu" run "$tmp/none.sts"
expect_status "stu run --dump without a file" 2 "$stu" run "$here/dump.sts" --dump
expect_status "stu run --dump to a directory" 2 "$stu" run --dump "$tmp" "$here/dump.sts"
(cd "$here" && "$stu" run -q --dump "$tmp/image" dump.sts) >/dev/null 2>&1
same_file "stu run --dump image" "$here/dump.expected.img" "$tmp/image"

# docs/tmem-map.md is generated from the model's one TMEM mapping function: it must be current.
"$stu" tmem-map >"$tmp/tmem-map.md" 2>&1
same_file "docs/tmem-map.md is out of date (regenerate: stu tmem-map > docs/tmem-map.md)" \
  "$root/docs/tmem-map.md" "$tmp/tmem-map.md"
expect_status "tmem-map with a file" 2 "$stu" tmem-map x.ptx

# stu trace: the summary of a trace (expected output checked by hand against the trace's
# lines), the same stores from its .tracez and from the .stut it converts to, and its errors.
(cd "$root" && "$stu" trace tests/data/traces/v4_modes.traceg) >"$tmp/trace.out" 2>&1
same_file "stu trace summary" "$here/trace_v4_modes.expected" "$tmp/trace.out"
(cd "$root" && "$stu" trace tests/data/traces/v4_modes.tracez --to "$tmp/v4.stut") >"$tmp/tracez.out" 2>&1
tail -n +2 "$tmp/trace.out" >"$tmp/trace.body"
grep -v '^  kernel\|^  written to' "$tmp/tracez.out" | tail -n +2 >"$tmp/tracez.body"
grep -v '^  kernel' "$tmp/trace.body" >"$tmp/trace.body2"
same_file "stu trace of the .tracez (as of the .traceg)" "$tmp/trace.body2" "$tmp/tracez.body"
"$stu" trace "$tmp/v4.stut" | tail -n +2 | grep -v '^  kernel' >"$tmp/stut.body"
same_file "stu trace of the .stut it wrote (as of the .traceg)" "$tmp/trace.body2" "$tmp/stut.body"
expect_status "stu trace of a malformed trace" 1 "$stu" trace "$root/tests/data/traces/bad_addr.traceg" --to "$tmp/bad.stut"
if grep -q "bad_addr.traceg:7: error: bad address '0x10g0'" "$tmp/err" && [[ ! -e "$tmp/bad.stut" ]]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL stu trace of a malformed trace: no located error, or a .stut left behind"
fi
expect_status "stu trace of a missing file" 2 "$stu" trace "$tmp/none.traceg"
expect_status "stu trace --to an unwritable place" 2 "$stu" trace "$root/tests/data/traces/v4_modes.traceg" --to "$tmp/no/dir/x.stut"
expect_status "stu trace without a trace" 2 "$stu" trace

# --junit: one test case per file, a failure element for the failing one.
"$stu" run -q --junit "$tmp/junit.xml" "$root/tests/sts/coalesce_u32.sts" "$here/run_failing.sts" >/dev/null 2>&1
if [[ $(grep -c '<testcase ' "$tmp/junit.xml") == 2 ]] && [[ $(grep -c '<failure ' "$tmp/junit.xml") == 1 ]] &&
   grep -q 'tests="2" failures="1"' "$tmp/junit.xml" && grep -q 'run_failing.sts:9:1: expectation failed: lines' "$tmp/junit.xml"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL stu run --junit:"
  head -20 "$tmp/junit.xml"
fi
expect_status "stu run --junit to a directory" 2 "$stu" run --junit "$tmp" "$root/tests/sts/coalesce_u32.sts"

# stu cosim (where the RTL is built): exit statuses, the summary line, the failure report of the
# deliberately broken coalescer with its waveform, --junit, and stu run --on rtl.
if "$stu" help cosim >/dev/null 2>&1; then
  expect_status "stu cosim of a block" 0 "$stu" cosim --block mbarrier --seeds 2 --txns 300
  if grep -qE '^cosim mbarrier: 600 transactions matched \(600 in, 2 seeds from 1, [0-9]+ cycles, ' "$tmp/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim summary line:"
    sed 's/^/  | /' "$tmp/out"
  fi
  expect_status "stu cosim of an unknown block" 2 "$stu" cosim --block nope
  if grep -q "unknown block 'nope' (blocks: sector_mask .* all)" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim unknown block message:"
    sed 's/^/  | /' "$tmp/err"
  fi
  expect_status "stu cosim --wave of several blocks" 2 "$stu" cosim --block all --wave "$tmp/w.fst"
  expect_status "stu cosim --txns 0" 2 "$stu" cosim --block mbarrier --txns 0
  expect_status "stu cosim --stall out of range" 2 "$stu" cosim --block mbarrier --stall 1.5
  expect_status "stu cosim of the broken coalescer" 1 \
    "$stu" cosim -q --block coalescer --variant broken --seed 7 --txns 50 --wave-dir "$tmp" --junit "$tmp/cosim.xml"
  if grep -q "MISMATCH, seed 7" "$tmp/err" && grep -q "reproduce: stu cosim --block coalescer --variant broken --seed 7 --txns 1$" "$tmp/err" &&
     [[ -s "$tmp/cosim_coalescer_broken_seed7.fst" ]] && grep -q 'tests="1" failures="1"' "$tmp/cosim.xml"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim failure report, waveform or junit:"
    sed 's/^/  | /' "$tmp/err" | head -8
  fi
  # The block registry: a copy of the tree agrees; a module or a harness the registry does not
  # list, or a stale docs table, is a finding (exit 1) naming it.
  reg="$tmp/regtree"
  mkdir -p "$reg/rtl" "$reg/docs"
  cp "$root"/rtl/*.sv "$root"/rtl/*.svh "$reg/rtl/"
  cp "$root/docs/adding-a-block.md" "$reg/docs/"
  cp -r "$root/tb" "$reg/tb"
  expect_status "stu blocks --check of the tree" 0 "$stu" blocks --check "$reg"
  touch "$reg/rtl/stu_extra.sv"
  mkdir "$reg/tb/extra"
  sed -i 's/^| `sector_mask` |/| `sector_mask` (edited) |/' "$reg/docs/adding-a-block.md"
  expect_status "stu blocks --check of a drifted tree" 1 "$stu" blocks --check "$reg"
  if grep -q "rtl/blocks.json: error: rtl/stu_extra.sv is in no block of the registry" "$tmp/err" &&
     grep -q "rtl/blocks.json: error: tb/extra/ is the harness of no block of the registry" "$tmp/err" &&
     grep -q "docs/adding-a-block.md: error: the registry table differs" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu blocks --check findings:"
    sed 's/^/  | /' "$tmp/err"
  fi
  expect_status "stu blocks --check of no tree" 2 "$stu" blocks --check "$tmp/nowhere"
  expect_status "stu cosim of the broken coalescer as a block" 2 "$stu" cosim --block coalescer_broken
  expect_status "stu cosim of a block verified through others" 2 "$stu" cosim --block cache_way_select
  if grep -q "it is verified inside l1_wpath, l2_wslice" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim --block cache_way_select message:"
    sed 's/^/  | /' "$tmp/err"
  fi
  expect_status "stu cosim of the sector mask" 0 "$stu" cosim --block sector_mask --txns 2000
  # A regression list run whole and in three shards gives the same cases (docs/verification.md).
  printf 'mbarrier seeds=3 txns=300\nstore_align seeds=2 first=7 txns=300\ncoalescer variant=broken seeds=1 first=7 txns=50\n' > "$tmp/reg.txt"
  expect_status "stu cosim --regression (a failing variant in it)" 1 \
    "$stu" cosim -q --regression "$tmp/reg.txt" --junit "$tmp/whole.xml" --wave-dir "$tmp"
  for i in 0 1 2; do
    "$stu" cosim -q --regression "$tmp/reg.txt" --shard "$i/3" --junit "$tmp/shard$i.xml" --wave-dir "$tmp" >/dev/null 2>&1
  done
  expect_status "stu cosim --merge of three shards" 1 \
    "$stu" cosim --merge "$tmp/shard0.xml" "$tmp/shard1.xml" "$tmp/shard2.xml" --junit "$tmp/merged.xml"
  if grep -q "^cosim merge: 6 cases from 3 reports, 1 failed$" "$tmp/out" &&
     grep -q "^FAILED coalescer:broken seed 7: cosim coalescer:broken: MISMATCH, seed 7" "$tmp/err" &&
     diff <(grep -o '<testcase[^>]*name="[^"]*"' "$tmp/merged.xml" | sed 's/ time="[^"]*"//' | sort) \
          <(grep -o '<testcase[^>]*name="[^"]*"' "$tmp/whole.xml" | sed 's/ time="[^"]*"//' | sort) >/dev/null &&
     [[ $(grep -c '<failure' "$tmp/merged.xml") == 1 ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim shards and merge:"
    sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -12
  fi
  expect_status "stu cosim --shard out of range" 2 "$stu" cosim --regression "$tmp/reg.txt" --shard 3/3
  printf 'mbarrier seeds=0\n' > "$tmp/badreg.txt"
  expect_status "stu cosim --regression with a bad line" 2 "$stu" cosim --regression "$tmp/badreg.txt"
  if grep -q "badreg.txt:1:1: error: 'seeds=0' is not" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL stu cosim --regression diagnostic:"
    sed 's/^/  | /' "$tmp/err"
  fi
  expect_status "stu run --on rtl of a passing test" 0 "$stu" run --on rtl "$root/tests/sts/coalesce_u32.sts"
  # The same test on either model reads the same: failures, and the final memory image.
  compare_run "stu run --on rtl failed expectations (as on golden)" run_failing.expected --on rtl run_failing.sts
  (cd "$here" && "$stu" run -q --on rtl --dump "$tmp/image_rtl" dump.sts) >/dev/null 2>&1
  same_file "stu run --on rtl --dump image (as on golden)" "$here/dump.expected.img" "$tmp/image_rtl"
  expect_status "stu run --on rtl of failing expectations" 1 "$stu" run --on rtl "$here/run_failing.sts"
  expect_status "stu run --on an unknown model" 2 "$stu" run --on nosuchmodel "$root/tests/sts/coalesce_u32.sts"
fi

echo "$pass passed, $fail failed"
((fail == 0))
