# shellcheck shell=bash
# Sourced by rtl/formal/formal.sh and rtl/formal/synth.sh: yosys_src DIR copies the RTL into DIR
# in the form yosys 0.23 reads. Yosys rejects a module's `import stu_pkg::*;`, so the copy of
# stu_pkg.svh loses its `package stu_pkg;` / `endpackage` lines (its declarations become global
# to the compilation unit) and the blocks lose their import line; nothing else changes (the line
# numbers in yosys's messages are the source's).
yosys_src() {
  local dir=$1 f
  mkdir -p "$dir"
  sed -e 's/^package stu_pkg;$//' -e 's/^endpackage$//' rtl/stu_pkg.svh >"$dir/stu_pkg.svh"
  cp rtl/stu_assert.svh "$dir/"
  for f in rtl/stu_*.sv; do
    sed -e 's/^\( *\)import stu_pkg::\*;$//' "$f" >"$dir/${f##*/}"
  done
}
