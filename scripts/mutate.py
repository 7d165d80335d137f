#!/usr/bin/env python3
"""Mutation testing of the RTL (docs/verification.md, "Mutation score").

Each mutant is one small change to one RTL file: an operator swapped (== !=, < <=, > >=,
&& ||, & |, + -), a negation dropped (!x), a sized constant changed (1'b0 1'b1, 4'd3 4'd4,
'0 '1), an if-condition inverted, or a case item's statement dropped. For each mutant the
tool rebuilds the models that contain the file in its own build folder (build-mutation/, a
Release configuration whose STU_RTL_MUTANT_MODELS are Verilated from a copy of rtl/ in
build-mutation/mutant-rtl/), runs
the regression of every registered block those models serve (`stu cosim --block B` with the
seeds of tests/regress/mutation.txt, and the block's directed tests, tb_<block>, without the
Long cases) and records the mutant as

    killed     a regression failed (or ran past --timeout, or printed more than 64 MiB:
               a hang or an endless report is a detection too)
    survived   every regression passed: a hole in the stimulus or checks, or an equivalent
               mutant (docs/verification.md lists the equivalent ones with the reason)
    invalid    the mutant does not build (Verilator -Wall, or the C++ compile, rejects it)

  scripts/mutate.py --list [--files F,...] [--rtl-dir D]  the mutants, one a line, no build
  scripts/mutate.py [--files F,...] [--sample N] [--seed S] [--top]
                    [--build-dir DIR] [--report FILE.tsv] [--markdown FILE.md]
  scripts/mutate.py --files F --mutants F:LINE:COL,...   only those mutants (a survivor, again)
  scripts/mutate.py --merge FILE.tsv... [--markdown FILE.md]  one table from reports (runs of
                    other files, or a farm's tasks); a later report's row for a mutant wins;
                    it lists the mutants of the files in the table that no report has run
  scripts/mutate.py --files F --replace F=NETLIST.v   one "mutant": the whole file replaced (a
                    synthesised netlist of it, rtl/formal/gate.sh): "survived" = it passes
  scripts/mutate.py --renumber REV FILE.tsv...  after an edit that moved lines: rows (and the
                    equivalents file's lines) whose source line is unchanged since git revision
                    REV take its new number; rows of changed lines keep theirs and go stale

A survivor listed in the equivalents file (--equivalent, default
tests/regress/mutation-equivalent.txt: `FILE:LINE:COL OP REASON` a line) is counted as
equivalent, not survived: a change no input can observe, with the reason why.

--sample N takes N mutants of each file, drawn with --seed (printed; the same seed gives the
same mutants). Without --top, a mutant runs against the blocks' own models only, and files that
only the store path's models hold (19 MB of C++ a rebuild) are left out; with --top the store
path is rebuilt and the store_unit regression runs too. Exit 0 when every valid mutant was killed, 1
when one survived, 2 on a usage or build-set-up error.
"""
import argparse
import json
import os
import random
import re
import filecmp
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl")
STORE_PATH_MODELS = ("Vstu_store_path", "Vstu_store_path_nocache")

# --- the mutants ---------------------------------------------------------------------------

DECL = re.compile(r"^\s*(input|output|inout|logic|wire|reg|bit|int|integer|genvar|parameter|"
                  r"localparam|typedef|import|module|endmodule|package|endpackage|function|"
                  r"endfunction|struct|enum)\b")
SIZED = re.compile(r"\b(\d+)'([bdh])([0-9a-fA-F_]+)\b")
FILL = re.compile(r"(?<![\w'])'([01])\b")
# a case item with a statement (an item that is only `;` has none to drop)
CASE_ITEM = re.compile(r"^(\s*)(?!default\b)([\w'.{}][\w'.,{} ]*?)\s*:\s*([^:;\s][^;]*;)\s*$")


def code_lines(text):
    """(line number, code) with comments blanked to spaces (columns kept)."""
    out, in_block = [], False
    for n, line in enumerate(text.split("\n"), 1):
        code, i = [], 0
        while i < len(line):
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    code.append(" " * (len(line) - i))
                    i = len(line)
                else:
                    code.append(" " * (end + 2 - i))
                    i, in_block = end + 2, False
                continue
            if line.startswith("//", i):
                code.append(" " * (len(line) - i))
                break
            if line.startswith("/*", i):
                in_block = True
                continue
            if line[i] == '"':  # a string: kept as is, never mutated (below)
                end = line.find('"', i + 1)
                end = len(line) if end < 0 else end + 1
                code.append(line[i:end])
                i = end
                continue
            code.append(line[i])
            i += 1
        out.append((n, "".join(code)))
    return out


