#!/usr/bin/env python3
"""RTL code-coverage report from an lcov .info file written by `verilator_coverage --write-info`.

Prints line coverage per RTL file and in total (a line's points: its statement, or the toggles
of the signal it declares) and every line not hit with its reason from the waiver file. Exit status: 0 when the total line coverage
is at least --min and every line not hit has a reason; 1 otherwise; 2 on bad input.

Waiver file (rtl/coverage_waivers.txt), one per line, `#` comments:
    FILE:LINE[-LINE]  reason          lines by number
    FILE  /REGEX/  reason             every line of FILE whose source matches REGEX
"""
import argparse
import os
import re
import sys
from collections import defaultdict


def read_info(path):
    """{file: {line: hits}} for lines (DA) and {file: [found, hit]} for branches (BRDA)."""
    lines = defaultdict(dict)
    branches = defaultdict(lambda: [0, 0])
    current = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("SF:"):
                current = os.path.relpath(raw[3:])
            elif raw.startswith("DA:") and current:
                num, hits = raw[3:].split(",")[:2]
                lines[current][int(num)] = lines[current].get(int(num), 0) + int(hits)
            elif raw.startswith("BRDA:") and current:
                taken = raw.split(",")[-1]
                branches[current][0] += 1
                if taken not in ("-", "0"):
                    branches[current][1] += 1
            elif raw == "end_of_record":
                current = None
    return lines, branches


def read_waivers(path):
    """[(file, first, last, regex, reason)]"""
    waivers = []
    if not path or not os.path.exists(path):
        return waivers
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
            if not text:
                continue
            m = re.match(r"(\S+?):(\d+)(?:-(\d+))?\s+(.+)$", text)
            if m:
                first = int(m.group(2))
                waivers.append((m.group(1), first, int(m.group(3) or first), None, m.group(4)))
                continue
            m = re.match(r"(\S+)\s+/(.+)/\s+(.+)$", text)
            if m:
                waivers.append((m.group(1), 0, 0, re.compile(m.group(2)), m.group(3)))
                continue
            print(f"{path}:{n}:1: error: expected 'FILE:LINE[-LINE] reason' or "
                  f"'FILE /REGEX/ reason'", file=sys.stderr)
            sys.exit(2)
    return waivers


def reason_for(file, line, source, waivers):
    for wfile, first, last, regex, reason in waivers:
        if os.path.normpath(wfile) != os.path.normpath(file):
            continue
        if regex is not None and regex.search(source):
            return reason
        if regex is None and first <= line <= last:
            return reason
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("info")
    ap.add_argument("--waivers", default="rtl/coverage_waivers.txt")
    ap.add_argument("--min", type=float, default=95.0, help="least total line coverage, percent")
    args = ap.parse_args()
    if not os.path.exists(args.info):
        print(f"coverage_report: cannot read {args.info}", file=sys.stderr)
        return 2
    lines, branches = read_info(args.info)
    waivers = read_waivers(args.waivers)
    total_found = total_hit = 0
    unexplained = []
    missed = []
    # verilator_coverage --write-info gives every point as a line (DA): a statement's line point,
    # or the toggle points of the signal declared on the line.
    print(f"{'file':34} {'lines':>7} {'hit':>7} {'line %':>7}")
    for file in sorted(lines):
        found = len(lines[file])
        hit = sum(1 for c in lines[file].values() if c > 0)
        total_found += found
        total_hit += hit
        print(f"{file:34} {found:7} {hit:7} {100.0 * hit / max(found, 1):6.1f}%")
        try:
            with open(file, encoding="utf-8") as f:
                source = f.read().splitlines()
        except OSError:
            source = []
        for line in sorted(n for n, c in lines[file].items() if c == 0):
            text = source[line - 1].strip() if 0 < line <= len(source) else ""
            reason = reason_for(file, line, text, waivers)
            missed.append((file, line, text, reason))
            if reason is None:
                unexplained.append((file, line, text))
    pct = 100.0 * total_hit / max(total_found, 1)
    print(f"{'total':34} {total_found:7} {total_hit:7} {pct:6.1f}%")
    if missed:
        print(f"\nlines not hit ({len(missed)}):")
        for file, line, text, reason in missed:
            print(f"  {file}:{line}: {text[:60]}")
            print(f"      reason: {reason if reason else 'NONE (add one to the waivers, or a test)'}")
    ok = pct >= args.min and not unexplained
    print(f"\ncoverage: {pct:.1f}% of {total_found} RTL lines hit (at least {args.min:g}% wanted); "
          f"{len(missed)} not hit, {len(unexplained)} without a reason: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
