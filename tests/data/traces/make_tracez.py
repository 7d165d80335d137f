#!/usr/bin/env python3
"""Writes an Accel-Sim 2.0 .tracez from a .traceg (the layout of accel-sim-framework's
util/tracer_nvbit/tracer_tool/tracez_format.h, docs/trace-formats.md), compressing each
sub-chunk with the `zstd` command (no dictionary). Made tests/data/traces/v4_modes.tracez:

    tests/data/traces/make_tracez.py tests/data/traces/v4_modes.traceg 3 > v4_modes.tracez

A writer independent of the C++ one in tests/unit/test_workload_trace.cpp: the unit tests read
its output and the .traceg it came from and expect the same records."""
import struct
import subprocess
import sys


def main():
    path, per_subchunk = sys.argv[1], int(sys.argv[2])
    header, ctas = [], []
    for line in open(path).read().split("\n"):
        if line.startswith("#BEGIN_TB"):
            ctas.append([None, []])
        elif not ctas:
            header.append(line)
        elif line.startswith("thread block"):
            ctas[-1][0] = [int(v) for v in line.split("=")[1].split(",")]
        elif line.startswith("warp"):
            ctas[-1][1].append([])
        elif line.startswith("insts") or line.startswith("#") or not line.strip():
            continue
        else:
            ctas[-1][1][-1].append(line)
    out = bytearray("\n".join(header).encode() + b"\0")
    out += struct.pack("<II", 0, per_subchunk)
    index = []
    for cta, warps in ctas:
        entries = []
        for insts in warps:
            chunks = [insts[i:i + per_subchunk] for i in range(0, len(insts), per_subchunk)]
            entries.append((len(insts), len(chunks), len(out), [len(c) for c in chunks]))
            out += struct.pack("<II", len(insts), len(chunks))
            for c in chunks:
                text = ("\n".join(c) + "\n").encode()
                frame = subprocess.run(["zstd", "-q", "-c", "-19", "--stream-size=%d" % len(text)], input=text,
                                       stdout=subprocess.PIPE, check=True).stdout
                out += struct.pack("<I", len(frame)) + frame
        index.append((cta, entries))
    index_at = len(out)
    out += struct.pack("<I", len(index))
    for cta, entries in index:
        out += struct.pack("<11I", *cta, 0, 0, 0, 0, 0, 0, 0, len(entries))
        for n, nsub, offset, counts in entries:
            out += struct.pack("<IIQ", n, nsub, offset) + struct.pack("<%dI" % nsub, *counts)
    out += struct.pack("<Q", index_at)
    sys.stdout.buffer.write(out)


main()
