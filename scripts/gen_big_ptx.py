#!/usr/bin/env python3
"""Write a large PTX module for measuring `stu check` throughput.

    scripts/gen_big_ptx.py --stores 200000 > /tmp/big.ptx
    build/stu check --stats /tmp/big.ptx
    scripts/gen_big_ptx.py --stores 200000 --warnings 7 > /tmp/warn.ptx
    build/stu check --stats /tmp/warn.ptx 2>/tmp/warn.diag

With --warnings P, about P % of the stores are valid forms on which stu (like ptxas, or per
the ISA text) warns: 16-bit addresses, .v8 of 16-bit elements, tcgen05.st without .aligned,
st.async's release form written without .release.

The kernels mix the store forms nvcc emits (vector, shared, strong, cache-hinted, local,
st.async, tcgen05.st) with non-store instructions, 2,000 stores per kernel.
"""
import argparse

FORMS = [
    "st.global.u32 [%rd{a}+{o}], %r{b};",
    "st.global.v4.f32 [%rd{a}+{o}], {{%f1, %f2, %f3, %f4}};",
    "st.shared.u32 [%r{a}+{o}], %r{b};",
    "st.relaxed.gpu.global.u64 [%rd{a}], %rd{b};",
    "@%p1 st.global.cs.v2.u32 [%rd{a}+{o}], {{%r{b}, %r2}};",
    "st.global.L2::cache_hint.b32 [%rd{a}], %r{b}, %rd3;",
    "st.release.sys.global.b64 [%rd{a}+-{o}], %rd{b};",
    "st.local.b8 [%rd{a}+{o}], %rs{b};",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%r{a}], {{%r{b}, %r3}}, [%r4];",
    "tcgen05.st.sync.aligned.32x32b.x4.b32 [%r{a}], {{%r1, %r2, %r3, %r{b}}};",
]

# Valid stores that draw a warning.
WARN_FORMS = [
    "st.global.u32 [%rs{b}], %r{a};",
    "st.global.v8.b16 [%rd{a}], {{%rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7, %rs{b}}};",
    "tcgen05.st.sync.32x32b.x2.b32 [%r{a}], {{%r1, %r{b}}};",
    "st.async.gpu.global.u32 [%rd{a}], %r{b};",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stores", type=int, default=200000)
    ap.add_argument("--warnings", type=float, default=0.0,
                    help="percentage of stores that draw a warning (default 0)")
    args = ap.parse_args()
    out = [".version 8.8", ".target sm_100a", ".address_size 64", ""]
    per_kernel = 2000
    for k in range((args.stores + per_kernel - 1) // per_kernel):
        out.append(f".visible .entry k{k}(.param .u64 p)")
        out.append("{")
        out += [".reg .pred %p<4>;", ".reg .b16 %rs<16>;", ".reg .b32 %r<64>;",
                ".reg .b64 %rd<64>;", ".reg .f32 %f<16>;"]
        n = min(per_kernel, args.stores - k * per_kernel)
        for i in range(n):
            j = k * per_kernel + i
            # Bresenham: store j warns when the running count of warnings steps up.
            warn = int((j + 1) * args.warnings / 100) > int(j * args.warnings / 100)
            forms = WARN_FORMS if warn else FORMS
            out.append("\t" + forms[i % len(forms)].format(a=i % 60 + 1, b=i * 7 % 15 + 1,
                                                           o=i % 64 * 4))
            if i % 4 == 3:
                out.append("\tadd.s32 %r5, %r6, %r7;")
        out += ["\tret;", "}", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