def operator_sites(code):
    """(column, original, replacement, operator name) of the swappable operators."""
    sites = []
    depth, seen_eq = 0, False  # parentheses open; an '=' or '?' at depth 0 before here
    i = 0
    while i < len(code):
        two, one = code[i:i + 2], code[i]
        if one == "(":
            depth += 1
        elif one == ")":
            depth -= 1
        three = code[i:i + 3]
        prev = code[i - 1] if i else " "
        if three in ("===", "!==", "<<<", ">>>", "|->", "|=>"):
            i += 3
            continue
        if two in ("==", "!="):
            sites.append((i, two, "!=" if two == "==" else "==", "eq"))
            i += 2
            continue
        if two in ("&&", "||"):
            sites.append((i, two, "||" if two == "&&" else "&&", "logic"))
            i += 2
            continue
        if two in ("<<", ">>", "++", "--", "->", "+:", "-:", "::", "+=", "-=", "|=", "&=", "^="):
            i += 2
            continue
        if two == "<=":
            # at depth 0 before any '=' or '?', `x <= ...` is a non-blocking assignment
            if depth > 0 or seen_eq:
                sites.append((i, "<=", "<", "rel"))
            i += 2
            continue
        if depth == 0 and one in "=?":
            seen_eq = True
        if two == ">=":
            sites.append((i, ">=", ">", "rel"))
            i += 2
            continue
        if one == "<" and prev != "<":
            sites.append((i, "<", "<=", "rel"))
        elif one == ">" and prev not in "-=>":
            sites.append((i, ">", ">=", "rel"))
        elif one == "&":
            sites.append((i, "&", "|", "bit"))
        elif one == "|":
            sites.append((i, "|", "&", "bit"))
        elif one == "+":
            sites.append((i, "+", "-", "arith"))
        elif one == "-" and code[i + 1:i + 2] != ">":
            sites.append((i, "-", "+", "arith"))
        elif one == "!" and code[i + 1:i + 2] != "=":
            sites.append((i, "!", "", "not"))
        i += 1
    return sites


