#!/usr/bin/env bash
# Cross-checks against the installed ptxas (skipped, exit 77, where there is none):
#  1. every checked-in nvcc PTX file is still accepted by ptxas and by `stu check`;
#  2. the directive modules of tests/data/directives likewise;
#  3. a sample of recorded conformance verdicts still holds for this ptxas
#     (each sampled case is assembled alone: the module's preamble plus that line).
#   tests/ptxas/live_ptxas_check.sh path/to/stu [samples-per-file]
set -u
stu=${1:?usage: live_ptxas_check.sh path/to/stu [samples]}
samples=${2:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v ptxas >/dev/null 2>&1; then
  echo "ptxas not found: skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# Both ptxas (-arch=$2, more options after it) and `stu check` accept module $1; $3 names it.
accepted_by_both() {  # file, arch, what, ptxas options...
  local f=$1 arch=$2 what=$3
  shift 3
  if ptxas "$@" -arch="$arch" "$f" -o "$tmp/o.cubin" >/dev/null 2>&1 && "$stu" check -q "$f" 2>/dev/null; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $what: $f"
  fi
}

for f in "$root"/tests/data/nvcc/*.ptx; do
  opt=()
  [[ $f == *_rdc.* ]] && opt=(-c)
  accepted_by_both "$f" "$(sed -n 's/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$f" | head -n 1)" \
    "nvcc file" "${opt[@]}"
done

# Modules that use every PTX 9.0 directive in its valid places (tests/data/directives): ptxas
# still accepts each (with the -arch and -c its first line records) and stu gives no error.
for f in "$root"/tests/data/directives/valid_*.ptx; do
  opt=()
  head -n 1 "$f" | grep -q -- ' -c)' && opt=(-c)
  accepted_by_both "$f" "$(sed -n '1s/.*-arch=\([a-z0-9_]*\).*/\1/p' "$f")" "directive module" "${opt[@]}"
done

# Modules ptxas rejects (bad_*) or accepts with a warning (warn_*): the verdict class on line 1
# still holds.
for f in "$root"/tests/data/directives/bad_*.ptx "$root"/tests/data/directives/warn_*.ptx; do
  arch=$(sed -n '1s/.*-arch=\([a-z0-9_]*\).*/\1/p' "$f")
  out=$(ptxas -c -arch="$arch" "$f" -o "$tmp/o.cubin" 2>&1)
  rc=$?
  want=$(sed -n '1s|^// ptxas: \([a-z]*\):.*|\1|p' "$f")
  if [[ $want == error && $rc != 0 ]] || [[ $want == warning && $rc == 0 && $out == *warning* ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL directive module verdict ($want): $f"
  fi
done

# Sampled conformance cases: deterministic (every k-th case line of each train file).
for f in "$root"/tests/conformance/train/*.ptx; do
  arch=$(sed -n 's/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$f" | head -n 1)
  start=$(grep -n 'case lines follow' "$f" | head -n 1 | cut -d: -f1)
  [[ -n $start ]] || continue
  head -n "$start" "$f" >"$tmp/pre.ptx"
  total=$(grep -c '  // ptxas: ' "$f")
  step=$(( total / samples + 1 ))
  grep -n '  // ptxas: ' "$f" | awk -v s="$step" 'NR % s == 1' | while IFS= read -r hit; do
    line=${hit#*:}
    case $line in *"ptxas crashed"*) continue ;; esac
    body=${line%%  // ptxas: *}
    want=${line##*  // ptxas: }
    { cat "$tmp/pre.ptx"; echo "$body"; echo "ret;"; echo "}"; } >"$tmp/case.ptx"
    if ptxas -arch="$arch" "$tmp/case.ptx" -o /dev/null >/dev/null 2>&1; then got=accept; else got=reject; fi
    case $want in error*) exp=reject ;; *) exp=accept ;; esac
    if [[ $got == "$exp" ]]; then echo pass; else echo "fail $f: $body (recorded: $want, ptxas now: $got)"; fi
  done >"$tmp/res"
  pass=$((pass + $(grep -c '^pass' "$tmp/res")))
  fail=$((fail + $(grep -c '^fail' "$tmp/res")))
  grep '^fail' "$tmp/res" | head -n 5
done

echo "$pass passed, $fail failed"
((fail == 0))
