#!/usr/bin/env bash
# Every C++ source of the project is formatted with the repository's .clang-format
# (skipped, exit 77, where clang-format is not installed).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not found: skipped"; exit 77; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null | grep -v '^tests/data/' ||
  find include src tools tests bench fuzz systemc tb -name '*.cpp' -o -name '*.h' | grep -v '^tests/data/')
bad=$(clang-format --dry-run "${files[@]}" 2>&1 | grep -c 'warning:')
echo "${#files[@]} files checked, $bad formatting differences"
((bad == 0))