def matching_paren(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def mutants_of(path):
    """Every mutant of one file, in a fixed order: dicts with line, col, op, orig, repl."""
    rel = os.path.relpath(path, ROOT)
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    out = []
    case_depth = 0
    macro_depth = 0  # open parentheses of a macro call (an assertion) that goes on
    checker = False  # between `// mutate: off` and `// mutate: on`: a checker, not design
    for n, code in code_lines(text):
        stripped = code.strip()
        raw = lines[n - 1].strip()
        if raw == "// mutate: off":
            checker = True
        elif raw == "// mutate: on":
            checker = False
        if checker:
            continue
        words = re.findall(r"\b(case|casez|casex|endcase)\b", code)
        opens = sum(1 for w in words if w != "endcase")
        if macro_depth > 0 or stripped.startswith("`"):
            # A macro call's lines, its continuation lines included (`ASSERT_IF(Name, prop,
            # <next line> enable)`): assertions and assumptions are checks, not design.
            macro_depth = max(0, macro_depth + code.count("(") - code.count(")"))
            case_depth += opens - words.count("endcase")
            continue
        if (not stripped or DECL.match(code) or "$" in code
                or "ASSERT" in lines[n - 1] or "ASSUME" in lines[n - 1]):
            case_depth += opens - words.count("endcase")
            continue
        src = lines[n - 1]

        def add(col, orig, repl, op):
            mutated = src[:col] + repl + src[col + len(orig):]
            out.append({"file": rel, "line": n, "col": col + 1, "op": op,
                        "orig": src.strip(), "mutant": mutated.strip(), "text": mutated})

        for col, orig, repl, op in operator_sites(code):
            add(col, orig, repl, op)
        for m in SIZED.finditer(code):
            width, base, digits = int(m.group(1)), m.group(2), m.group(3).replace("_", "")
            try:
                value = int(digits, {"b": 2, "d": 10, "h": 16}[base])
            except ValueError:
                continue  # x/z digits
            new = (value + 1) % (1 << width) if width < 64 else value + 1
            fmt = {"b": lambda v: format(v, "b"), "d": str, "h": lambda v: format(v, "x")}[base]
            add(m.start(), m.group(0), "%d'%s%s" % (width, base, fmt(new)), "const")
        for m in FILL.finditer(code):
            add(m.start(), m.group(0), "'1" if m.group(1) == "0" else "'0", "const")
        for m in re.finditer(r"\bif\s*\(", code):
            open_at = m.end() - 1
            close = matching_paren(code, open_at)
            if close > open_at:
                cond = src[open_at + 1:close]
                add(open_at, src[open_at:close + 1], "(!(" + cond + "))", "cond")
        if case_depth > 0:
            m = CASE_ITEM.match(code)
            if m and "?" not in m.group(2) and "begin" not in m.group(3):
                start = m.start(3)
                add(start, src[start:start + len(m.group(3))], ";", "case")
        case_depth += opens - words.count("endcase")
    return out


# --- which models and blocks a file reaches ------------------------------------------------

def registry():
    with open(os.path.join(RTL, "blocks.json")) as f:
        return json.load(f)["blocks"]


def instantiation_graph():
    """module -> the stu_ modules its file instantiates."""
    graph = {}
    for name in os.listdir(RTL):
        if not name.endswith(".sv"):
            continue
        with open(os.path.join(RTL, name)) as f:
            code = "\n".join(c for _, c in code_lines(f.read()))
        mod = name[:-3]
        graph[mod] = {m for m in re.findall(r"^\s*(stu_\w+)\s*(?:#|\w+\s*\()", code, re.M)
                      if m != mod}
    return graph


def models_of_block(b):
    """(model class, top module) of a block's own models (its variants left out)."""
    return [(e.get("prefix", "V" + b["module"]), b["module"]) for e in b.get("verilate", [])]


def reach(module, graph, blocks):
    """The models (class names) whose top contains `module`, and the cosim blocks they serve."""
    def contains(top, seen=()):
        return top == module or any(contains(c, seen + (top,))
                                    for c in graph.get(top, ()) if c not in seen)
    models = []
    for b in blocks:
        for cls, top in models_of_block(b):
            if contains(top):
                models.append(cls)
    served = []
    for b in blocks:
        if not b.get("cosim"):
            continue
        own = [cls for cls, _ in models_of_block(b)]
        if b["name"] == "store_unit":  # its bench drives the store path (tb/store_unit)
            own = list(STORE_PATH_MODELS)
        if any(m in models for m in own):
            served.append(b["name"])
    return models, served


# --- running -------------------------------------------------------------------------------

OUTPUT_LIMIT = 64 << 20  # bytes a command may print before it is stopped


def run(cmd, timeout, log):
    """Runs cmd; its return code, "timeout" past timeout seconds, or "flood" once it has
    printed more than OUTPUT_LIMIT bytes (a mutant can make a bench report the same error
    every cycle). The output goes to a file, never to this process's memory; the log keeps
    its tail."""
    t0 = time.time()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        rc = None
        while rc is None:
            try:
                rc = p.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                if time.time() - t0 > timeout:
                    rc = "timeout"
                elif os.fstat(out.fileno()).st_size > OUTPUT_LIMIT:
                    rc = "flood"
                if rc is not None:
                    p.kill()
                    p.wait()
        size = os.fstat(out.fileno()).st_size
        out.seek(max(0, size - 20000))
        tail = out.read().decode(errors="replace")
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n" + tail + "\n[rc %s, %d bytes, %.1f s]\n"
                % (rc, size, time.time() - t0))
    return rc


