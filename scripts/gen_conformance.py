#!/usr/bin/env python3
"""Generate the ptxas conformance corpus for stu's store-family checker.

For every (target, PTX version) group this writes one complete PTX module,
DIR/<target>-ptx<MAJ><MIN>.ptx, whose kernel body holds the generated case
lines, one instruction per line, each followed by ptxas's verdict:

    <instruction>  // ptxas: ok
    <instruction>  // ptxas: error: <first ptxas error message for the case>
    <instruction>  // ptxas: warning: <first ptxas warning message for the case>

Verdicts come from `ptxas -arch=<target> -o /dev/null` (CUDA 13.0) and mean
"what ptxas says about a module made of the fixed preamble plus this one case".
They are found in batches (many cases per ptxas run) and checked: see
`decide_group` for the procedure and `--validate` for the per-case cross-check.

Usage:
  python3 scripts/gen_conformance.py --seed 1 --count-per-group 600 \\
      --out tests/conformance/train [--groups sm_90-ptx80 ...] [--jobs 2] \\
      [--validate N|all] [--mode batch|percase] [--exclude-corpus DIR]
  python3 scripts/gen_conformance.py --verify tests/conformance/train [--jobs 2]

See tests/conformance/README.md for the corpus format and what ptxas does.
The issue-8 families (kinds `i8.*`: constant expressions, st.async without [mbar] or scope,
.cluster with other spaces, repeated qualifiers, float immediates, addend sources, st.bulk)
are about 9 % of the cases.

Only the standard library is used. Output is deterministic for a given seed,
count and group list (and ptxas version); --jobs, --mode and --validate do not
change the files unless batching and per-case runs disagree.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

# --------------------------------------------------------------------------
# Groups: (target, PTX version). Every pair was checked to accept an empty
# kernel with ptxas 13.0 (sm_70 and sm_101a are gone from ptxas 13.0: sm_75 is
# the oldest target, sm_101a became sm_110a). The generator re-checks the
# preamble of each group and drops a group whose preamble is rejected.
# Versions just below a feature's gate are included on purpose:
#   7.0 < 7.4 (L1 eviction, cache_hint), 7.4 < 7.8 (::cta/::cluster, .cluster),
#   8.0 < 8.1 (st.async), 8.1 < 8.2 (.mmio), 8.2 < 8.3 (.b128, ::func),
#   8.3 < 8.4 (.b128 + .sys), 8.6 < 8.7 (st.async release form),
#   8.7 < 8.8 (.v8.b32/.v4.b64, L2 eviction, sm_100f).
GROUPS = [
    ("sm_75", (6, 3)), ("sm_75", (7, 4)), ("sm_75", (8, 3)),
    ("sm_80", (7, 0)), ("sm_80", (7, 4)), ("sm_80", (8, 0)), ("sm_80", (8, 4)),
    ("sm_86", (7, 8)),
    ("sm_89", (8, 2)),
    ("sm_90", (7, 8)), ("sm_90", (8, 0)), ("sm_90", (8, 1)), ("sm_90", (8, 3)),
    ("sm_90", (8, 6)),
    ("sm_90a", (8, 0)), ("sm_90a", (8, 8)),
    ("sm_100", (8, 6)), ("sm_100", (8, 8)),
    ("sm_100a", (8, 6)), ("sm_100a", (8, 7)), ("sm_100a", (8, 8)), ("sm_100a", (9, 0)),
    ("sm_100f", (8, 8)), ("sm_100f", (9, 0)),
    ("sm_103a", (8, 8)),
    ("sm_110a", (9, 0)), ("sm_110f", (9, 0)),
    ("sm_120", (8, 7)), ("sm_120", (9, 0)),
    ("sm_120a", (8, 8)),
]


def group_name(target, ver):
    return "%s-ptx%d%d" % (target, ver[0], ver[1])


class Ctx:
    """What the generator knows about a group (used only to steer generation;
    verdicts always come from ptxas)."""

    def __init__(self, target, ver):
        self.target = target
        self.ver = ver
        self.vn = ver[0] * 10 + ver[1]
        m = re.match(r"sm_(\d+)([af]?)$", target)
        self.sm = int(m.group(1))
        self.suffix = m.group(2)
        self.has_b128 = self.vn >= 83
        self.name = group_name(target, ver)

    def feats(self, gated):
        """Feature flags; with gated=False everything is 'available' (the
        generator then produces forms beyond the group's gates)."""
        sm, vn = self.sm, self.vn
        f = dict(
            sem=vn >= 60 and sm >= 70,
            evict=vn >= 74 and sm >= 70,
            hint=vn >= 74 and sm >= 80,
            cluster=vn >= 78 and sm >= 90,
            subspace=vn >= 78,
            mmio=vn >= 82 and sm >= 70,
            b128=vn >= 83 and sm >= 70,
            b128sys=vn >= 84,
            paramfunc=vn >= 83,
            v256=vn >= 88 and sm >= 100,
            st_async=vn >= 81 and sm >= 90,
            async_rel=vn >= 87 and sm >= 100,
            tcgen05=(vn >= 86 and self.target in ("sm_100a", "sm_110a", "sm_103a"))
            or (vn >= 88 and self.target in ("sm_100f", "sm_103f", "sm_110f")),
        )
        if not gated:
            f = {k: True for k in f}
            f["b128"] = f["b128sys"] = self.has_b128
        return f


# --------------------------------------------------------------------------
# Module template


def preamble_lines(ctx):
    L = []
    L.append(".version %d.%d" % ctx.ver)
    L.append(".target %s" % ctx.target)
    L.append(".address_size 64")
    L.append("")
    L.append(".global .align 16 .b8 gbuf[256];")
    L.append(".global .align 8 .u64 gvar;")
    L.append(".shared .align 16 .b8 sbuf[256];")
    L.append(".shared .align 8 .b64 mbar;")
    L.append(".const .align 4 .b32 cvar[4];")
    L.append("")
    L.append("// st.param to a function's own return parameter (not a case)")
    L.append(".func (.param .b32 fret) fn(.param .b32 fa)")
    L.append("{")
    L.append("\t.reg .b32 %t<2>;")
    L.append("\tld.param.b32 %t1, [fa];")
    L.append("\tst.param.b32 [fret], %t1;")
    L.append("\tret;")
    L.append("}")
    L.append("")
    L.append(".visible .entry k(.param .u64 p, .param .u32 pn, .param .align 16 .b8 parr[16])")
    L.append("{")
    for d in REG_DECLS:
        L.append("\t" + d)
    if ctx.has_b128:
        L.append("\t.reg .b128 %q<4>;")
    L.append("\t.local .align 16 .b8 lbuf[64];")
    L.append("\t.shared .align 16 .b8 fsbuf[64];")
    L.append("\t.param .b32 parg;")
    L.append("\t.param .align 16 .b8 parg16[16];")
    L.append("\tld.param.u64 %rd1, [p];")
    L.append("\tcvta.to.global.u64 %rd2, %rd1;")
    L.append("\tmov.u64 %rd3, sbuf;")
    L.append("\tmov.u64 %rd4, lbuf;")
    L.append("\tmov.u64 %rd6, mbar;")
    L.append("\tmov.u32 %r1, sbuf;")
    L.append("\tld.param.u32 %r2, [pn];")
    L.append("\t// case lines follow, one instruction each, with ptxas's verdict in a trailing comment")
    return L


POSTAMBLE = ["\tret;", "}"]

# Register naming: %p pred, %rb .b8, %u8_/%s8_ .u8/.s8, %rs .b16, %u16_/%s16_,
# %h .f16, %hh .f16x2, %r .b32, %u32_/%s32_, %f .f32, %rd .b64, %u64_/%s64_,
# %fd .f64, %q .b128 (PTX 8.3+ only).
REG_DECLS = [
    ".reg .pred %p<4>;",
    ".reg .b8 %rb<4>;",
    ".reg .u8 %u8_<4>;",
    ".reg .s8 %s8_<4>;",
    ".reg .b16 %rs<8>;",
    ".reg .u16 %u16_<4>;",
    ".reg .s16 %s16_<4>;",
    ".reg .f16 %h<4>;",
    ".reg .f16x2 %hh<4>;",
    ".reg .b32 %r<16>;",
    ".reg .u32 %u32_<4>;",
    ".reg .s32 %s32_<4>;",
    ".reg .f32 %f<8>;",
    ".reg .b64 %rd<16>;",
    ".reg .u64 %u64_<4>;",
    ".reg .s64 %s64_<4>;",
    ".reg .f64 %fd<8>;",
]

REGS = {
    "pred": ["%p1", "%p2", "%p3"],
    "b8": ["%rb1", "%rb2", "%rb3"],
    "u8": ["%u8_1", "%u8_2", "%u8_3"],
    "s8": ["%s8_1", "%s8_2", "%s8_3"],
    "b16": ["%rs1", "%rs2", "%rs3", "%rs4", "%rs5", "%rs6", "%rs7"],
    "u16": ["%u16_1", "%u16_2", "%u16_3"],
    "s16": ["%s16_1", "%s16_2", "%s16_3"],
    "f16": ["%h1", "%h2", "%h3"],
    "f16x2": ["%hh1", "%hh2", "%hh3"],
    "b32": ["%%r%d" % i for i in range(2, 16)],
    "u32": ["%u32_1", "%u32_2", "%u32_3"],
    "s32": ["%s32_1", "%s32_2", "%s32_3"],
    "f32": ["%%f%d" % i for i in range(1, 8)],
    "b64": ["%%rd%d" % i for i in range(7, 16)],
    "u64": ["%u64_1", "%u64_2", "%u64_3"],
    "s64": ["%s64_1", "%s64_2", "%s64_3"],
    "f64": ["%%fd%d" % i for i in range(1, 8)],
    "b128": ["%q1", "%q2", "%q3"],
}
REG_BITS = {"pred": 1, "b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16,
            "f16": 16, "f16x2": 32, "b32": 32, "u32": 32, "s32": 32, "f32": 32,
            "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b128": 128}

# --------------------------------------------------------------------------
# st qualifier vocabulary

SCOPES = [".cta", ".cluster", ".gpu", ".sys"]
COPS = [".wb", ".cg", ".cs", ".wt"]
L1S = [".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first",
       ".L1::evict_last", ".L1::no_allocate"]
L2S = [".L2::evict_normal", ".L2::evict_first", ".L2::evict_last"]
TYPES = [".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
         ".s8", ".s16", ".s32", ".s64", ".f32", ".f64"]
FAMILY_ORDER = ["mmio", "sem", "scope", "space", "cop", "l1", "l2", "hint", "vec", "type"]


def tbits(t):
    return int(t[2:])


def tclass(t):
    return t[1]


def choice_w(rng, items):
    """items: list of (weight, value)."""
    total = sum(w for w, _ in items)
    x = rng.random() * total
    for w, v in items:
        x -= w
        if x < 0:
            return v
    return items[-1][1]


class Instr:
    """A structured store-family instruction: qualifiers are (family, token)
    pairs rendered in list order."""

    def __init__(self, op="st"):
        self.pred = ""
        self.op = op
        self.quals = []
        self.ops = []  # rendered operands, in order

    def get(self, fam):
        for f, t in self.quals:
            if f == fam:
                return t
        return None

    def has(self, fam):
        return any(f == fam for f, _ in self.quals)

    def remove(self, fam):
        self.quals = [(f, t) for f, t in self.quals if f != fam]

    def set(self, fam, tok, order=FAMILY_ORDER):
        for i, (f, _) in enumerate(self.quals):
            if f == fam:
                self.quals[i] = (fam, tok)
                return
        self.insert(fam, tok, order)

    def insert(self, fam, tok, order=FAMILY_ORDER):
        """Insert at the canonical position for fam (after equal families)."""
        rank = order.index(fam) if fam in order else len(order)
        pos = len(self.quals)
        for i, (f, _) in enumerate(self.quals):
            r = order.index(f) if f in order else len(order)
            if r > rank:
                pos = i
                break
        self.quals.insert(pos, (fam, tok))

    def render(self):
        q = "".join(t for _, t in self.quals)
        ops = ", ".join(self.ops)
        if ops:
            return "%s%s%s %s;" % (self.pred, self.op, q, ops)
        return "%s%s%s;" % (self.pred, self.op, q)


def vec_text(elems):
    return "{" + ", ".join(elems) + "}"


# --------------------------------------------------------------------------
# Operand helpers


def off_for(rng, nbytes, allow_neg=False, base_reg=True):
    k = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
    o = min(k * max(nbytes, 1), 128)
    if o == 0:
        return ""
    if allow_neg and base_reg and rng.random() < 0.2:
        return "+-%d" % o
    return "+%d" % o


def addr_for(rng, space, nbytes, allow_imm=True):
    o = off_for(rng, nbytes, allow_neg=True)
    ov = off_for(rng, nbytes, base_reg=False)
    if space == "":
        c = choice_w(rng, [(3, "[%%rd1%s]" % o), (3, "[%%rd2%s]" % o), (2, "[gbuf%s]" % ov),
                           (1, "[sbuf%s]" % ov), (1, "[%%rd3%s]" % o), (1, "[gvar]"),
                           (1, "[%rd4]"), (1, "[lbuf%s]" % ov)])
    elif space == ".global":
        c = choice_w(rng, [(4, "[%%rd2%s]" % o), (2, "[%%rd1%s]" % o), (3, "[gbuf%s]" % ov),
                           (1, "[gvar]")])
    elif space in (".shared", ".shared::cta"):
        c = choice_w(rng, [(3, "[%%rd3%s]" % o), (2, "[%%r1%s]" % o), (3, "[sbuf%s]" % ov),
                           (2, "[fsbuf%s]" % ov)])
    elif space == ".shared::cluster":
        c = choice_w(rng, [(3, "[%%rd3%s]" % o), (2, "[%%r1%s]" % o), (3, "[sbuf%s]" % ov),
                           (1, "[fsbuf%s]" % ov)])
    elif space == ".local":
        opts = [(3, "[%%rd4%s]" % o), (3, "[lbuf%s]" % ov)]
        if allow_imm:
            opts.append((1, "[%d]" % (rng.choice([0, 1, 2, 4]) * max(nbytes, 1))))
        c = choice_w(rng, opts)
    elif space in (".param", ".param::func"):
        r = rng.random()
        if nbytes <= 4 and r < 0.4:
            c = "[parg]"
        elif r < 0.9:
            c = "[parg16%s]" % off_for(rng, nbytes, base_reg=False)
        else:
            c = "[%rd5]"  # ptxas 13.0 crashes on this in this module for sm_90+
    else:
        c = "[%rd1]"
    if rng.random() < 0.05:
        c = c.replace("+", " + ").replace("[", "[ ").replace("]", " ]")
    return c


def src_pools(t, relaxed):
    """Register classes acceptable (by the PTX text) for store type t."""
    n, c = tbits(t), tclass(t)
    exact = {"b": ["b%d" % n], "u": ["u%d" % n, "b%d" % n], "s": ["s%d" % n, "b%d" % n],
             "f": ["f%d" % n]}[c]
    if n == 128:
        return ["b128"]
    if not relaxed:
        return exact
    out = []
    for k, bits in REG_BITS.items():
        if k in ("pred", "b128") or bits < n:
            continue
        kc = k[0]
        if c in "us" and kc in "bus":
            out.append(k)
        elif c == "b":
            if kc in "bus":
                out.append(k)
            elif kc == "f" and n >= 16:
                out.append(k)
        elif c == "f":
            if k in ("f%d" % n,) or (kc == "b" and bits >= n):
                out.append(k)
    return out or exact


def imm_for(rng, t):
    if tclass(t) == "f":
        return rng.choice(["0f3F800000", "0f00000000", "1.0", "0.5"]) if t == ".f32" else \
            rng.choice(["0d3FF0000000000000", "0d0000000000000000", "2.0"])
    return rng.choice(["0", "1", "42", "-1", "0x7f", "255", "65535", "0xdeadbeef"])


def pick_reg(rng, cls):
    return rng.choice(REGS[cls])


def sources(rng, t, count, relaxed=False, sinks=False, imm_ok=True, exact_size=False):
    pools = src_pools(t, relaxed)
    if exact_size:
        pools = [c for c in pools if REG_BITS[c] == tbits(t)] or pools
    cls = rng.choice(pools)
    # elements of one vector must all have the same size, and ptxas rejects
    # mixing float and (un)signed integer registers (.bN mixes with either)
    fam = lambda c: "f" if c.startswith(("f", "h")) else ("b" if c[0] == "b" else "i")
    other = fam(cls) if fam(cls) != "b" else rng.choice(["f", "i"])
    same = [c for c in pools if REG_BITS[c] == REG_BITS[cls] and fam(c) in ("b", other)]
    elems = []
    for _ in range(count):
        if sinks and rng.random() < 0.2:
            elems.append("_")
        elif imm_ok and rng.random() < (0.04 if count > 1 else 0.06):
            elems.append(imm_for(rng, t))
        else:
            if relaxed and rng.random() < 0.3:
                cls = rng.choice(same)
            elems.append(pick_reg(rng, cls))
    if sinks and all(e == "_" for e in elems):
        elems[0] = pick_reg(rng, cls)
    return elems


def render_src(elems, vec):
    return vec_text(elems) if vec else elems[0]


VEC_N = {".v2": 2, ".v4": 4, ".v8": 8}


# --------------------------------------------------------------------------
# st: valid-by-construction forms


def st_valid(ctx, rng, gated=True):
    """Return (Instr, info) for an st instruction that follows the PTX text
    (and, when gated, the group's version/target gates)."""
    F = ctx.feats(gated)
    form = choice_w(rng, [(26, "plain"), (12, "cop"), (16, "evict"), (8, "volatile"),
                          (13, "relaxed"), (10, "release"), (6, "mmio"), (9, "param")])
    if form in ("relaxed", "release") and not F["sem"]:
        form = "plain"
    if form == "mmio" and not F["mmio"]:
        form = "relaxed" if F["sem"] else "plain"
    if form == "evict" and not F["evict"]:
        form = "cop"
    I = Instr("st")
    subsp = [".shared::cta"] if F["subspace"] else []
    clsp = [".shared::cluster"] if F["cluster"] else []
    if form in ("plain", "cop", "evict", "param") and F["sem"] and rng.random() < 0.2:
        I.set("sem", ".weak")
    if form == "volatile":
        I.set("sem", ".volatile")
    if form in ("relaxed", "release"):
        I.set("sem", "." + form)
        scopes = [".cta", ".gpu", ".sys"] + ([".cluster"] if F["cluster"] else [])
        I.set("scope", rng.choice(scopes))
    if form == "mmio":
        I.set("mmio", ".mmio")
        I.set("sem", ".relaxed")
        I.set("scope", ".sys")
    if form in ("plain", "cop"):
        spaces = ["", ".global", ".global", ".local", ".shared"] + subsp + clsp
    elif form in ("evict", "mmio"):
        spaces = ["", ".global", ".global"]
    elif form == "param":
        spaces = [".param"] + ([".param::func"] if F["paramfunc"] else [])
    else:  # volatile, relaxed, release
        spaces = ["", ".global", ".global", ".shared"] + subsp + clsp
    space = rng.choice(spaces)
    if space:
        I.set("space", space)
    # type
    types = [t for t in TYPES if t != ".b128" or (F["b128"] and ctx.has_b128)]
    if I.get("scope") == ".sys" and not F["b128sys"]:
        types = [t for t in types if t != ".b128"]
    t = rng.choice(types)
    n = tbits(t)
    # vector
    vec = None
    if form != "mmio" and t != ".b128" and rng.random() < 0.45:
        opts = [v for v, k in VEC_N.items() if n * k <= 128]
        wide = space in ("", ".global") and F["v256"]
        if wide and n == 32:
            opts += [".v8", ".v8"]
        if wide and n == 64:
            opts += [".v4", ".v4"]
        if opts:
            vec = rng.choice(opts)
    if vec:
        I.set("vec", vec)
    I.set("type", t)
    is256 = vec is not None and n * VEC_N[vec] == 256
    # caching qualifiers
    glob = space in ("", ".global")
    if form == "cop":
        I.set("cop", rng.choice(COPS))
    if form == "evict" or (form in ("relaxed", "release", "plain") and glob and F["evict"]
                           and rng.random() < 0.2):
        if rng.random() < 0.75 or not is256:
            I.set("l1", rng.choice(L1S))
    if is256 and form not in ("cop", "volatile", "mmio") and rng.random() < 0.55:
        I.set("l2", rng.choice(L2S))
    hint = glob and F["hint"] and form not in ("volatile", "mmio", "param") and \
        rng.random() < (0.4 if form == "evict" else 0.15)
    if hint:
        I.set("hint", ".L2::cache_hint")
    # operands
    count = VEC_N[vec] if vec else 1
    nbytes = n // 8 * count
    relaxed = rng.random() < 0.25
    elems = sources(rng, t, count, relaxed=relaxed, sinks=is256)
    I.ops = [addr_for(rng, space, nbytes), render_src(elems, bool(vec))]
    if hint:
        I.ops.append(choice_w(rng, [(6, "%rd5"), (2, "%u64_1"), (1, "%s64_2"), (1, "0")]))
    # predicate
    if form != "param" and rng.random() < 0.2:
        I.pred = rng.choice(["@%p1 ", "@%p1 ", "@!%p2 "])
    # qualifier order: free, except that a vector qualifier directly followed
    # by the type is the only warning-free spelling
    if rng.random() < 0.15:
        body = [q for q in I.quals if q[0] not in ("vec", "type")]
        tail = [q for q in I.quals if q[0] in ("vec", "type")]
        rng.shuffle(body)
        pos = len(body) if rng.random() < 0.6 else rng.randrange(len(body) + 1)
        I.quals = body[:pos] + tail + body[pos:]
    return I, dict(form=form, space=space, type=t, vec=vec, is256=is256, count=count)


# --------------------------------------------------------------------------
# st: mutations. Each takes (ctx, rng) and returns text or None.

UNKNOWN_QUALS = [".foo", ".sync", ".aligned", ".nc", ".acquire", ".acq_rel", ".sc", ".ftz",
                 ".sat", ".rn", ".L2::256B", ".L2::128B", ".unified", ".async", ".ca", ".lu",
                 ".cv", ".L1::evict_any", ".L2::no_allocate", ".L2::evict_unchanged",
                 ".L3::evict_last", ".L1::cache_hint", ".L2::cache_hint::x", ".shared::gpu",
                 ".global::cta", ".local::cta", ".param::entry", ".param::kernel", ".shared::sys",
                 ".tex", ".surf", ".system", ".block", ".gl", ".weak::cta", ".mmio::sys",
                 ".b256", ".u128", ".s128", ".f128", ".f16", ".f16x2", ".bf16", ".bf16x2",
                 ".tf32", ".e4m3", ".pred", ".v1", ".v3", ".v6", ".v16", ".v32", ".cluster::cta",
                 ".GLOBAL", ".Global", ".B32", ".WB", ".volatile::sys", ".release::gpu"]


def mut_base(ctx, rng):
    I, info = st_valid(ctx, rng, gated=True)
    return I, info


def m_sem(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["noscope", "scope_alone", "conflict", "dup", "multiscope", "scope_on_weak",
                    "acquire", "mmio_noscope", "mmio_norelaxed", "mmio_gpu", "mmio_release",
                    "mmio_space", "mmio_vec", "mmio_cache", "vol_cop", "vol_space", "vol_cache",
                    "rel_cop", "rel_space"])
    sem = I.get("sem")
    if k == "noscope":
        I.set("sem", rng.choice([".relaxed", ".release"]))
        I.remove("scope")
        I.remove("mmio")
    elif k == "scope_alone":
        I.remove("sem")
        I.remove("mmio")
        I.set("scope", rng.choice(SCOPES))
    elif k == "conflict":
        a, b = rng.sample([".weak", ".volatile", ".relaxed", ".release"], 2)
        I.remove("mmio")
        I.set("sem", a)
        I.insert("sem", b)
        if rng.random() < 0.6:
            I.set("scope", rng.choice([".gpu", ".sys"]))
    elif k == "dup":
        if not sem:
            I.set("sem", ".weak")
            sem = ".weak"
        I.insert("sem", sem)
    elif k == "multiscope":
        if not I.get("scope"):
            I.set("sem", rng.choice([".relaxed", ".release"]))
            I.set("scope", ".gpu")
        I.insert("scope", rng.choice(SCOPES))
    elif k == "scope_on_weak":
        I.remove("mmio")
        I.set("sem", rng.choice([".weak", ".volatile"]))
        I.set("scope", rng.choice(SCOPES))
    elif k == "acquire":
        I.remove("mmio")
        I.set("sem", rng.choice([".acquire", ".acq_rel", ".sc", ".relaxed::gpu"]))
        if rng.random() < 0.7:
            I.set("scope", rng.choice(SCOPES))
    elif k.startswith("mmio"):
        I.set("mmio", ".mmio")
        I.set("sem", ".relaxed")
        I.set("scope", ".sys")
        if k == "mmio_noscope":
            I.remove("scope")
        elif k == "mmio_norelaxed":
            I.remove("sem")
        elif k == "mmio_gpu":
            I.set("scope", rng.choice([".gpu", ".cta", ".cluster"]))
        elif k == "mmio_release":
            I.set("sem", rng.choice([".release", ".weak", ".volatile"]))
        elif k == "mmio_space":
            sp = rng.choice([".shared", ".local", ".shared::cluster", ".param"])
            I.set("space", sp)
            I.ops[0] = addr_for(rng, sp, 4)
        elif k == "mmio_vec":
            t = rng.choice([".b32", ".u32", ".b16", ".f32", ".b64"])
            v = rng.choice([".v2", ".v4"])
            I.set("vec", v)
            I.set("type", t)
            I.ops[1] = vec_text(sources(rng, t, VEC_N[v]))
        elif k == "mmio_cache":
            fam, tok = rng.choice([("cop", rng.choice(COPS)), ("l1", rng.choice(L1S)),
                                   ("hint", ".L2::cache_hint")])
            I.set(fam, tok)
            if fam == "hint" and len(I.ops) == 2:
                I.ops.append("%rd5")
    elif k.startswith("vol"):
        I.remove("mmio")
        I.remove("scope")
        I.set("sem", ".volatile")
        if k == "vol_cop":
            I.set("cop", rng.choice(COPS))
        elif k == "vol_space":
            sp = rng.choice([".local", ".param", ".param::func"])
            I.set("space", sp)
            I.ops[0] = addr_for(rng, sp, 4)
        else:
            fam, tok = rng.choice([("l1", rng.choice(L1S)), ("hint", ".L2::cache_hint")])
            I.set(fam, tok)
            if fam == "hint" and len(I.ops) == 2:
                I.ops.append("%rd5")
    else:  # rel_*
        I.remove("mmio")
        I.set("sem", rng.choice([".relaxed", ".release"]))
        I.set("scope", rng.choice(SCOPES))
        if k == "rel_cop":
            I.set("cop", rng.choice(COPS))
        else:
            sp = rng.choice([".local", ".param", ".param::func"])
            I.set("space", sp)
            I.ops[0] = addr_for(rng, sp, 4)
    return I.render(), "st.mut.sem." + k


def m_space(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["const", "dup", "badsub", "mismatch", "mismatch", "param_var", "func_ret"])
    if k == "const":
        I.set("space", ".const")
        I.ops[0] = rng.choice(["[cvar]", "[cvar+4]", "[%rd1]"])
    elif k == "dup":
        sp = I.get("space") or ".global"
        I.set("space", sp)
        I.insert("space", rng.choice([sp, ".global", ".shared", ".local", ".shared::cta"]))
    elif k == "badsub":
        I.set("space", rng.choice([".shared::gpu", ".global::cta", ".local::cta", ".param::entry",
                                   ".param::kernel", ".shared::sys", ".tex", ".shared::", ".sreg",
                                   ".global::cluster"]))
    elif k == "mismatch":
        sp = rng.choice(["", ".global", ".shared", ".shared::cta", ".shared::cluster", ".local",
                         ".param"])
        if sp:
            I.set("space", sp)
        else:
            I.remove("space")
        I.ops[0] = rng.choice(["[gbuf]", "[sbuf+4]", "[fsbuf]", "[lbuf]", "[parg]", "[cvar]",
                               "[p]", "[pn]", "[parr+4]", "[gvar]", "[mbar]", "[parg16]", "[fn]",
                               "[k]"])
    elif k == "param_var":
        I.set("space", rng.choice([".param", ".param::func"]))
        I.ops[0] = rng.choice(["[p]", "[pn]", "[parr]", "[parr+8]", "[fret]", "[fa]"])
    else:
        I.set("space", ".param")
        I.ops[0] = "[fret]"
    return I.render(), "st.mut.space." + k


def m_cache(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["cop_dup", "cop_bad", "cop_evict", "cop_space", "l1_space", "l1_dup", "l1_bad",
                    "l2_novec", "l2_dup", "l2_bad", "l2_scalar", "evict_order", "l1_generic"])
    if k == "cop_dup":
        I.set("cop", rng.choice(COPS))
        I.insert("cop", rng.choice(COPS))
    elif k == "cop_bad":
        I.set("cop", rng.choice([".ca", ".lu", ".cv", ".nc", ".cc", ".wa", ".WB", ".L1", ".L2"]))
    elif k == "cop_evict":
        I.set("cop", rng.choice(COPS))
        I.set(rng.choice(["l1", "l2"]), rng.choice(L1S + L2S))
    elif k == "cop_space":
        sp = rng.choice([".shared", ".local", ".param", ".shared::cluster", ".shared::cta"])
        I.set("space", sp)
        I.remove("l1")
        I.remove("l2")
        I.set("cop", rng.choice(COPS))
        I.ops[0] = addr_for(rng, sp, 4)
    elif k == "l1_space":
        sp = rng.choice([".shared", ".local", ".param", ".shared::cluster", ".shared::cta",
                         ".param::func"])
        I.set("space", sp)
        I.remove("cop")
        I.set("l1", rng.choice(L1S))
        I.ops[0] = addr_for(rng, sp, 4)
    elif k == "l1_dup":
        I.remove("cop")
        I.set("l1", rng.choice(L1S))
        I.insert("l1", rng.choice(L1S))
    elif k == "l1_bad":
        I.remove("cop")
        I.set("l1", rng.choice([".L1::evict_any", ".L1::cache_hint", ".L1::evict", ".L1::no_alloc",
                                ".L1::allocate", ".L1::evict_normal::x", ".L1", ".L1::"]))
    elif k in ("l2_novec", "l2_scalar"):
        I.remove("cop")
        I.set("l2", rng.choice(L2S))
    elif k == "l2_dup":
        I.remove("cop")
        I.set("l2", rng.choice(L2S))
        I.insert("l2", rng.choice(L2S))
    elif k == "l2_bad":
        I.remove("cop")
        I.set("l2", rng.choice([".L2::no_allocate", ".L2::evict_unchanged", ".L2::evict",
                                ".L2::evict_normal::x", ".L2::256B", ".L2::64B"]))
    elif k == "evict_order":
        I.remove("cop")
        I.set("l1", rng.choice(L1S))
        I.set("l2", rng.choice(L2S))
        I.quals.sort(key=lambda q: {"l2": 0, "l1": 1}.get(q[0], 2))
    else:
        I.remove("cop")
        I.remove("space")
        I.remove("mmio")
        I.set("l1", rng.choice(L1S))
        I.ops[0] = rng.choice(["[%rd1]", "[sbuf]", "[lbuf]", "[%rd3]", "[gbuf+8]"])
    return I.render(), "st.mut.cache." + k


def m_hint(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["no_operand", "no_qual", "space", "policy_type", "dup", "on_volatile",
                    "two_policies", "policy_addr"])
    ops = I.ops[:2]
    if k == "no_operand":
        I.set("hint", ".L2::cache_hint")
        I.ops = ops
    elif k == "no_qual":
        I.remove("hint")
        I.ops = ops + [rng.choice(["%rd5", "%u64_1", "0", "%r3"])]
    elif k == "space":
        sp = rng.choice([".shared", ".local", ".param", ".shared::cluster", ".shared::cta"])
        I.set("space", sp)
        I.set("hint", ".L2::cache_hint")
        I.ops = [addr_for(rng, sp, 4), ops[1], "%rd5"]
    elif k == "policy_type":
        I.set("hint", ".L2::cache_hint")
        I.ops = ops + [rng.choice(["%r3", "%rs2", "%fd1", "%f2", "%p1", "%q1", "%rb1", "1.0",
                                   "0d3FF0000000000000", "gbuf", "[%rd5]", "_", "%u32_1"])]
    elif k == "dup":
        I.set("hint", ".L2::cache_hint")
        I.insert("hint", ".L2::cache_hint")
        I.ops = ops + ["%rd5"]
    elif k == "on_volatile":
        I.remove("mmio")
        I.remove("scope")
        I.remove("cop")
        I.set("sem", rng.choice([".volatile", ".weak"]))
        I.set("hint", ".L2::cache_hint")
        I.ops = ops + ["%rd5"]
    elif k == "two_policies":
        I.set("hint", ".L2::cache_hint")
        I.ops = ops + ["%rd5", "%rd6"]
    else:
        I.set("hint", ".L2::cache_hint")
        I.ops = [ops[1], ops[0], "%rd5"] if rng.random() < 0.5 else ops + ["[%rd5]"]
    return I.render(), "st.mut.hint." + k


def m_vec(ctx, rng):
    I, info = mut_base(ctx, rng)
    t = I.get("type")
    n = tbits(t)
    k = rng.choice(["count", "count", "scalar_for_vec", "vec_for_scalar", "bad", "too_large",
                    "sink_bad", "after_type", "mixed", "dup", "all_sinks", "v8_small",
                    "v8_space", "wide_space", "nested"])
    vec = I.get("vec")
    if k == "count":
        if not vec:
            vec = rng.choice([".v2", ".v4"])
            I.set("vec", vec)
        good = VEC_N[vec]
        cnt = rng.choice([c for c in (1, 2, 3, 4, 5, 8, 16) if c != good])
        I.ops[1] = vec_text(sources(rng, t, cnt))
    elif k == "scalar_for_vec":
        if not vec:
            I.set("vec", rng.choice([".v2", ".v4", ".v8"]))
        I.ops[1] = sources(rng, t, 1)[0]
    elif k == "vec_for_scalar":
        I.remove("vec")
        I.ops[1] = vec_text(sources(rng, t, rng.choice([1, 2, 4])))
    elif k == "bad":
        v = rng.choice([".v1", ".v3", ".v6", ".v16", ".v32", ".v2x", ".vec2", ".x2"])
        I.set("vec", v)
        cnt = int(re.sub(r"\D", "", v) or 2)
        I.ops[1] = vec_text(sources(rng, t, min(cnt, 16)))
    elif k in ("too_large", "v8_small", "v8_space", "wide_space"):
        if k == "too_large":
            t2 = rng.choice([".b64", ".u64", ".f64", ".b128", ".s64", ".b32", ".f32"])
            v = rng.choice([".v4", ".v8"] if tbits(t2) <= 64 else [".v2", ".v4"])
        elif k == "v8_small":
            t2 = rng.choice([".b8", ".u8", ".s8", ".b16", ".u16", ".s16"])
            v = ".v8"
        else:
            t2 = rng.choice([".b32", ".u32", ".s32", ".f32", ".b64", ".u64", ".s64", ".f64"])
            v = ".v8" if tbits(t2) == 32 else ".v4"
        if t2 == ".b128" and not ctx.has_b128:
            t2 = ".b64"
        I.set("type", t2)
        I.set("vec", v)
        I.remove("l2")
        if k in ("v8_space", "wide_space"):
            sp = rng.choice([".shared", ".local", ".shared::cta", ".shared::cluster", ".param"])
            I.remove("l1")
            I.remove("hint")
            I.ops = I.ops[:2]
            I.set("space", sp)
            I.ops[0] = addr_for(rng, sp, tbits(t2) // 8 * VEC_N[v])
        I.ops[1] = vec_text(sources(rng, t2, VEC_N[v], sinks=(k == "wide_space")))
    elif k == "sink_bad":
        if not vec or info["is256"]:
            t2 = rng.choice([".b32", ".b16", ".u64", ".f32", ".b8"])
            v = rng.choice([o for o in (".v2", ".v4") if tbits(t2) * VEC_N[o] <= 128])
            I.set("type", t2)
            I.set("vec", v)
            I.remove("l2")
            vec, t = v, t2
        el = sources(rng, t, VEC_N[vec])
        el[rng.randrange(len(el))] = "_"
        I.ops[1] = vec_text(el)
    elif k == "after_type":
        if not vec:
            vec = rng.choice([".v2", ".v4"]) if n <= 32 else ".v2"
            if n == 128:
                I.set("type", ".b32")
                t = ".b32"
            I.set("vec", vec)
            I.ops[1] = vec_text(sources(rng, t, VEC_N[vec]))
        I.quals = [q for q in I.quals if q[0] != "vec"] + [("vec", vec)]
    elif k == "mixed":
        if not vec:
            vec = ".v2"
            if n > 64:
                I.set("type", ".b32")
                t = ".b32"
            I.set("vec", vec)
        el = sources(rng, t, VEC_N[vec])
        other = rng.choice([c for c in REGS if c != "pred"])
        el[rng.randrange(len(el))] = pick_reg(rng, other)
        I.ops[1] = vec_text(el)
    elif k == "dup":
        v = vec or ".v2"
        I.set("vec", v)
        I.insert("vec", rng.choice([".v2", ".v4", v]))
    elif k == "all_sinks":
        if not vec:
            vec = ".v2"
            I.set("vec", vec)
        I.ops[1] = vec_text(["_"] * VEC_N[vec])
    else:  # nested braces
        I.set("vec", ".v2")
        I.set("type", ".b32" if n > 32 else t)
        I.ops[1] = "{{%r2, %r3}}" if rng.random() < 0.5 else "{%r2, {%r3}}"
    return I.render(), "st.mut.vec." + k


def m_type(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["missing", "dup", "two", "bad", "upper", "swap_order"])
    t = I.get("type")
    if k == "missing":
        I.remove("type")
    elif k == "dup":
        I.insert("type", t)
    elif k == "two":
        I.insert("type", rng.choice([x for x in TYPES if x != t]))
    elif k == "bad":
        I.set("type", rng.choice([".f16", ".f16x2", ".bf16", ".bf16x2", ".pred", ".b256", ".u128",
                                  ".s128", ".f128", ".tf32", ".e4m3", ".b1", ".b4", ".u4", ".f8",
                                  ".b24", ".int", ".f64x2"]))
    elif k == "upper":
        I.set("type", t.upper())
    else:
        # type first, then the rest
        I.quals = [q for q in I.quals if q[0] == "type"] + [q for q in I.quals if q[0] != "type"]
    return I.render(), "st.mut.type." + k


def m_src(ctx, rng):
    I, info = mut_base(ctx, rng)
    t = I.get("type")
    n = tbits(t)
    vec = I.get("vec")
    k = rng.choice(["anyreg", "anyreg", "anyreg", "narrow", "wide", "float_int", "pred", "imm",
                    "undeclared", "var", "addr", "b128", "reg_plus_imm"])
    if k == "anyreg":
        cls = rng.choice([c for c in REGS if c != "b128" or ctx.has_b128])
        el = [pick_reg(rng, cls) for _ in range(VEC_N.get(vec, 1))]
    elif k == "narrow":
        cands = [c for c, b in REG_BITS.items() if 1 < b < n]
        cls = rng.choice(cands) if cands else "pred"
        el = [pick_reg(rng, cls) for _ in range(VEC_N.get(vec, 1))]
    elif k == "wide":
        cands = [c for c, b in REG_BITS.items() if b > n and (c != "b128" or ctx.has_b128)]
        cls = rng.choice(cands) if cands else "b64"
        el = [pick_reg(rng, cls) for _ in range(VEC_N.get(vec, 1))]
    elif k == "float_int":
        if tclass(t) == "f":
            cls = rng.choice(["u32", "s32", "u64", "s64", "b32", "b64", "b16", "u16"])
        else:
            cls = rng.choice(["f32", "f64", "f16", "f16x2"])
        el = [pick_reg(rng, cls) for _ in range(VEC_N.get(vec, 1))]
    elif k == "pred":
        el = [pick_reg(rng, "pred") for _ in range(VEC_N.get(vec, 1))]
    elif k == "imm":
        el = [rng.choice(["0", "-1", "1.0", "0f3F800000", "0d3FF0000000000000", "0x1FFFFFFFF",
                          "4294967296", "1e3", "0b101", "'a'", "1000", "-129", "0xFFFFFFFFFFFFFFFF",
                          "18446744073709551616", "0x100", "65536"])
              for _ in range(VEC_N.get(vec, 1))]
    elif k == "undeclared":
        el = [rng.choice(["%r99", "%rd16", "%f8", "%q4", "%x1", "%r", "r1", "%rs8", "%p4", "%h4",
                          "%fd99", "%u32_4"]) for _ in range(VEC_N.get(vec, 1))]
    elif k == "var":
        el = [rng.choice(["gbuf", "sbuf", "gvar", "cvar", "lbuf", "parg", "p", "mbar", "fn", "k",
                          "%tid.x", "%laneid", "%clock"]) for _ in range(VEC_N.get(vec, 1))]
    elif k == "addr":
        el = [rng.choice(["[%rd2]", "[gbuf]", "[%r3]"])]
        vec = None
    elif k == "reg_plus_imm":
        base = sources(rng, t, 1, imm_ok=False)[0]
        el = [rng.choice([base + "+4", base + " + 1", base + "+-4", "gbuf+4", base + "-4",
                          "4+" + base])]
    else:
        if not ctx.has_b128:
            el = ["%q1"]
        else:
            I.set("type", rng.choice([".b128", ".b64", ".b32", ".u64", ".f64"]))
            I.remove("vec")
            I.remove("l2")
            vec = None
            el = [rng.choice(["%q1", "%rd7", "%fd2", "%r3", "%u64_1"])]
    if vec and len(el) == 1:
        el = el * VEC_N[vec]
    I.ops[1] = render_src(el, bool(vec) and len(el) > 1)
    return I.render(), "st.mut.src." + k


def m_addr(ctx, rng):
    I, info = mut_base(ctx, rng)
    sp = I.get("space") or ""
    k = rng.choice(["minus", "reg32", "reg16", "reg8", "regfloat", "regpred", "imm", "imm_neg",
                    "imm_big", "undeclared", "var_plus_reg", "reg_plus_reg", "no_brackets",
                    "var_minus", "double_off", "big_off", "neg_off", "hex_off", "empty",
                    "reg128", "var_only", "kernel_param", "sreg"])
    a = {
        "minus": lambda: rng.choice(["[%rd1-8]", "[%rd2-4]", "[%rd3-16]", "[%r1-4]"]),
        "reg32": lambda: rng.choice(["[%r1]", "[%r3]", "[%u32_1]", "[%s32_2]", "[%r3+8]"]),
        "reg16": lambda: rng.choice(["[%rs1]", "[%u16_1]", "[%s16_2+4]", "[%h1]"]),
        "reg8": lambda: rng.choice(["[%rb1]", "[%u8_1]"]),
        "regfloat": lambda: rng.choice(["[%f1]", "[%fd1]", "[%hh1]"]),
        "regpred": lambda: "[%p1]",
        "imm": lambda: rng.choice(["[0]", "[100]", "[16]", "[0x40]", "[4096]"]),
        "imm_neg": lambda: rng.choice(["[-4]", "[-1]", "[+8]"]),
        "imm_big": lambda: rng.choice(["[4294967296]", "[4294967295]", "[0xFFFFFFFFFFFFFFFF]"]),
        "undeclared": lambda: rng.choice(["[nosuch]", "[%rd99]", "[%rd16]", "[gbuf2]",
                                          "[Gbuf]", "[%x]"]),
        "var_plus_reg": lambda: rng.choice(["[gbuf+%r1]", "[gbuf+%rd1]", "[sbuf+%r3]"]),
        "reg_plus_reg": lambda: rng.choice(["[%rd1+%rd2]", "[%rd1+%r3]"]),
        "no_brackets": lambda: rng.choice(["%rd1", "gbuf", "%rd2+8", "100"]),
        "var_minus": lambda: rng.choice(["[gbuf-4]", "[sbuf-8]"]),
        "double_off": lambda: rng.choice(["[%rd1+8+4]", "[gbuf+4+4]", "[%rd1+-4+8]"]),
        "big_off": lambda: rng.choice(["[%rd1+2147483647]", "[%rd1+2147483648]",
                                       "[%rd1+4294967296]", "[%rd1+-2147483648]",
                                       "[%rd1+-2147483649]", "[gbuf+4294967296]"]),
        "neg_off": lambda: rng.choice(["[%rd1+-8]", "[%rd2+-1]", "[gbuf+-4]", "[sbuf+-16]"]),
        "hex_off": lambda: rng.choice(["[%rd1+0x10]", "[%rd1+0X8]", "[gbuf+0x20]",
                                       "[%rd1+010]"]),
        "empty": lambda: "[]",
        "reg128": lambda: "[%q1]",
        "var_only": lambda: rng.choice(["[gbuf]", "[sbuf]", "[lbuf]", "[fsbuf]", "[gvar]",
                                        "[mbar]", "[parg16]"]),
        "kernel_param": lambda: rng.choice(["[p]", "[pn]", "[parr]"]),
        "sreg": lambda: rng.choice(["[%tid.x]", "[%clock64]", "[%laneid]"]),
    }[k]()
    I.ops[0] = a
    if rng.random() < 0.3:
        # also vary the space, so address-space pairing is exercised
        nsp = rng.choice(["", ".global", ".shared", ".local", ".param", ".shared::cluster"])
        if nsp:
            I.set("space", nsp)
        else:
            I.remove("space")
        I.remove("l1")
        I.remove("hint")
        I.remove("mmio")
        if I.get("sem") in (".relaxed", ".release") and nsp in (".local", ".param"):
            I.remove("sem")
            I.remove("scope")
        I.ops = I.ops[:2]
    return I.render(), "st.mut.addr." + k


def m_ops(ctx, rng):
    I, info = mut_base(ctx, rng)
    text = I.render()
    k = rng.choice(["missing_src", "extra", "missing_semi", "missing_comma", "extra_comma",
                    "no_operands", "swapped", "double_semi", "trailing", "unbalanced",
                    "missing_addr", "paren", "colon", "label"])
    head, _, rest = text.partition(" ")
    if I.pred:
        # pred is part of the head: re-split after the opcode
        head = I.pred + I.op + "".join(t for _, t in I.quals)
        rest = text[len(head) + 1:]
    body = rest[:-1]  # without ';'
    if k == "missing_src":
        out = "%s %s;" % (head, I.ops[0])
    elif k == "extra":
        out = "%s %s, %s;" % (head, body, rng.choice(["%r3", "%rd7", "0", "[%rd1]", "%p1"]))
    elif k == "missing_semi":
        out = "%s %s" % (head, body)
    elif k == "missing_comma":
        out = "%s %s;" % (head, body.replace(", ", " ", 1))
    elif k == "extra_comma":
        out = "%s %s;" % (head, body.replace(", ", ", , ", 1) if rng.random() < 0.5
                          else body + ",")
    elif k == "no_operands":
        out = "%s;" % head
    elif k == "swapped":
        ops = list(I.ops)
        ops[0], ops[1] = ops[1], ops[0]
        out = "%s %s;" % (head, ", ".join(ops))
    elif k == "double_semi":
        out = text + ";"
    elif k == "trailing":
        out = text[:-1] + " " + rng.choice(["%r3", "foo", "+4", "]", "}"]) + ";"
    elif k == "unbalanced":
        out = text.replace("]", "", 1) if rng.random() < 0.5 else text.replace("[", "", 1)
    elif k == "missing_addr":
        out = "%s %s;" % (head, ", ".join(I.ops[1:]))
    elif k == "paren":
        out = "%s (%s);" % (head, body)
    elif k == "colon":
        out = "%s %s:" % (head, body)
    else:
        out = "L_%d: %s" % (rng.randrange(1000), text)
    return out, "st.mut.ops." + k


def m_pred(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["nonpred", "undeclared", "nopercent", "double", "param", "param", "param_func",
                    "neg_space", "bang_only", "imm"])
    if k == "nonpred":
        I.pred = rng.choice(["@%r1 ", "@%rd1 ", "@%rs1 ", "@%f1 "])
    elif k == "undeclared":
        I.pred = rng.choice(["@%p4 ", "@%p9 ", "@!%p7 "])
    elif k == "nopercent":
        I.pred = rng.choice(["@p1 ", "@!p1 "])
    elif k == "double":
        I.pred = "@%p1 @%p2 "
    elif k in ("param", "param_func"):
        I.remove("mmio")
        I.remove("sem")
        I.remove("scope")
        I.remove("l1")
        I.remove("l2")
        I.remove("hint")
        I.remove("cop")
        if I.get("vec") and tbits(I.get("type")) * VEC_N[I.get("vec")] > 128:
            I.remove("vec")
        I.set("space", ".param" if k == "param" else rng.choice([".param::func", ".param"]))
        cnt = VEC_N.get(I.get("vec"), 1)
        I.ops = [rng.choice(["[parg]", "[parg16]", "[parg16+4]", "[%rd5]"]),
                 render_src(sources(rng, I.get("type"), cnt), cnt > 1)]
        I.pred = rng.choice(["@%p1 ", "@!%p1 "])
    elif k == "neg_space":
        I.pred = "@! %p1 "
    elif k == "bang_only":
        I.pred = rng.choice(["@ ", "@! ", "@%p1! "])
    else:
        I.pred = rng.choice(["@1 ", "@0 "])
    return I.render(), "st.mut.pred." + k


def m_opcode(ctx, rng):
    I, info = mut_base(ctx, rng)
    k = rng.choice(["misspell", "upper", "empty_qual", "trailing_dot", "space_in", "unknown_qual",
                    "unknown_qual", "unknown_qual"])
    if k == "misspell":
        I.op = rng.choice(["sts", "stg", "st_", "stt", "store", "st2", "ST", "St", "s", "tst",
                           "stl", "st.weak.weak"])
    elif k == "upper":
        fam, tok = rng.choice(I.quals)
        I.set(fam, tok.upper())
    elif k == "empty_qual":
        I.op = "st."
    elif k == "trailing_dot":
        I.quals.append(("junk", "."))
    elif k == "space_in":
        I.op = "st "
    else:
        q = rng.choice(UNKNOWN_QUALS)
        pos = rng.randrange(len(I.quals) + 1)
        I.quals.insert(pos, ("junk", q))
    return I.render(), "st.mut.opcode." + k


def m_order(ctx, rng):
    """Valid qualifier sets in shuffled order (incl. type not last)."""
    I, info = st_valid(ctx, rng, gated=True)
    rng.shuffle(I.quals)
    return I.render(), "st.order"


def m_gate(ctx, rng):
    """A valid form ignoring the group's version/target gates."""
    I, info = st_valid(ctx, rng, gated=False)
    return I.render(), "st.gate"


def m_b128(ctx, rng):
    """.b128 around its gates: PTX 8.3 (8.4 with .sys), no vectors, 128-bit
    registers only (they are declared only from PTX 8.3 on)."""
    I = Instr("st")
    k = rng.choice(["plain", "sys", "vec", "space", "cache", "src"])
    q = "%q1" if ctx.has_b128 else rng.choice(["%q1", "%rd7"])
    sp = rng.choice(["", ".global", ".global", ".shared", ".local", ".shared::cluster"])
    if sp:
        I.set("space", sp)
    I.set("type", ".b128")
    I.ops = [addr_for(rng, sp, 16), q]
    if k == "sys":
        if rng.random() < 0.3:
            I.set("mmio", ".mmio")
            I.set("sem", ".relaxed")
            I.set("space", ".global")
            I.ops[0] = addr_for(rng, ".global", 16)
        else:
            I.set("sem", rng.choice([".relaxed", ".release"]))
            if sp in (".local",):
                I.set("space", ".global")
                I.ops[0] = addr_for(rng, ".global", 16)
        I.set("scope", rng.choice([".sys", ".sys", ".gpu", ".cta"]))
    elif k == "vec":
        v = rng.choice([".v2", ".v4"])
        I.set("vec", v)
        I.ops[1] = vec_text([q] * VEC_N[v])
    elif k == "space":
        sp = rng.choice([".param", ".param::func", ".shared::cta", ".const"])
        I.set("space", sp)
        I.ops[0] = addr_for(rng, sp, 16) if sp != ".const" else "[cvar]"
    elif k == "cache":
        I.set("space", ".global")
        I.ops[0] = addr_for(rng, ".global", 16)
        fam, tok = rng.choice([("cop", rng.choice(COPS)), ("l1", rng.choice(L1S)),
                               ("hint", ".L2::cache_hint"), ("l2", rng.choice(L2S))])
        I.set(fam, tok)
        if fam == "hint":
            I.ops.append("%rd5")
    elif k == "src":
        I.ops[1] = rng.choice(["%rd7", "%fd1", "%r3", "{%rd7, %rd8}", "0", "%q4"])
    return I.render(), "st.mut.b128." + k


ST_MUTS = [(4, m_b128), (9, m_sem), (6, m_space), (8, m_cache), (5, m_hint), (9, m_vec), (4, m_type),
           (10, m_src), (10, m_addr), (8, m_ops), (4, m_pred), (6, m_opcode), (4, m_order),
           (8, m_gate)]


# --------------------------------------------------------------------------
# st.async

ASYNC_ORDER = ["mmio", "sem", "scope", "space", "cm", "vec", "type"]
ASYNC_MB_TYPES = [".b32", ".b64", ".u32", ".u64", ".s32", ".s64", ".f32", ".f64"]
ASYNC_REL_TYPES = [".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
                   ".s32", ".s64", ".f32", ".f64"]
CM = ".mbarrier::complete_tx::bytes"


def async_valid(ctx, rng, gated=True, form=None):
    F = ctx.feats(gated)
    if form is None:
        form = "mbar" if (rng.random() < 0.62 or not F["async_rel"]) else "release"
    I = Instr("st.async")
    if form == "mbar":
        r = rng.random()
        if r < 0.2:
            I.set("sem", ".weak", ASYNC_ORDER)
        elif r < 0.28:
            I.set("scope", ".cluster", ASYNC_ORDER)  # {.weak} and {.scope} are alternatives
        if rng.random() < 0.85:
            I.set("space", ".shared::cluster", ASYNC_ORDER)
        I.set("cm", CM, ASYNC_ORDER)
        t = rng.choice(ASYNC_MB_TYPES)
        vec = None
        r = rng.random()
        if r < 0.3:
            vec = ".v2"
        elif r < 0.5 and tbits(t) == 32:
            vec = ".v4"
        if vec:
            I.set("vec", vec, ASYNC_ORDER)
        I.set("type", t, ASYNC_ORDER)
        cnt = VEC_N.get(vec, 1)
        nb = tbits(t) // 8 * cnt
        o = off_for(rng, nb)
        a = choice_w(rng, [(3, "[%%rd3%s]" % o), (2, "[%%r1%s]" % o), (2, "[sbuf%s]" % o),
                           (1, "[fsbuf%s]" % o)])
        mb = choice_w(rng, [(4, "[mbar]"), (3, "[%rd6]"), (1, "[%r3]"), (1, "[%rd6+0]")])
        el = sources(rng, t, cnt, relaxed=rng.random() < 0.15, exact_size=True)
        I.ops = [a, render_src(el, bool(vec)), mb]
    else:
        if rng.random() < 0.2:
            I.set("mmio", ".mmio", ASYNC_ORDER)
            scope = ".sys"
        else:
            scope = rng.choice([".gpu", ".sys"])
        I.set("sem", ".release", ASYNC_ORDER)
        I.set("scope", scope, ASYNC_ORDER)
        if rng.random() < 0.8:
            I.set("space", ".global", ASYNC_ORDER)
        t = rng.choice(ASYNC_REL_TYPES)
        I.set("type", t, ASYNC_ORDER)
        o = off_for(rng, tbits(t) // 8, allow_neg=True)
        a = choice_w(rng, [(3, "[%%rd2%s]" % o), (2, "[%%rd1%s]" % o), (2, "[gbuf%s]" %
                                                                         o.replace("+-", "+"))])
        I.ops = [a, render_src(sources(rng, t, 1, relaxed=rng.random() < 0.15, exact_size=True),
                               False)]
    if rng.random() < 0.1:
        I.pred = rng.choice(["@%p1 ", "@!%p2 "])
    if rng.random() < 0.1:
        body = [q for q in I.quals if q[0] not in ("vec", "type")]
        rng.shuffle(body)
        I.quals = body + [q for q in I.quals if q[0] in ("vec", "type")]
    return I, form


def async_mut(ctx, rng):
    form = "mbar" if rng.random() < 0.55 else "release"
    I, form = async_valid(ctx, rng, gated=True, form=form)
    if form == "mbar":
        k = rng.choice(["space_wrong", "space_loose", "no_cm", "bad_cm", "mmio", "release",
                        "vec8", "v4_64", "small_type", "b128", "vec_count", "no_mbar",
                        "extra_op", "mbar_noreg", "imm_addr", "scope_bad", "src_type", "hint",
                        "cop", "cm_dup", "global_addr", "sem_bad", "order", "gate", "reg32_addr",
                        "opcode", "missing_semi", "vec_scalar"])
    else:
        k = rng.choice(["no_sem", "no_scope", "scope_bad", "mmio_gpu", "relaxed", "vec", "b128",
                        "cm", "space_wrong", "extra_mbar", "extra_mbar", "no_global_mbar",
                        "imm_addr", "src_type", "weak", "order", "gate", "reg32_addr", "hint",
                        "l1", "volatile", "missing_src", "dup_sem", "mmio_only"])
    o = ASYNC_ORDER
    if k == "space_wrong":
        I.set("space", rng.choice([".global", ".local", ".param", ".shared::gpu", ".const"]), o)
    elif k == "space_loose":
        I.set("space", rng.choice([".shared::cta", ".shared", ""]), o)
        if I.get("space") == "":
            I.remove("space")
    elif k == "no_cm":
        I.remove("cm")
    elif k == "bad_cm":
        I.set("cm", rng.choice([".mbarrier::complete_tx::bits", ".mbarrier::arrive",
                                ".mbarrier::complete_tx", ".mbarrier", ".complete_tx::bytes",
                                ".bulk_group"]), o)
    elif k == "mmio" or k == "mmio_only":
        I.set("mmio", ".mmio", o)
        if k == "mmio_only":
            I.remove("sem")
            I.remove("scope")
    elif k == "release":
        I.set("sem", ".release", o)
        I.set("scope", rng.choice([".cluster", ".gpu", ".sys", ".cta"]), o)
    elif k in ("vec8", "v4_64"):
        t = rng.choice([".b32", ".u32", ".f32"]) if k == "vec8" else rng.choice(
            [".b64", ".u64", ".f64"])
        v = ".v8" if k == "vec8" else ".v4"
        I.set("type", t, o)
        I.set("vec", v, o)
        I.ops[1] = vec_text(sources(rng, t, VEC_N[v]))
    elif k == "small_type":
        t = rng.choice([".b8", ".b16", ".u8", ".u16", ".s8", ".s16", ".f16", ".bf16"])
        I.set("type", t, o)
        I.remove("vec")
        I.ops[1] = rng.choice(["%rs2", "%rb1", "%u16_1", "%r3", "%h1"])
    elif k == "b128":
        I.set("type", ".b128", o)
        I.remove("vec")
        I.ops[1] = "%q1" if ctx.has_b128 else "%rd7"
    elif k == "vec_count":
        v = I.get("vec") or ".v2"
        I.set("vec", v, o)
        t = I.get("type")
        cnt = rng.choice([c for c in (1, 2, 3, 4, 8) if c != VEC_N[v]])
        I.ops[1] = vec_text(sources(rng, t, cnt))
    elif k == "vec_scalar":
        if I.get("vec"):
            I.ops[1] = sources(rng, I.get("type"), 1)[0]
        else:
            I.ops[1] = vec_text(sources(rng, I.get("type"), 2))
    elif k == "no_mbar":
        I.ops = I.ops[:2]
    elif k == "extra_op":
        I.ops = I.ops + [rng.choice(["%rd5", "[%rd7]", "0", "%r3"])]
    elif k == "mbar_noreg":
        I.ops[2] = rng.choice(["%rd6", "mbar", "[%f1]", "[%rs1]", "[]", "[nosuch]", "[%p1]"])
    elif k == "imm_addr":
        I.ops[0] = rng.choice(["[100]", "[0]", "[16]"])
    elif k == "scope_bad":
        I.set("scope", rng.choice([".cta", ".gpu", ".sys", ".cluster"]), o)
    elif k == "src_type":
        t = I.get("type")
        cls = rng.choice([c for c in REGS if c != "b128" or ctx.has_b128])
        if I.get("vec"):
            I.ops[1] = vec_text([pick_reg(rng, cls)] * VEC_N[I.get("vec")])
        else:
            I.ops[1] = pick_reg(rng, cls)
    elif k in ("hint", "cop", "l1"):
        tok = {"hint": ".L2::cache_hint", "cop": rng.choice(COPS), "l1": rng.choice(L1S)}[k]
        I.quals.insert(len(I.quals) - 1, ("junk", tok))
        if k == "hint":
            I.ops.append("%rd5")
    elif k == "cm_dup":
        I.quals.insert(len(I.quals) - 1, ("cm", CM))
    elif k == "global_addr":
        I.ops[0] = rng.choice(["[gbuf]", "[%rd2]", "[lbuf]"])
    elif k == "sem_bad":
        I.set("sem", rng.choice([".relaxed", ".volatile", ".acquire", ".release"]), o)
    elif k == "order":
        rng.shuffle(I.quals)
    elif k == "gate":
        I, _ = async_valid(ctx, rng, gated=False, form=form)
    elif k == "reg32_addr":
        I.ops[0] = rng.choice(["[%r1]", "[%r3+4]", "[%rs1]", "[%u32_1]"])
    elif k == "opcode":
        I.op = rng.choice(["st.asynch", "st.async.async", "stasync", "st.sync", "ST.async",
                           "st.async.bulk", "red.async", "st.async::cluster"])
    elif k == "missing_semi":
        return I.render()[:-1], "st.async.mut." + k
    elif k == "no_sem":
        I.remove("sem")
    elif k == "no_scope":
        I.remove("scope")
    elif k == "mmio_gpu":
        I.set("mmio", ".mmio", o)
        I.set("scope", rng.choice([".gpu", ".cta", ".cluster"]), o)
    elif k == "relaxed":
        I.set("sem", ".relaxed", o)
    elif k == "vec":
        v = rng.choice([".v2", ".v4"])
        I.set("vec", v, o)
        I.ops[1] = vec_text(sources(rng, I.get("type"), VEC_N[v]))
    elif k == "cm":
        I.set("cm", CM, o)
    elif k == "extra_mbar":
        I.ops.append(rng.choice(["[mbar]", "[%rd6]", "[%r3]"]))
    elif k == "no_global_mbar":
        I.remove("space")
        I.ops.append(rng.choice(["[mbar]", "[%rd6]"]))
    elif k == "weak":
        I.set("sem", ".weak", o)
    elif k == "volatile":
        I.set("sem", ".volatile", o)
    elif k == "missing_src":
        I.ops = I.ops[:1]
    elif k == "dup_sem":
        I.insert("sem", ".release", o)
    return I.render(), "st.async.mut.%s.%s" % (form, k)


# --------------------------------------------------------------------------
# tcgen05.st

TC_SHAPES = {".16x64b": 1, ".16x128b": 2, ".16x256b": 4, ".32x32b": 1, ".16x32bx2": 1}
TC_MAX = {".16x64b": 128, ".32x32b": 128, ".16x32bx2": 128, ".16x128b": 64, ".16x256b": 32}
TC_NUMS = [1, 2, 4, 8, 16, 32, 64, 128]
TC_ORDER = ["sync", "aligned", "shape", "num", "unpack", "type"]


def tc_regs(rng, count, cls=None):
    pool = REGS[cls] if cls else REGS["b32"]
    if cls is None and rng.random() < 0.15:
        # .b32 registers mix with any one other 32-bit class
        pool = REGS["b32"] + REGS[rng.choice(["f32", "u32", "s32"])]
    start = rng.randrange(len(pool))
    return [pool[(start + i) % len(pool)] for i in range(count)]


def tc_num(rng, maxn):
    nums = [n for n in TC_NUMS if n <= maxn]
    weights = [8, 7, 6, 5, 3, 2, 1, 1][:len(nums)]
    return choice_w(rng, list(zip(weights, nums)))


def tc_valid(ctx, rng):
    I = Instr("tcgen05.st")
    shape = rng.choice(list(TC_SHAPES))
    num = tc_num(rng, TC_MAX[shape])
    I.set("sync", ".sync", TC_ORDER)
    if rng.random() < 0.92:
        I.set("aligned", ".aligned", TC_ORDER)
    I.set("shape", shape, TC_ORDER)
    I.set("num", ".x%d" % num, TC_ORDER)
    if rng.random() < 0.3:
        I.set("unpack", ".unpack::16b", TC_ORDER)
    I.set("type", ".b32", TC_ORDER)
    taddr = choice_w(rng, [(5, "[%r1]"), (2, "[%r3]"), (1, "[%u32_1]"), (1, "[%r1+16]"),
                           (1, "[%r3+-32]")])
    regs = tc_regs(rng, num * TC_SHAPES[shape])
    I.ops = [taddr]
    if shape == ".16x32bx2":
        I.ops.append(rng.choice(["0", "16", "32", "64", "128", "256", "8", "1"]))
    I.ops.append(vec_text(regs))
    if rng.random() < 0.08:
        I.pred = "@%p1 "
    if rng.random() < 0.08:
        rng.shuffle(I.quals)
    return I, shape, num


def tc_mut(ctx, rng):
    I, shape, num = tc_valid(ctx, rng)
    I.pred = ""
    k = rng.choice(["count_pm1", "count_factor", "count_factor", "bad_num", "illegal_num",
                    "illegal_num", "no_sync", "no_sync_aligned", "no_shape", "no_num", "no_type",
                    "bad_type", "reg64", "reg16", "regf32", "imm_elem", "sink", "scalar", "pack",
                    "unpack_bad", "unpack_dup", "split_missing", "split_extra", "split_reg",
                    "split_float", "taddr64", "taddr_var", "taddr_imm", "cta_group", "order",
                    "dup_shape", "bad_shape", "extra_op", "opcode", "missing_semi", "wait"])
    o = TC_ORDER
    factor = TC_SHAPES[shape]
    regs_at = len(I.ops) - 1
    if k == "count_pm1":
        n = num * factor + rng.choice([-1, 1])
        I.ops[regs_at] = vec_text(tc_regs(rng, max(n, 1) if n > 0 else 2))
    elif k == "count_factor":
        wrong = rng.choice([f for f in (1, 2, 4, 8) if f != factor])
        n = min(num * wrong, 256)
        I.ops[regs_at] = vec_text(tc_regs(rng, n))
    elif k == "bad_num":
        I.set("num", rng.choice([".x0", ".x3", ".x256", ".x6", ".x1024", ".x", ".X4", ".n4"]), o)
    elif k == "illegal_num":
        sh = rng.choice([".16x128b", ".16x256b", ".16x256b"])
        mx = TC_MAX[sh]
        n = rng.choice([x for x in TC_NUMS if x > mx])
        I.set("shape", sh, o)
        I.set("num", ".x%d" % n, o)
        I.ops = [I.ops[0], vec_text(tc_regs(rng, min(n * TC_SHAPES[sh], 256)))]
    elif k == "no_sync":
        I.remove("sync")
    elif k == "no_sync_aligned":
        I.remove("sync")
        I.remove("aligned")
    elif k == "no_shape":
        I.remove("shape")
    elif k == "no_num":
        I.remove("num")
    elif k == "no_type":
        I.remove("type")
    elif k == "bad_type":
        I.set("type", rng.choice([".b16", ".b64", ".u32", ".s32", ".f32", ".b8", ".b128",
                                  ".f16x2"]), o)
    elif k in ("reg64", "reg16", "regf32"):
        cls = {"reg64": rng.choice(["b64", "f64", "u64"]), "reg16": rng.choice(["b16", "f16"]),
               "regf32": rng.choice(["f32", "f16x2", "u32", "s32"])}[k]
        regs = tc_regs(rng, num * factor)
        regs[rng.randrange(len(regs))] = pick_reg(rng, cls)
        if rng.random() < 0.5:
            regs = tc_regs(rng, num * factor, cls)
        I.ops[regs_at] = vec_text(regs)
    elif k == "imm_elem":
        regs = tc_regs(rng, num * factor)
        regs[rng.randrange(len(regs))] = rng.choice(["0", "1", "0f3F800000"])
        I.ops[regs_at] = vec_text(regs)
    elif k == "sink":
        regs = tc_regs(rng, num * factor)
        regs[rng.randrange(len(regs))] = "_"
        I.ops[regs_at] = vec_text(regs)
    elif k == "scalar":
        I.set("num", ".x1", o)
        if shape in (".16x128b", ".16x256b"):
            I.set("shape", ".32x32b", o)
        I.ops = I.ops[:-1] + ["%r2"]
    elif k == "pack":
        I.set("unpack", rng.choice([".pack::16b", ".unpack::32b", ".unpack::8b", ".unpack",
                                    ".pack::16b.unpack::16b"]), o)
    elif k == "unpack_dup":
        I.set("unpack", ".unpack::16b", o)
        I.insert("unpack", ".unpack::16b", o)
    elif k == "unpack_bad":
        I.set("unpack", ".unpack::16b", o)
        I.quals = [q for q in I.quals if q[0] != "unpack"] + [("unpack", ".unpack::16b")]
    elif k == "split_missing":
        if shape == ".16x32bx2":
            I.ops = [I.ops[0], I.ops[-1]]
        else:
            I.set("shape", ".16x32bx2", o)
    elif k == "split_extra":
        if shape != ".16x32bx2":
            I.ops = [I.ops[0], rng.choice(["16", "0", "32"]), I.ops[-1]]
        else:
            I.ops = [I.ops[0], "16", "16", I.ops[-1]]
    elif k in ("split_reg", "split_float"):
        I.set("shape", ".16x32bx2", o)
        n = min(num, 128)
        I.set("num", ".x%d" % n, o)
        I.ops = [I.ops[0], rng.choice(["%r3", "%rd7", "%rs2"]) if k == "split_reg"
                 else rng.choice(["1.0", "0f41800000", "-16", "4294967296", "0x10"]),
                 vec_text(tc_regs(rng, n))]
    elif k == "taddr64":
        I.ops[0] = rng.choice(["[%rd1]", "[%rd3]", "[%u64_1]", "[%rd3+16]"])
    elif k == "taddr_var":
        I.ops[0] = rng.choice(["[sbuf]", "[gbuf]", "[mbar]", "[%rs1]", "[%f1]", "[%p1]", "[nosuch]",
                               "%r1", "[]"])
    elif k == "taddr_imm":
        I.ops[0] = rng.choice(["[0]", "[100]", "[0x10000]"])
    elif k == "cta_group":
        I.quals.insert(rng.randrange(len(I.quals) + 1),
                       ("junk", rng.choice([".cta_group::1", ".cta_group::2", ".warpx2",
                                            ".shared::cta", ".global", ".relaxed", ".async"])))
    elif k == "order":
        rng.shuffle(I.quals)
    elif k == "dup_shape":
        I.insert("shape", rng.choice(list(TC_SHAPES)), o)
    elif k == "bad_shape":
        I.set("shape", rng.choice([".32x64b", ".16x512b", ".16x32b", ".32x32bx2", ".16x64bx2",
                                   ".64x32b", ".16x256"]), o)
    elif k == "extra_op":
        I.ops.append(rng.choice(["%r3", "[%r1]", "0"]))
    elif k == "opcode":
        I.op = rng.choice(["tcgen05.stt", "tcgen04.st", "tcgen05.store", "tcgen05", "tcgen05.ld",
                           "tcgen05.st.st", "TCGEN05.st"])
    elif k == "missing_semi":
        return I.render()[:-1], "tcgen05.mut." + k
    elif k == "wait":
        I.quals.insert(0, ("junk", rng.choice([".wait::st", ".wait"])))
    return I.render(), "tcgen05.mut." + k


# --------------------------------------------------------------------------
# Negative controls: non-store instructions

CONTROLS_OK = [
    "add.s32 %r3, %r4, %r5;", "mov.u64 %rd7, gbuf;", "mov.u32 %r3, sbuf;",
    "ld.global.b32 %r3, [%rd2];", "ld.shared.b32 %r4, [sbuf+4];", "cvt.rn.f32.s32 %f1, %r3;",
    "mul.lo.s32 %r3, %r4, 7;", "setp.eq.s32 %p1, %r3, %r4;", "mov.b32 %r5, 5;",
    "and.b32 %r3, %r4, 255;", "shl.b64 %rd7, %rd8, 3;", "mad.lo.s32 %r3, %r4, %r5, %r6;",
    "bar.sync 0;", "membar.gl;", "cvta.to.global.u64 %rd7, %rd1;", "ld.volatile.global.u32 %r3, [%rd2];",
    "atom.global.add.u32 %r3, [%rd2], 1;", "red.global.add.u32 [%rd2], 1;",
    "selp.b32 %r3, %r4, %r5, %p1;", "ld.local.b32 %r3, [lbuf];", "ld.param.b32 %r3, [parg];",
    "mov.b64 %rd7, %fd1;", "cvt.u64.u32 %rd7, %r3;", "add.f32 %f1, %f2, %f3;",
    "ld.global.v2.b32 {%r3, %r4}, [%rd2];", "mov.u32 %r3, %tid.x;", "not.b32 %r3, %r4;",
    "fence.sc.sys;", "prefetch.global.L2 [%rd2];", "st.global.b32 [%rd2], %r3;",
]
CONTROLS_VERSIONED = [
    "fence.acq_rel.gpu;", "ld.relaxed.gpu.global.b32 %r3, [%rd2];",
    "ld.acquire.sys.global.b64 %rd7, [%rd2];", "atom.relaxed.gpu.global.add.u32 %r3, [%rd2], 1;",
    "mbarrier.init.shared.b64 [mbar], 1;", "createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;",
    "ld.global.L1::evict_last.b32 %r3, [%rd2];", "ld.global.L2::cache_hint.b32 %r3, [%rd2], %rd5;",
    "mov.b128 %q1, {%rd7, %rd8};", "mov.b128 {%rd7, %rd8}, %q1;", "ld.global.b128 %q1, [%rd2];",
    "ld.global.v8.b32 {%r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10}, [%rd2];",
    "tcgen05.wait::st.sync.aligned;", "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r3}, [%r1];",
    "mapa.shared::cluster.u64 %rd7, %rd3, 1;", "fence.proxy.async;",
    "ld.shared::cluster.b32 %r3, [%rd3];", "red.async.relaxed.cluster.shared::cluster"
    ".mbarrier::complete_tx::bytes.add.u32 [%rd3], 1, [mbar];",
    "cp.async.bulk.global.shared::cta.bulk_group [%rd2], [sbuf], 16;",
    "st.bulk.weak [%rd2], 64, 0;", "ld.global.nc.b32 %r3, [%rd2];",
]
CONTROLS_BAD = [
    "add.s32 %r3, %r4;", "add.s32 %r3, %r4, %rd5;", "mov.u32 %r3, %rd7;",
    "ld.global.b32 [%rd2], %r3;", "ld.b32 %r3;", "foo.b32 %r3, %r4;", "add %r3, %r4, %r5;",
    "mov.u64 %rd7, nosuch;", "cvt.f32.s32 %f1, %r3;", "ld.global.v3.b32 {%r3, %r4, %r5}, [%rd2];",
    "bra NOLABEL;", "ld.global.b32 %r3, [%rd2-4];", "mul.s32 %r3, %r4, %r5;",
    "ld.const.b32 %r3, [gbuf];", "add.s32 %r3, %r4, %r5", "setp.s32 %p1, %r3, %r4;",
    "ld.global.b32 %p1, [%rd2];", "mov.b32 %r3, %rd7, %rd8;", "ret %r3;",
    "membar.cta.gpu;", "ld.relaxed.global.b32 %r3, [%rd2];", "stt.global.b32 [%rd2], %r3;",
    "ld.global.b32 %r3, [%rd2], %rd5;", "atom.global.add.u32 [%rd2], 1;",
    "red.global.add.u32 %r3, [%rd2], 1;", "ld.volatile.local.b32 %r3, [lbuf];",
    "mov.u32 %r3, 4294967296;", "add.s32 %r99, %r4, %r5;", "{ add.s32 %r3, %r4, %r5;",
    "ld.global.b32 %r3, [cvar];",
]


def control_case(ctx, rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(CONTROLS_OK), "control.ok"
    if r < 0.6:
        return rng.choice(CONTROLS_VERSIONED), "control.versioned"
    return rng.choice(CONTROLS_BAD), "control.bad"


# --------------------------------------------------------------------------
# Issue-8 families: forms the first corpora missed (st.async without [mbar] or scope,
# .cluster with other spaces, repeated qualifiers, float immediates of the other width,
# constant expressions, addend sources, st.bulk).

INT_TYPES = [".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16",
             ".s32", ".s64"]
ALL_REG_CLASSES = ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "f16x2", "b32", "u32", "s32",
                   "f32", "b64", "u64", "s64", "f64", "pred"]


def expr_literal(rng):
    v = choice_w(rng, [(6, rng.randint(0, 16)), (2, rng.choice([32, 64, 100, 255, 256, 4096])),
                       (1, rng.choice([2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1]))])
    form = choice_w(rng, [(6, "dec"), (3, "hex"), (1, "oct"), (1, "bin"), (1, "U")])
    if form == "hex":
        return rng.choice(["0x%x", "0X%X"]) % v
    if form == "oct" and v:
        return "0%o" % v
    if form == "bin" and v < 4096:
        return "0b" + bin(v)[2:]
    if form == "U":
        return "%dU" % v
    return str(v)


def expr_text(rng, depth=0):
    """A C constant expression as ptxas takes it (mostly well formed)."""
    r = rng.random()
    if depth >= 3 or r < 0.3:
        return expr_literal(rng)
    if r < 0.45:
        return rng.choice(["-", "~", "!", "+", "-"]) + expr_text(rng, depth + 1)
    if r < 0.6:
        return "(" + expr_text(rng, depth + 1) + ")"
    if r < 0.67:
        return "(%s?%s:%s)" % (expr_text(rng, depth + 1), expr_text(rng, depth + 1),
                               expr_text(rng, depth + 1))
    op = rng.choice(["+", "-", "*", "/", "% ", "<<", ">>", "&", "|", "^", "&&", "||", "==",
                     "!=", "<", ">", "<=", ">="])
    sp = " " if rng.random() < 0.3 else ""
    a, b = expr_text(rng, depth + 1), expr_text(rng, depth + 1)
    if op in ("/", "% ") and rng.random() < 0.8:
        b = "(%s|1)" % b  # mostly nonzero divisors
    return "%s%s%s%s%s" % (a, sp, op, sp, b)


def expr_broken(rng):
    """An expression ptxas should reject (or a near miss it accepts)."""
    e = expr_text(rng, 1)
    k = rng.choice(["div0", "mod0", "float", "lower_u", "bad_oct", "empty_hex", "paren_open",
                    "paren_close", "split_op", "mod_reg", "trailing_op", "overflow", "wrap",
                    "float_mix", "reg", "minus_f", "empty_parens"])
    return {
        "div0": "%s/0" % e, "mod0": "(%s %% 0)" % e, "float": rng.choice(["4.0", "1.5e3", "0f3F800000"]),
        "lower_u": "%su" % rng.randint(0, 9), "bad_oct": "0%d" % rng.choice([8, 9, 18]),
        "empty_hex": "0x", "paren_open": "(" + e, "paren_close": e + ")",
        "split_op": "1 %s 2" % rng.choice(["< <", "> >", "& &", "| |", "= =", "! ="]),
        "mod_reg": "4 %%%d" % rng.randint(1, 3), "trailing_op": e + rng.choice(["+", "*", "<<"]),
        "overflow": rng.choice(["99999999999999999999", "0xfffffffffffffffff",
                                "0b" + "1" * 66, "010000000000000000000000"]),
        "wrap": rng.choice(["18446744073709551616", "0x1ffffffffffffffff",
                            "36893488147419103232"]),
        "float_mix": "(%s*2.0)" % e, "reg": "%s+%%r%d" % (e, rng.randint(1, 3)),
        "minus_f": "-0f3F800000", "empty_parens": "()",
    }[k]


def i8_const_expr(ctx, rng):
    e = expr_text(rng) if rng.random() < 0.7 else expr_broken(rng)
    where = choice_w(rng, [(5, "reg"), (2, "var"), (2, "imm"), (1, "src"), (1, "addend"),
                           (1, "async"), (1, "mbar")])
    t = rng.choice([".u32", ".b32", ".u64", ".b64", ".u8", ".s16"])
    src = {".u32": "%r3", ".b32": "%r4", ".u64": "%rd8", ".b64": "%rd9", ".u8": "%rs2",
           ".s16": "%rs3"}[t]
    sp = rng.choice(["", ".global", ".shared", ".local"])
    base = {"": "%rd1", ".global": "%rd2", ".shared": "%rd3", ".local": "%rd4"}[sp]
    if where == "reg":
        return "st%s%s [%s+%s], %s;" % (sp, t, base, e, src), "i8.expr.reg"
    if where == "var":
        v = {"": "gbuf", ".global": "gbuf", ".shared": "sbuf", ".local": "lbuf"}[sp]
        return "st%s%s [%s+%s], %s;" % (sp, t, v, e, src), "i8.expr.var"
    if where == "imm":
        s2 = rng.choice([".local", ".local", ".local", "", ".global"])
        lead = rng.choice(["", "", "+"])
        return "st%s%s [%s%s], %s;" % (s2, t, lead, e, src), "i8.expr.imm"
    if where == "src":
        return "st%s%s [%s], %s;" % (sp, t, base, e), "i8.expr.src"
    if where == "addend":
        return "st%s%s [%s], %s+%s;" % (sp, t, base, src, e), "i8.expr.addend"
    if where == "async" and ctx.feats(True)["st_async"]:
        return ("st.async.shared::cluster%s.b32 [%%rd3+%s], %%r5, [%%rd6];" % (CM, e),
                "i8.expr.async")
    return ("st.async.shared::cluster%s.b64 [%%rd3], %%rd8, [%%rd6+%s];" % (CM, e),
            "i8.expr.mbar")


def i8_async_bare(ctx, rng):
    """st.async without [mbar], scope or .release (ptxas: the base gates, no store)."""
    t = rng.choice(ASYNC_REL_TYPES + [".f32", ".f64"])
    quals = ""
    r = rng.random()
    if r < 0.25:
        quals += rng.choice([".shared::cluster", ".global", ".shared::cta", ".shared", ".weak",
                             ".mmio", ".release", ".relaxed"])
    if r > 0.85:
        quals += rng.choice([".v2", ".v4", CM])
    addr = rng.choice(["[%rd1]", "[%rd3]", "[%r1]", "[gbuf]", "[sbuf+4]", "[%rd2+8]"])
    n = tbits(t) if t[2:].isdigit() else 32
    src = rng.choice(REGS[{8: "b8", 16: "b16", 32: "b32", 64: "b64"}.get(n, "b32")])
    if ".v2" in quals:
        src = "{%s, %s}" % (src, src)
    if ".v4" in quals:
        src = "{%s, %s, %s, %s}" % (src, src, src, src)
    if rng.random() < 0.15:
        src = rng.choice(["1", "0f3F800000", "%rd8", "%r3+1"])
    return "st.async%s%s %s, %s;" % (quals, t, addr, src), "i8.async_bare"


def i8_cluster_scope(ctx, rng):
    sp = rng.choice(["", ".global", ".shared", ".shared::cta", ".shared::cluster", ".local",
                     ".param"])
    sem = rng.choice([".relaxed", ".release"])
    t = rng.choice([".u32", ".b64", ".f32"])
    src = {".u32": "%r3", ".b64": "%rd8", ".f32": "%f1"}[t]
    addr = {"": "[%rd1]", ".global": "[%rd2]", ".shared": "[%rd3]", ".shared::cta": "[%r1]",
            ".shared::cluster": "[%rd3]", ".local": "[%rd4]", ".param": "[parg]"}[sp]
    if rng.random() < 0.3 and ctx.feats(True)["st_async"]:
        sp2 = rng.choice([".shared::cluster", ".shared::cta", ".shared", "", ".global"])
        return ("st.async%s.cluster%s%s.b32 [%%rd3], %%r5, [%%rd6];" % (
            rng.choice(["", ".relaxed", ".release"]), sp2, CM), "i8.cluster.async")
    return "st%s.cluster%s%s %s, %s;" % (sem, sp, t, addr, src), "i8.cluster.st"


def i8_repeat(ctx, rng):
    fam = choice_w(rng, [(6, "st"), (2, "async"), (2, "tc")])
    if fam == "st":
        I, _ = st_valid(ctx, rng, gated=True)
    elif fam == "async":
        I, _ = async_valid(ctx, rng, gated=True)
    else:
        I, _, _ = tc_valid(ctx, rng)
    if not I.quals:
        return I.render(), "i8.repeat." + fam
    q = rng.choice(I.quals)
    pos = rng.randint(0, len(I.quals))
    I.quals.insert(pos, q)
    return I.render(), "i8.repeat." + fam


FLOAT_IMMS = ["0f3F800000", "0d3FF0000000000000", "1.0", "-1.5", "-0f3F800000",
              "-0d3FF0000000000000", "0f00000000", "1e3", "0F3F800000", "0D3FF0000000000000"]


def i8_float_imm(ctx, rng):
    t = rng.choice([".f32", ".f64", ".b32", ".b64", ".u32", ".s64", ".b16", ".b8", ".f32",
                    ".f64"])
    r = rng.random()
    if r < 0.55:
        return "st%s [%%rd1], %s;" % (t, rng.choice(FLOAT_IMMS)), "i8.float.scalar"
    if r < 0.85:
        vt = rng.choice([".f32", ".b32", ".u32", ".f64", ".b64", ".b16"])
        # immediates only: lists that mix immediates with registers follow ptxas rules
        # stu does not model (see docs/check.md)
        lit = rng.choice(FLOAT_IMMS)
        els = [lit, rng.choice([lit, lit, "1", "-1"])]
        rng.shuffle(els)
        return "st.v2%s [%%rd1], {%s};" % (vt, ", ".join(els)), "i8.float.vector"
    if ctx.feats(True)["st_async"]:
        at = rng.choice([".f32", ".f64", ".b32", ".b64", ".u32"])
        return ("st.async.shared::cluster%s%s [%%rd3], %s, [%%rd6];" % (
            CM, at, rng.choice(FLOAT_IMMS)), "i8.float.async")
    return "st%s [%%rd1], %s;" % (t, rng.choice(FLOAT_IMMS)), "i8.float.scalar"


def i8_addend(ctx, rng):
    cls = rng.choice(ALL_REG_CLASSES)
    reg = rng.choice(REGS[cls])
    k = rng.choice(["1", "-1", "4", "0x10", "(2)", "2*2"])
    sep = rng.choice(["+", "+", "+-"]) if k[0] != "-" else "+"
    src = "%s%s%s" % (reg, sep, k.lstrip("-") if sep == "+-" else k)
    r = rng.random()
    F = ctx.feats(True)
    if r < 0.6 or not F["st_async"]:
        t = rng.choice(TYPES[:-2] + [".f32", ".f64", ".f32", ".f64"])
        if t == ".b128" and not ctx.has_b128:
            t = ".b64"
        return "st%s [%%rd1], %s;" % (t, src), "i8.addend.st"
    if r < 0.85:
        t = rng.choice(ASYNC_MB_TYPES)
        return ("st.async.shared::cluster%s%s [%%rd3], %s, [%%rd6];" % (CM, t, src),
                "i8.addend.async_mbar")
    t = rng.choice([".u32", ".b64", ".u64"])
    q = rng.choice([".release.gpu.global", ".global", "", ".gpu.global", ".release.sys"])
    return "st.async%s%s [%%rd1], %s;" % (q, t, src), "i8.addend.async_release"


def i8_bulk(ctx, rng):
    quals = choice_w(rng, [(4, ""), (3, ".weak"), (4, ".shared::cta"), (4, ".weak.shared::cta"),
                           (1, ".shared::cta.weak"), (2, rng.choice([
                               ".weak.weak", ".relaxed", ".cta", ".shared", ".global",
                               ".shared::cluster", ".local", ".b64", ".v2", ".volatile",
                               ".release.cta", ".L2::cache_hint", ".async", ".shared::cta.shared::cta"]))])
    cta = ".shared::cta" in quals
    addr = choice_w(rng, [(4, "[%r2]" if cta else "[%rd1]"), (3, "[%rd3]"),
                          (2, "[%r1+8]"), (1, rng.choice(["[sbuf]", "[gbuf]", "[lbuf]", "[parg]",
                                                         "[cvar]", "[%rs1]", "[%f1]", "[8]",
                                                         "[%rd3+(2*4)]", "[fsbuf]"]))])
    size = choice_w(rng, [(4, rng.choice(["%rd2", "%u64_1", "%s64_1"])),
                          (4, str(8 * rng.randint(0, 64))),
                          (2, rng.choice(["0", "8", "16777216", "16777224", "12", "4", "-8",
                                          "0x40", "64U", "8*8", "(64)", "%r3", "%rs1", "%fd1",
                                          "1.0", "%rd2+8", "0xffffffffffffffff", "_"]))])
    init = choice_w(rng, [(8, "0"), (1, rng.choice(["1", "-1", "0x0", "(0)", "1-1", "0U",
                                                    "0f00000000", "%r3", "%rd2"]))])
    ops = [addr, size, init]
    r = rng.random()
    if r < 0.05:
        ops = ops[:2]
    elif r < 0.08:
        ops = ops + ["%rd2"]
    pred = rng.choice(["", "", "", "", "@%p1 ", "@!%p2 "])
    return "%sst.bulk%s %s;" % (pred, quals, ", ".join(ops)), "i8.bulk"


I8_FAMILIES = [(4, i8_const_expr), (2, i8_async_bare), (2, i8_cluster_scope), (2, i8_repeat),
               (2, i8_float_imm), (2, i8_addend), (3, i8_bulk)]


# --------------------------------------------------------------------------
# Case generation


def gen_case(ctx, rng):
    fam = choice_w(rng, [(56, "st"), (13, "async"), (13, "tc"), (9, "control"), (9, "issue8")])
    valid = rng.random() < 0.45
    if fam == "control":
        return control_case(ctx, rng)
    if fam == "issue8":
        return choice_w(rng, I8_FAMILIES)(ctx, rng)
    if fam == "st":
        if valid:
            I, info = st_valid(ctx, rng, gated=True)
            return I.render(), "st.valid"
        fn = choice_w(rng, ST_MUTS)
        return fn(ctx, rng)
    if fam == "async":
        if valid:
            I, form = async_valid(ctx, rng, gated=rng.random() < 0.9)
            return I.render(), "st.async.valid." + form
        return async_mut(ctx, rng)
    if valid:
        I, shape, num = tc_valid(ctx, rng)
        return I.render(), "tcgen05.valid"
    return tc_mut(ctx, rng)


def corpus_texts(path):
    """Case texts of an existing corpus file (for --exclude-corpus)."""
    out = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if CASE_SEP in line and not line.startswith("//"):
                    out.add(line.strip().split(CASE_SEP, 1)[0])
    return out


CASE_SEP = "  // ptxas: "


def gen_cases(ctx, seed, count, exclude=()):
    rng = random.Random("%s/%s" % (seed, ctx.name))
    seen = set(exclude)
    cases = []
    tries = 0
    while len(cases) < count and tries < count * 50:
        tries += 1
        text, kind = gen_case(ctx, rng)
        text = text.strip()
        # labels must be unique within the module
        text = re.sub(r"^L_\d+:", "L_%d:" % len(cases), text)
        if "\n" in text or "/*" in text or "//" in text or not text or text in seen:
            continue
        seen.add(text)
        cases.append(dict(text=text, kind=kind))
    return cases


# --------------------------------------------------------------------------
# ptxas


DIAG_RE = re.compile(r"^ptxas (?:(?P<file>.+?), line (?P<line>\d+); )?"
                     r"(?P<sev>error|warning|fatal|info)\s*:\s*(?P<msg>.*?)\s*$")
EMBEDDED_LINE_RE = re.compile(r"on line '(\d+)'")
ABORTED = "Ptx assembly aborted due to errors"


class Ptxas:
    def __init__(self, workdir, extra_args=()):
        self.workdir = workdir
        self.extra = list(extra_args)
        self.runs = 0
        self.lock = threading.Lock()

    def run(self, target, text, tag):
        path = os.path.join(self.workdir, "%s.ptx" % tag)
        with open(path, "w") as f:
            f.write(text)
        cmd = ["ptxas", "-arch=%s" % target, "-o", "/dev/null"] + self.extra + [path]
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=300)
            out = p.stdout.decode("utf-8", "replace")
            rc = p.returncode
        except subprocess.TimeoutExpired:
            out, rc = "ptxas timed out", 124
        with self.lock:
            self.runs += 1
        diags, other = [], []
        for line in out.splitlines():
            m = DIAG_RE.match(line)
            if m:
                ln = int(m.group("line")) if m.group("line") else None
                msg = m.group("msg").strip()
                if ln is None:
                    em = EMBEDDED_LINE_RE.search(msg)
                    emb = int(em.group(1)) if em else None
                else:
                    emb = None
                diags.append(dict(line=ln, emb=emb, sev=m.group("sev"), msg=msg))
            elif line.strip():
                other.append(line.strip())
        return rc, diags, other


def ptxas_version():
    try:
        out = subprocess.run(["ptxas", "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT).stdout.decode()
    except OSError:
        return "unknown"
    for line in out.splitlines():
        if "release" in line:
            return line.strip()
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


def build_module(ctx, case_texts):
    pre = preamble_lines(ctx)
    first = len(pre) + 1  # 1-based line of the first case
    text = "\n".join(pre + case_texts + POSTAMBLE) + "\n"
    return text, first


def is_error(d):
    return d["sev"] in ("error", "fatal") and d["msg"] != ABORTED


def percase_verdict(ptx, ctx, case_text, tag, want_fatal=False):
    text, first = build_module(ctx, [case_text])
    rc, diags, other = ptx.run(ctx.target, text, tag)
    if want_fatal:
        fatal = any(d["sev"] == "fatal" and d["line"] is not None for d in diags)
        return percase_classify(rc, diags, other), fatal
    return percase_classify(rc, diags, other)


def percase_classify(rc, diags, other):
    errs = [d for d in diags if is_error(d)]
    if errs:
        return ("error", errs[0]["msg"])
    if rc != 0:
        msg = "; ".join(other[-2:]) if other else ("ptxas exited with status %d" % rc)
        if rc < 0:
            msg = "ptxas crashed (signal %d)%s" % (-rc, (": " + msg) if other else "")
        return ("error", msg)
    warns = [d for d in diags if d["sev"] == "warning"]
    if warns:
        return ("warning", warns[0]["msg"])
    return ("ok", "")


# Address operands with a register narrower than 64 bits make ptxas decide the
# module's address size (and fail a 32-bit ABI with a fatal error that names no
# line); one such line changes the verdict of another (a 16-bit address
# elsewhere turns the 32-bit fatal into a warning). Such cases are always run
# one per module.
NARROW_ADDR_RE = re.compile(r"\[\s*%(?!rd\d|u64_|s64_)[A-Za-z_][\w.]*")


def needs_isolation(case):
    return bool(NARROW_ADDR_RE.search(case["text"])) and not case["text"].lstrip(
        "@!%p0123456789 ").startswith("tcgen05")


BATCH = 64


def decide_group(ptx, ctx, cases, mode="batch", log=None):
    """Fill case['verdict'] = (kind, msg) and case['how'] for every case.

    Batch procedure (per group):
      1. Cases whose verdict can depend on other lines (narrow address
         registers) are run one per module.
      2. The rest are run as one module. A fatal (syntax) error at line L
         sends the case at L and the one before it (a missing ';' is reported
         on the next line) to per-case runs; the rest is re-run.
      3. Diagnostics that cannot be tied to a case line split the batch in
         halves (down to per-case runs).
      4. Otherwise every case with an error gets the first error reported on
         its line; the remaining cases are re-run on their own ("clean run"),
         because ptxas only runs its later checks on a module without errors.
         This repeats until a run reports no errors; warnings are then taken
         from that final clean run.
    Per-case runs are the reference: each is the preamble plus one case.
    """
    tag = ctx.name
    single = []
    batch = []
    for i, c in enumerate(cases):
        if mode == "percase" or needs_isolation(c):
            single.append(i)
        else:
            batch.append(i)
    stats = dict(batch_runs=0, percase_runs=0, fatal_splits=0, bisections=0, clean_reruns=0)
    # modules of at most BATCH cases: a syntax error costs a re-run of its
    # chunk only
    pending = [batch[k:k + BATCH] for k in range(0, len(batch), BATCH)][::-1]
    while pending:
        b = pending.pop()
        if len(b) <= 2:
            single.extend(b)
            continue
        text, first = build_module(ctx, [cases[i]["text"] for i in b])
        rc, diags, other = ptx.run(ctx.target, text, tag)
        stats["batch_runs"] += 1
        line2pos = lambda ln: ln - first if ln is not None and first <= ln < first + len(b) else None
        fatal = next((d for d in diags if d["sev"] == "fatal" and d["line"] is not None), None)
        if fatal is not None:
            stats["fatal_splits"] += 1
            pos = line2pos(fatal["line"])
            suspects = [] if pos is None else [b[j] for j in (pos - 1, pos) if 0 <= j < len(b)]
            # decide the suspects on their own right away
            culprit = False
            for i in suspects:
                v, f = percase_verdict(ptx, ctx, cases[i]["text"], tag, want_fatal=True)
                cases[i]["verdict"], cases[i]["how"] = v, "percase"
                stats["percase_runs"] += 1
                culprit = culprit or f
            rest = [i for i in b if i not in set(suspects)]
            if culprit or not rest:
                if rest:
                    pending.append(rest)
            else:
                # the syntax error comes from further away (e.g. an unclosed
                # brace reported at the end of the file): bisect
                stats["bisections"] += 1
                h = len(rest) // 2
                pending.extend([rest[:h], rest[h:]])
            continue
        per = {}
        unattributed = False
        for d in diags:
            if d["msg"] == ABORTED:
                continue
            ln = d["line"] if d["line"] is not None else d["emb"]
            pos = line2pos(ln)
            if pos is None:
                unattributed = True
                continue
            per.setdefault(pos, []).append(d)
        if rc < 0 or unattributed or (rc != 0 and not any(
                is_error(d) for ds in per.values() for d in ds)) or other:
            stats["bisections"] += 1
            h = len(b) // 2
            pending.extend([b[:h], b[h:]])
            continue
        err_pos = [p for p, ds in per.items() if any(is_error(d) for d in ds)]
        if err_pos:
            for p in err_pos:
                d = next(d for d in per[p] if is_error(d))
                cases[b[p]]["verdict"] = ("error", d["msg"])
                cases[b[p]]["how"] = "batch"
            rest = [b[p] for p in range(len(b)) if p not in set(err_pos)]
            if rest:
                stats["clean_reruns"] += 1
                pending.append(rest)
            continue
        # clean run: no errors at all
        for p, i in enumerate(b):
            w = [d for d in per.get(p, []) if d["sev"] == "warning"]
            cases[i]["verdict"] = ("warning", w[0]["msg"]) if w else ("ok", "")
            cases[i]["how"] = "batch"
    for i in sorted(set(single)):
        cases[i]["verdict"] = percase_verdict(ptx, ctx, cases[i]["text"], tag)
        cases[i]["how"] = "percase"
        stats["percase_runs"] += 1
    return stats


def norm_msg(msg):
    return EMBEDDED_LINE_RE.sub("on line 'N'", msg)


def validate_group(ptx, ctx, cases, sample, rng):
    """Re-run a sample of batch-decided cases one per module; return mismatches."""
    idx = [i for i, c in enumerate(cases) if c.get("how") == "batch"]
    if sample != "all":
        idx = sorted(rng.sample(idx, min(len(idx), sample)))
    mism = []
    for i in idx:
        v = percase_verdict(ptx, ctx, cases[i]["text"], ctx.name + "-val")
        b = cases[i]["verdict"]
        if (v[0], norm_msg(v[1])) != (b[0], norm_msg(b[1])):
            mism.append(dict(index=i, text=cases[i]["text"], kind=cases[i]["kind"], batch=b,
                             percase=v))
    return len(idx), mism


# --------------------------------------------------------------------------
# Output


def render_file(ctx, cases, header):
    pre = preamble_lines(ctx)
    lines = list(header) + pre
    for c in cases:
        ln = len(lines) + 1
        kind, msg = c["verdict"]
        msg = EMBEDDED_LINE_RE.sub("on line '%d'" % ln, msg)
        lines.append("\t%s%s%s" % (c["text"], CASE_SEP, kind if kind == "ok" else
                                    "%s: %s" % (kind, msg)))
    lines += POSTAMBLE
    return "\n".join(lines) + "\n"


def process_group(args, ptx, target, ver, pver, log):
    ctx = Ctx(target, ver)
    t0 = time.time()
    # the preamble alone must be accepted
    text, _ = build_module(ctx, [])
    rc, diags, other = ptx.run(ctx.target, text, ctx.name + "-pre")
    if rc != 0 or diags:
        log("%s: preamble rejected by ptxas, group dropped: %s" % (
            ctx.name, "; ".join(d["msg"] for d in diags) or "; ".join(other)))
        return None
    exclude = set()
    if args.exclude_corpus:
        exclude = set()
        for d in args.exclude_corpus:
            exclude |= corpus_texts(os.path.join(d, ctx.name + ".ptx"))
    cases = gen_cases(ctx, args.seed, args.count_per_group, exclude)
    stats = decide_group(ptx, ctx, cases, mode=args.mode)
    val = None
    if args.validate:
        vrng = random.Random("validate/%s/%s" % (args.seed, ctx.name))
        per_group = args.validate if args.validate == "all" else max(
            1, -(-int(args.validate) // len(args.groups_sel)))
        n, mism = validate_group(ptx, ctx, cases, per_group, vrng)
        val = dict(checked=n, mismatches=mism)
        if mism:
            # fall back to per-case runs for every case of the disagreeing kinds
            kinds = {m["kind"] for m in mism}
            for c in cases:
                if c["kind"] in kinds and c.get("how") == "batch":
                    c["verdict"] = percase_verdict(ptx, ctx, c["text"], ctx.name + "-fb")
                    c["how"] = "percase-fallback"
            val["fallback_kinds"] = sorted(kinds)
    header = [
        "// stu ptxas conformance corpus: %s (target %s, PTX ISA %d.%d)" % (
            ctx.name, ctx.target, ver[0], ver[1]),
        "// generator: %s" % args.canonical_cmd,
        "// seed: %s; cases: %d" % (args.seed, len(cases)),
        "// ptxas: %s" % pver,
        "// verdict of each case line = ptxas -arch=%s -o /dev/null on this preamble plus that "
        "one line" % ctx.target,
        "// case line format: <instruction>, two spaces, then a comment reading 'ptxas: ok', "
        "'ptxas: error: <first error>' or 'ptxas: warning: <first warning>'",
    ]
    out = render_file(ctx, cases, header)
    path = os.path.join(args.out, ctx.name + ".ptx")
    with open(path, "w") as f:
        f.write(out)
    counts = {"ok": 0, "error": 0, "warning": 0}
    kinds = {}
    for c in cases:
        counts[c["verdict"][0]] += 1
        kinds.setdefault(c["kind"], {"ok": 0, "error": 0, "warning": 0})[c["verdict"][0]] += 1
    log("%s: %d cases (ok %d, error %d, warning %d), %d batch runs, %d per-case runs, %.1fs%s" % (
        ctx.name, len(cases), counts["ok"], counts["error"], counts["warning"],
        stats["batch_runs"], stats["percase_runs"], time.time() - t0,
        "" if val is None else ", validated %d, %d mismatches" % (
            val["checked"], len(val["mismatches"]))))
    return dict(name=ctx.name, target=target, version="%d.%d" % ver, cases=len(cases),
                counts=counts, kinds=kinds, stats=stats, validation=val)


def verify_corpus(d, jobs, groups=None):
    """Re-run each case line of an existing corpus one per module."""
    names = {group_name(t, v): (t, v) for t, v in GROUPS}
    files = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".ptx") and f[:-4] in names)
    if groups:
        files = [f for f in files if f in set(groups)]
    workdir = tempfile.mkdtemp(prefix="gen_conformance.")
    ptx = Ptxas(workdir)
    lock = threading.Lock()
    bad = []
    total = [0]

    def one(name):
        ctx = Ctx(*names[name])
        lines = open(os.path.join(d, name + ".ptx")).read().split("\n")
        for ln, line in enumerate(lines, 1):
            if CASE_SEP not in line or line.startswith("//"):
                continue
            text, verdict = line.strip().split(CASE_SEP, 1)
            v = percase_verdict(ptx, ctx, text, name)
            got = v[0] if v[0] == "ok" else "%s: %s" % (v[0], EMBEDDED_LINE_RE.sub(
                "on line '%d'" % ln, v[1]))
            with lock:
                total[0] += 1
                if got != verdict:
                    bad.append("%s:%d: %s | recorded: %s | ptxas now: %s" % (
                        name, ln, text, verdict, got))

    t0 = time.time()
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
            list(ex.map(one, files))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for b in sorted(bad):
        print("DIFF " + b)
    print("verify: %d cases in %d files, %d differ (%.1fs)" % (total[0], len(files), len(bad),
                                                               time.time() - t0))
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", help="random seed (any string); the corpus is a function of it")
    ap.add_argument("--count-per-group", type=int, help="cases per (target, PTX version) group")
    ap.add_argument("--out", help="output folder (one .ptx per group, plus summary.json)")
    ap.add_argument("--verify", metavar="DIR",
                    help="instead of generating, re-run every case of the corpus in DIR one per "
                         "module and report verdicts that differ from the recorded ones")
    ap.add_argument("--groups", nargs="*", help="group names like sm_90-ptx80 (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="ptxas processes at once (default 2)")
    ap.add_argument("--mode", choices=["batch", "percase"], default="batch",
                    help="decide verdicts in batches (default) or one case per ptxas run; "
                         "both give the same files")
    ap.add_argument("--validate", default=None,
                    help="re-run N batch-decided cases (spread over the groups) one per "
                         "module, or 'all'; disagreeing kinds fall back to per-case runs")
    ap.add_argument("--exclude-corpus", metavar="DIR", action="append", default=[],
                    help="skip case lines that already appear in DIR/<group>.ptx (e.g. keep a "
                         "held-out corpus disjoint from the training corpus); repeatable")
    ap.add_argument("--ptxas-arg", action="append", default=[],
                    help="extra ptxas argument (experiments only, e.g. -c)")
    args = ap.parse_args(argv)
    if args.verify:
        return verify_corpus(args.verify, args.jobs, args.groups)
    if args.seed is None or args.count_per_group is None or args.out is None:
        ap.error("--seed, --count-per-group and --out are required (unless --verify)")
    if args.validate not in (None, "all"):
        args.validate = int(args.validate)
    all_names = [group_name(t, v) for t, v in GROUPS]
    if args.groups:
        bad = [g for g in args.groups if g not in all_names]
        if bad:
            ap.error("unknown group(s): %s (known: %s)" % (", ".join(bad), ", ".join(all_names)))
        sel = [(t, v) for t, v in GROUPS if group_name(t, v) in set(args.groups)]
    else:
        sel = list(GROUPS)
    args.groups_sel = sel
    cmd = "python3 scripts/gen_conformance.py --seed %s --count-per-group %d --out %s" % (
        args.seed, args.count_per_group, args.out)
    if args.groups:
        cmd += " --groups " + " ".join(group_name(t, v) for t, v in sel)
    for d in args.exclude_corpus:
        cmd += " --exclude-corpus " + d
    args.canonical_cmd = cmd
    if shutil.which("ptxas") is None:
        sys.exit("gen_conformance: ptxas not found on PATH")
    os.makedirs(args.out, exist_ok=True)
    pver = ptxas_version()
    lock = threading.Lock()

    def log(msg):
        with lock:
            print(msg, flush=True)

    t0 = time.time()
    workdir = tempfile.mkdtemp(prefix="gen_conformance.")
    try:
        ptx = Ptxas(workdir, args.ptxas_arg)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [ex.submit(process_group, args, ptx, t, v, pver, log) for t, v in sel]
            results = [f.result() for f in futs]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    results = [r for r in results if r]
    tot = {"ok": 0, "error": 0, "warning": 0}
    kinds = {}
    for r in results:
        for k in tot:
            tot[k] += r["counts"][k]
        for kd, cs in r["kinds"].items():
            acc = kinds.setdefault(kd, {"ok": 0, "error": 0, "warning": 0})
            for k in cs:
                acc[k] += cs[k]
    summary = dict(
        generator=cmd, seed=args.seed, count_per_group=args.count_per_group, ptxas=pver,
        groups={r["name"]: dict(target=r["target"], ptx=r["version"], cases=r["cases"],
                                **r["counts"]) for r in results},
        total=dict(cases=sum(tot.values()), **tot),
        kinds={k: kinds[k] for k in sorted(kinds)},
    )
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    el = time.time() - t0
    print("total: %d cases in %d groups (ok %d, error %d, warning %d); %d ptxas runs; %.1fs" % (
        sum(tot.values()), len(results), tot["ok"], tot["error"], tot["warning"], ptx.runs, el))
    if args.validate:
        n = sum(r["validation"]["checked"] for r in results)
        mism = [m for r in results for m in r["validation"]["mismatches"]]
        print("validation: %d batch verdicts re-run one per module, %d disagree" % (n, len(mism)))
        for m in mism[:50]:
            print("  MISMATCH %s | batch=%s | percase=%s" % (m["text"], m["batch"], m["percase"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
