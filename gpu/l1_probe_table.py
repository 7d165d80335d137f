#!/usr/bin/env python3
"""The table of a gpu/l1_probe run under Nsight Compute: for each case (wait, cold/warm, the
lanes that store, the lanes that read back, a second store's lanes) the read-back's L1 sector
hits/misses of every store form. The misses include a warm case's first load (its 4 misses).

    gpu/l1_probe_table.py NCU.csv LAUNCHES.txt
"""
import csv
import io
import re
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = open(argv[1]).read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    head = rows[0]
    col_id, col_metric, col_value = (head.index(k) for k in ("ID", "Metric Name", "Metric Value"))
    launch = {}
    for line in open(argv[2]):
        m = re.match(r"launch (\d+) (\S+) (\S+) store=(\S+) read=(\S+) then=(\S+) wait=(\S+)",
                     line)
        if m:
            launch[int(m.group(1))] = m.groups()[1:]
    counters = {}
    for r in rows[1:]:
        counters.setdefault(int(r[col_id]), {})[r[col_metric]] = r[col_value].replace(",", "")
    hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
    miss = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
    cases = {}
    for i in sorted(counters):
        form, state, store, read, then, wait = launch[i]
        c = counters[i]
        cases.setdefault((wait, state, store, read, then), []).append(
            "%s %s/%s" % (form, c[hit], c[miss]))
    print("# wait state store read then: form hits/misses of the read-back ...")
    for (wait, state, store, read, then), forms in cases.items():
        print("wait=%s %s store=%s read=%s then=%s:" % (wait, state, store, read, then))
        print("    " + "  ".join(forms))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