def regression_of(path):
    """block -> (seeds, txns) from tests/regress/mutation.txt."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].split()
            if not line:
                continue
            kv = dict(w.split("=", 1) for w in line[1:])
            out[line[0]] = (kv.get("seeds", "4"), kv.get("txns", "5000"))
    return out


def sync_tree(src, dst):
    """Make dst a copy of src, rewriting only the files that differ (the others keep their
    times, so that the models built from them stay up to date)."""
    want = set()
    for d, _, names in os.walk(src):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), src)
            want.add(rel)
            s, t = os.path.join(src, rel), os.path.join(dst, rel)
            if not os.path.isfile(t) or not filecmp.cmp(s, t, shallow=False):
                os.makedirs(os.path.dirname(t), exist_ok=True)
                shutil.copy(s, t)
    for d, _, names in os.walk(dst):
        for n in names:
            if os.path.relpath(os.path.join(d, n), dst) not in want:
                os.remove(os.path.join(d, n))


def configure(build, mutant_rtl, snapshot, models, log):
    cmd = ["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
           "-DSTU_RTL_MUTANT_DIR=" + mutant_rtl, "-DSTU_RTL_MUTANT_MODELS=" + ";".join(models),
           "-DSTU_RTL_SNAPSHOT_DIR=" + snapshot,
           # The store path's models compile file by file at -O1 (cmake/StuVerilator.cmake):
           # half the time of a unity build at -O3 for each of its mutants.
           "-DSTU_RTL_MUTANT_QUICK=" + ("ON" if set(models) & set(STORE_PATH_MODELS) else "OFF")]
    # Verilator rewrites every file of a model; those a mutant leaves unchanged are then
    # compiled again unless a compiler cache answers them.
    cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + (shutil.which("ccache") or ""))
    return run(cmd, 1800, log) == 0


def targets_for(blocks):
    return ["stu"] + ["tb_" + b for b in blocks]


def check(build, blocks, regress, timeout, log, skip="*Long*"):
    """'killed' on the first failing regression, else 'survived'. skip: the directed tests
    left out (a gtest negative pattern)."""
    stu = os.path.join(build, "stu")
    for b in blocks:
        seeds, txns = regress.get(b, ("4", "5000"))
        rc = run([stu, "cosim", "--block", b, "--seeds", seeds, "--txns", txns, "--seed", "1"],
                 timeout, log)
        if rc != 0:
            return "killed"
        tb = os.path.join(build, "tb", "tb_" + b)
        if os.path.exists(tb):
            rc = run([tb, "--gtest_filter=-" + skip, "--gtest_brief=1"], timeout, log)
            if rc != 0:
                return "killed"
    return "survived"


def main():
    global RTL
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", help="rtl files (names or paths), comma-separated")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--rtl-dir", default=None, help="--list: the files' folder (default rtl/)")
    ap.add_argument("--sample", type=int, default=0, help="mutants a file (0: all)")
    ap.add_argument("--mutants", default=None, metavar="FILE:LINE:COL,...",
                    help="only these mutants (rerun survivors after a new test)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--top", action="store_true", help="also files only the store path holds")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--regression", default=os.path.join(ROOT, "tests/regress/mutation.txt"))
    ap.add_argument("--timeout", type=int, default=600, help="seconds a regression run may take")
    ap.add_argument("--report", default=None, help="TSV of every mutant (default BUILD/mutation.tsv)")
    ap.add_argument("--markdown", default=None, help="the per-file table as Markdown")
    ap.add_argument("--merge", nargs="+", default=None, metavar="TSV",
                    help="make the table from these reports (no build)")
    ap.add_argument("--replace", default=None, metavar="FILE=PATH",
                    help="run the regression with FILE replaced by PATH's text (a netlist)")
    ap.add_argument("--renumber", default=None, metavar="REV",
                    help="renumber the --merge reports' rows from the files at git revision REV")
    ap.add_argument("--equivalent", default=os.path.join(ROOT, "tests/regress/mutation-equivalent.txt"),
                    help="the survivors known to be equivalent mutants, with the reason")
    a = ap.parse_args()

    try:
        equivalent = read_equivalent(a.equivalent)
    except ValueError as e:
        print("mutate.py: error: %s" % e, file=sys.stderr)
        return 2
    if a.renumber:
        if not a.merge:
            print("mutate.py: error: --renumber takes the reports as --merge FILE.tsv...",
                  file=sys.stderr)
            return 2
        return renumber(a.renumber, a.merge, a.equivalent)
    if a.merge:
        # A row counts when the tool still makes its mutant (same line, column, operator and
        # text); among those, a later report's row for a mutant replaces an earlier one.
        rows, stale, current = {}, 0, {}
        for path in a.merge:
            try:
                report = read_report(path)
            except (OSError, ValueError) as e:
                print("mutate.py: error: %s" % e, file=sys.stderr)
                return 2
            for m in report:
                f = os.path.basename(m["file"])
                if f not in current:  # the file's mutants as the tool makes them now (if any)
                    rtl_path = os.path.join(RTL, f)
                    current[f] = ({(x["line"], x["col"], x["op"], x["mutant"])
                                   for x in mutants_of(rtl_path)}
                                  if os.path.exists(rtl_path) else None)
                if current[f] is None or (m["line"], m["col"], m["op"], m["mutant"]) in current[f]:
                    rows[(f, m["line"], m["col"], m["op"])] = m
                else:
                    stale += 1
        kept = list(rows.values())
        if stale:
            print("mutate.py: %d rows left out: mutants the tool no longer makes (their line "
                  "changed, or an assertion's)" % stale)
        have = {(os.path.basename(m["file"]), m["line"], m["col"], m["op"]) for m in kept}
        # Every file a report names (even one whose rows all went stale) must be run again.
        not_run = [m for f in sorted(current)
                   if current.get(f) is not None for m in mutants_of(os.path.join(RTL, f))
                   if (f, m["line"], m["col"], m["op"]) not in have]
        if not_run:
            print("mutate.py: %d mutants of these files are in no report (run them with "
                  "--mutants):" % len(not_run))
            print(",".join("%s:%d:%d" % (os.path.basename(m["file"]), m["line"], m["col"])
                           for m in not_run))
        status = finish(kept, equivalent, a.markdown, None, None)
        return status if status or not not_run else 1

    if a.rtl_dir:
        if not a.list:
            print("mutate.py: error: --rtl-dir is for --list only", file=sys.stderr)
            return 2
        RTL = os.path.abspath(a.rtl_dir)
    files = sorted(f for f in os.listdir(RTL) if f.endswith(".sv"))
    if a.files:
        want = [os.path.basename(f) for f in a.files.split(",")]
        unknown = [f for f in want if f not in files]
        if unknown:
            print("mutate.py: error: no rtl file %s" % ", ".join(unknown), file=sys.stderr)
            return 2
        files = want
    blocks = registry() if not a.rtl_dir else []
    graph = instantiation_graph()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 31)

    pick = set()
    if a.mutants:  # FILE:LINE:COL, FILE with or without rtl/
        pick = {(os.path.basename(p[0]),) + tuple(p[1:])
                for p in (x.rsplit(":", 2) for x in a.mutants.split(","))}
        outside = sorted(p[0] for p in pick if p[0] not in files)
        if outside:
            print("mutate.py: error: --mutants names %s, not among the files run" %
                  ", ".join(outside), file=sys.stderr)
            return 2
    plan = []  # (file, mutants, models, served blocks)
    for f in files:
        mod = f[:-3]
        models, served = reach(mod, graph, blocks)
        muts = mutants_of(os.path.join(RTL, f))
        if a.mutants:
            muts = [m for m in muts if (f, str(m["line"]), str(m["col"])) in pick]
            missing = sorted(p for p in pick if p[0] == f and not any(
                (str(m["line"]), str(m["col"])) == p[1:] for m in muts))
            if missing:
                print("mutate.py: error: no mutant at %s" % ", ".join(":".join(p) for p in missing),
                      file=sys.stderr)
                return 2
        if a.replace:
            name, _, path = a.replace.partition("=")
            if os.path.basename(name) != f:
                continue
            try:
                with open(path) as fh:
                    whole = fh.read()
            except OSError as e:
                print("mutate.py: error: %s" % e, file=sys.stderr)
                return 2
            muts = [{"file": os.path.relpath(os.path.join(RTL, f), ROOT), "line": 0, "col": 0,
                     "op": "replace", "orig": f, "mutant": path, "whole": whole}]
        if a.sample and len(muts) > a.sample:
            muts = sorted(random.Random("%d:%s" % (seed, f)).sample(muts, a.sample),
                          key=lambda m: (m["line"], m["col"]))
        if not a.top:  # the block models alone; the store path's only with --top
            models = [m for m in models if m not in STORE_PATH_MODELS]
            served = [b for b in served if b != "store_unit"]
        plan.append((f, muts, models, served))

    if a.list:
        try:
            for f, muts, models, served in plan:
                for m in muts:
                    print("%s:%d:%d: %s: %s" % (m["file"], m["line"], m["col"], m["op"],
                                                m["mutant"]))
        except BrokenPipeError:  # `| head`: the reader has what it wanted
            sys.stderr.close()
        return 0

    print("mutate.py: seed %d (--seed %d reproduces the sample)" % (seed, seed), flush=True)
    build = os.path.abspath(a.build_dir)
    os.makedirs(build, exist_ok=True)
    log = os.path.join(build, "mutation.log")
    report = a.report or os.path.join(build, "mutation.tsv")
    mutant_rtl = os.path.join(build, "mutant-rtl")  # not build/rtl: CMake's own folder there
    # rtl/ as the run starts: every model is built from it (the mutated file's from a copy), so
    # editing rtl/ during a long run changes none of the run's models.
    snapshot = os.path.join(build, "rtl-snapshot")
    sync_tree(RTL, snapshot)
    regress = regression_of(a.regression)
    rows = []
    with open(report, "w") as out:  # a row a mutant as it finishes: a cut-short run keeps them
        out.write("# stu mutation report, seed %d\nfile\tline\tcol\top\tstatus\tseconds\t"
                  "original\tmutant\n" % seed)
    for f, muts, models, served in plan:
        if not served or not muts:
            print("%s: left out: %s" % (f, "no mutant" if not muts else
                                         "only the store path holds it (--top)" if not a.top
                                         else "no registered cosim block holds it"))
            continue
        if os.path.exists(mutant_rtl):
            shutil.rmtree(mutant_rtl)
        # Plain copies, stamped now: copy2's old times would leave a model built from the last
        # run's last mutant looking up to date, and the baseline would test that mutant.
        shutil.copytree(snapshot, mutant_rtl, copy_function=shutil.copy)
        if not configure(build, mutant_rtl, snapshot, models, log):
            print("mutate.py: error: configuring %s failed (%s)" % (build, log), file=sys.stderr)
            return 2
        target = os.path.join(mutant_rtl, f)
        with open(target) as fh:
            pristine = fh.read()
        tgts = targets_for(served)
        if run(["cmake", "--build", build, "--target"] + tgts, 3600, log) != 0 or \
                check(build, served, regress, a.timeout, log) != "survived":
            print("mutate.py: error: the unmutated %s does not pass (%s)" % (f, log),
                  file=sys.stderr)
            return 2
        print("%s: %d mutants; models %s; blocks %s" % (f, len(muts), " ".join(models),
                                                       " ".join(served)), flush=True)
        for m in muts:
            t0 = time.time()
            lines = pristine.split("\n")
            if "whole" in m:
                lines = [m["whole"]]
            else:
                lines[m["line"] - 1] = m["text"]
            with open(target, "w") as fh:
                fh.write("\n".join(lines))
            if run(["cmake", "--build", build, "--target"] + tgts, 3600, log) != 0:
                status = "invalid"
            elif "whole" in m:  # a netlist: no assertions, so not the tests that one fires
                status = check(build, served, regress, a.timeout, log, "*Long*:*Assertion*")
            else:
                status = check(build, served, regress, a.timeout, log)
            m["status"], m["seconds"] = status, time.time() - t0
            rows.append(m)
            with open(report, "a") as out:
                out.write("%s\t%d\t%d\t%s\t%s\t%.0f\t%s\t%s\n" % (
                    m["file"], m["line"], m["col"], m["op"], m["status"], m["seconds"],
                    m["orig"], m["mutant"]))
            print("  %s:%d:%d %-6s %-8s %s" % (f, m["line"], m["col"], m["op"], status,
                                              m["mutant"][:90]), flush=True)
            with open(target, "w") as fh:
                fh.write(pristine)

    return finish(rows, equivalent, a.markdown, report, log)


def read_equivalent(path):
    """{(file, line, col, op): reason} from the equivalents file (absent: none)."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\S+\.sv):(\d+):(\d+)\s+(\w+)\s+(\S.*)$", line)
            if not m:
                raise ValueError("%s:%d: expected 'FILE.sv:LINE:COL OP REASON'" % (path, n))
            out[(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4))] = m.group(5)
    return out


