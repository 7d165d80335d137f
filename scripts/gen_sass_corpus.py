#!/usr/bin/env python3
"""Build the SASS corpus: every store form ptxas accepts in the conformance corpora, one module
per target, each store in a kernel of its own and preceded by a .loc naming its own line, so that a line-info disassembly
(nvdisasm -g) names the PTX line of every SASS instruction. The listing is recorded beside it
(tests/data/sass/README.md) and `stu lower` is checked against it.

  scripts/gen_sass_corpus.py --out tests/data/sass
"""
import argparse
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGETS = {"sm_90a": "sm_90a-ptx88.ptx", "sm_100a": "sm_100a-ptx90.ptx"}


def read_corpus(name):
    preamble, cases = [], []
    for corpus in ("train", "heldout", "heldout8"):
        path = ROOT / "tests" / "conformance" / corpus / name
        in_cases = False
        for line in path.read_text().splitlines():
            in_cases = in_cases or "  // ptxas: " in line
            if not in_cases:
                if corpus == "train" and not line.startswith("//") and "// case lines follow" not in line:
                    preamble.append(line)
            elif "  // ptxas: ok" in line:
                case = line.split("  // ptxas: ")[0].strip()
                if case not in cases:
                    cases.append(case)
    return preamble, cases


LOAD = {"pred": None, "b8": "u8", "u8": "u8", "s8": "s8", "b16": "b16", "u16": "u16",
        "s16": "s16", "f16": "b16", "f16x2": "b32", "b32": "b32", "u32": "u32", "s32": "s32",
        "f32": "f32", "b64": "b64", "u64": "u64", "s64": "s64", "f64": "f64", "b128": "b128"}


def split_preamble(preamble):
    """(module-level lines, kernel header through its set-up code). Every register the kernel
    declares is loaded from global memory first: ptxas may drop a store of an undefined value,
    and constant values would let it fold the store."""
    at = next(i for i, p in enumerate(preamble) if p.startswith(".visible .entry"))
    kernel = preamble[at:]
    first_code = next(i for i, p in enumerate(kernel) if p.strip().startswith("ld.param"))
    init = ["\t.reg .b64 %ib;", "\t.reg .b32 %iw;", "\tld.param.u64 %ib, [p];",
            "\tld.global.u32 %iw, [%ib];"]
    off = 16
    for p in kernel[:first_code]:
        m = re.match(r"\s*\.reg \.(\w+) (%\w+)<(\d+)>;", p)
        if not m:
            continue
        ty, name, n = m.group(1), m.group(2), int(m.group(3))
        for i in range(n):
            if LOAD[ty] is None:
                init.append(f"\tsetp.ne.u32 {name}{i}, %iw, {i};")
            else:
                init.append(f"\tld.global.{LOAD[ty]} {name}{i}, [%ib+{off}];")
                off += 16
    return preamble[:at], kernel[:first_code] + init + kernel[first_code:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for target, name in TARGETS.items():
        preamble, cases = read_corpus(name)
        module, kernel = split_preamble(preamble)
        lines = [f"// stu SASS corpus for {target}: the store forms ptxas 13.0 accepts in",
                 f"// tests/conformance/*/{name}, each in a kernel of its own (so that ptxas",
                 "// cannot merge or drop it against another), after a .loc naming its line.",
                 "// generator: scripts/gen_sass_corpus.py"]
        # .file must precede the kernels; put it after .address_size.
        for p in module:
            lines.append(p)
            if p.startswith(".address_size"):
                lines.append(f'.file 1 "{target}.ptx"')
        for k, case in enumerate(cases):
            lines.append(kernel[0].replace(".entry k(", f".entry k{k}(", 1))
            lines += kernel[1:]
            lines.append(f"\t.loc 1 {len(lines) + 2} 0")
            lines.append("\t" + case)
            lines += ["\tret;", "}"]
        (out / f"{target}.ptx").write_text("\n".join(lines) + "\n")
        print(f"{target}: {len(cases)} stores")


if __name__ == "__main__":
    main()
