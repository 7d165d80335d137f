#!/usr/bin/env python3
"""`stu lower` against the SASS ptxas 13.0 really emits (tests/data/sass: a line-info
disassembly, nvdisasm -g, of each corpus module's cubin, made on 2026-11-26).

For each store line of the corpus, the store-family SASS instructions ptxas attributed to that
line (ST*, STS, STL, STG, STAS, STTM, USTGR, MEMBAR, ERRBAR, CGAERRBAR) are compared with the
instructions `stu lower` prints for it, opcode and modifiers (not operands).

  compare_lowering.py STU TARGET [--report FILE] [--known FILE]

Exit 0 when every difference is listed in --known (and every listed one still differs), 1
otherwise; the report lists each line's verdict.
"""
import re
import subprocess
import sys
import pathlib
import argparse

STORE_OPS = re.compile(r"^(ST|STG|STS|STL|STAS|STTM|USTGR|MEMBAR|ERRBAR|CGAERRBAR)(\.|$)")


def sass_by_line(listing):
    """PTX line -> list of store-family opcodes (with modifiers), in address order."""
    out = {}
    line = None
    for text in listing.splitlines():
        m = re.match(r'\s*//## File ".*", line (\d+)', text)
        if m:
            line = int(m.group(1))
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Za-z0-9_.]*)", text)
        if m and line is not None and STORE_OPS.match(m.group(2)):
            out.setdefault(line, []).append(m.group(2))
    return out


def stu_by_line(text):
    out = {}
    line = None
    for t in text.splitlines():
        m = re.match(r"\S+:(\d+): ", t)
        if m:
            line = int(m.group(1))
            out[line] = []
            continue
        if line is not None and t.startswith("    "):
            op = t.split()[0]
            if op.startswith("("):  # (no instruction: ...)
                continue
            out[line].append(op)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stu")
    ap.add_argument("target")
    ap.add_argument("--report")
    ap.add_argument("--known")
    a = ap.parse_args()
    data = pathlib.Path(__file__).resolve().parent.parent / "data" / "sass"
    ptx = data / f"{a.target}.ptx"
    listing = (data / f"{a.target}.nvdisasm.txt").read_text()
    r = subprocess.run([a.stu, "lower", str(ptx)], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print(r.stderr)
        return 2
    sass = sass_by_line(listing)
    stu = stu_by_line(r.stdout)
    src = ptx.read_text().splitlines()
    counts = {"agree": 0, "differ": 0, "not emitted": 0}
    report, differ = [], set()
    for line, ops in sorted(stu.items()):
        if line < 1 or line > len(src) or not src[line - 2].strip().startswith(".loc"):
            continue  # not a corpus case (the preamble's own stores)
        real = sass.get(line, [])
        if not real and not ops:
            verdict = "agree"
        elif not real:
            verdict = "not emitted"
        elif sorted(real) == sorted(ops):
            verdict = "agree"
        else:
            verdict = "differ"
            differ.add(line)
        counts[verdict] += 1
        report.append(f"{line}: {verdict}: {src[line - 1].strip()}\n    ptxas: {' '.join(real) or '-'}\n    stu:   {' '.join(ops) or '-'}")
    if a.report:
        pathlib.Path(a.report).write_text("\n".join(report) + "\n")
    print(f"{a.target}: {counts['agree']} agree, {counts['differ']} differ, "
          f"{counts['not emitted']} not emitted by ptxas (merged or removed by its optimiser)")
    if a.known is None:
        return 0
    known = set()
    for t in pathlib.Path(a.known).read_text().splitlines():
        t = t.split("#")[0].strip()
        if t.startswith(a.target + ":"):
            known.add(int(t.split(":")[1]))
    new, fixed = differ - known, known - differ
    for line in sorted(new):
        print(f"{ptx}:{line}: error: stu lower differs from ptxas: {src[line - 1].strip()}")
    for line in sorted(fixed):
        print(f"{ptx}:{line}: error: listed as a known difference but agrees now")
    return 1 if new or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