def line_map(rev, f):
    """{old line: new line} for the lines of rtl/f unchanged since git revision rev."""
    old = subprocess.run(["git", "-C", ROOT, "show", "%s:rtl/%s" % (rev, f)], capture_output=True,
                         text=True)
    if old.returncode != 0:
        return None
    with open(os.path.join(RTL, f)) as fh:
        return line_map_texts(old.stdout, fh.read())


def line_map_texts(old, new):
    """{old line: new line} for the lines a diff of the two texts keeps unchanged."""
    import difflib
    out = {}
    sm = difflib.SequenceMatcher(None, old.split("\n"), new.split("\n"), autojunk=False)
    for tag, i1, i2, j1, _ in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                out[i1 + k + 1] = j1 + k + 1
    return out


def renumber(rev, reports, equivalent_path):
    """Rewrites the reports' and the equivalents file's line numbers for unchanged lines."""
    maps = {}

    def new_line(f, n):
        if f not in maps:
            maps[f] = line_map(rev, f)
        m = maps[f]
        return None if m is None else m.get(n)

    moved = stale = 0
    for path in reports + [equivalent_path]:
        with open(path) as fh:
            lines = fh.read().split("\n")
        out = []
        for raw in lines:
            if path == equivalent_path:
                m = re.match(r"^(\S+\.sv):(\d+):(.*)$", raw)
                f, n, rest = (m.group(1), int(m.group(2)), ":" + m.group(3)) if m else (None,) * 3
            else:
                cells = raw.split("\t")
                ok = len(cells) == 8 and cells[1].isdigit()
                f, n, rest = (os.path.basename(cells[0]), int(cells[1]), None) if ok else (None,) * 3
            if f is None:
                out.append(raw)
                continue
            k = new_line(f, n)
            if k is None:
                stale += 1
            elif k != n:
                moved += 1
                raw = ("%s:%d%s" % (f, k, rest) if path == equivalent_path
                       else "\t".join([cells[0], str(k)] + cells[2:]))
            out.append(raw)
        with open(path, "w") as fh:
            fh.write("\n".join(out))
    print("mutate.py: %d rows renumbered; %d rows on lines changed since %s (stale: rerun those "
          "mutants)" % (moved, stale, rev))
    return 0


def read_report(path):
    """The mutants of a TSV report (as written above)."""
    rows = []
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            if raw.startswith("#") or raw.startswith("file\t") or not raw.strip():
                continue
            f = raw.rstrip("\n").split("\t")
            if len(f) != 8 or f[4] not in ("killed", "survived", "invalid"):
                raise ValueError("%s:%d: not a mutation report row" % (path, n))
            rows.append({"file": f[0], "line": int(f[1]), "col": int(f[2]), "op": f[3],
                         "status": f[4], "seconds": float(f[5]), "orig": f[6], "mutant": f[7]})
    return rows


def finish(rows, equivalent, markdown, report, log):
    """Prints the per-file table (and writes it as Markdown); 1 when a survivor is unexplained."""
    states = ("invalid", "killed", "equivalent", "survived")
    for m in rows:
        m["file"] = os.path.basename(m["file"])  # reports name rtl/FILE.sv
        key = (m["file"], m["line"], m["col"], m["op"])
        if m["status"] == "survived" and key in equivalent:
            m["status"], m["reason"] = "equivalent", equivalent[key]
    table = ["| file | mutants | invalid | killed | equivalent | survived | killed of the others |",
             "|---|---|---|---|---|---|---|"]
    total = dict.fromkeys(states, 0)
    for f in sorted({m["file"] for m in rows}):
        c = dict.fromkeys(states, 0)
        for m in rows:
            if m["file"] == f:
                c[m["status"]] += 1
        for k in c:
            total[k] += c[k]
        left = c["killed"] + c["survived"]
        table.append("| `%s` | %d | %d | %d | %d | %d | %s |" % (
            f, sum(c.values()), c["invalid"], c["killed"], c["equivalent"], c["survived"],
            "%.0f %%" % (100.0 * c["killed"] / left) if left else "-"))
    left = total["killed"] + total["survived"]
    table.append("| all | %d | %d | %d | %d | %d | %s |" % (
        sum(total.values()), total["invalid"], total["killed"], total["equivalent"],
        total["survived"], "%.1f %%" % (100.0 * total["killed"] / left) if left else "-"))
    print("\n".join(table))
    for m in sorted(rows, key=lambda m: (m["file"], m["line"], m["col"])):
        if m["status"] == "survived":
            print("survived: %s:%d:%d %s: %s" % (m["file"], m["line"], m["col"], m["op"],
                                                 m["mutant"].strip()))
    if markdown:
        with open(markdown, "w") as out:
            out.write("\n".join(table) + "\n")
    if report:
        print("report: %s; log: %s" % (report, log))
    return 1 if total["survived"] else 0


if __name__ == "__main__":
    sys.exit(main())
