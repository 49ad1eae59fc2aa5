#!/usr/bin/env python3
"""subset.py - the committed validation points: a subset of the full grid.

    subset.py [--all validation/rtl/axisgdma/points-all.csv]
              [--out configs/validation/axisgdma.csv]

Every width, entry count, segment size and layout appear together (each
combination once), each with one (read, write) latency pair taken in turn
from the 16 pairs of {1, 10, 30, 100}, so every pair meets every width,
layout and size; combinations of 4 KiB segments (several bursts on 32 and
64 bits) get a second pair. The rows keep the full table's order and
columns. The ctest validation_axisgdma scores these; docs/validation.md
gives the error over every point of the full table too.
"""
import argparse
import csv

LATENCIES = [1, 10, 30, 100]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", default="validation/rtl/axisgdma/points-all.csv")
    ap.add_argument("--out", default="configs/validation/axisgdma.csv")
    a = ap.parse_args()
    with open(a.all, newline="") as f:
        rows = list(csv.reader(f))
    header, points = rows[0], rows[1:]
    col = {k: header.index(k) for k in header}

    def shape(r):
        return tuple(r[col[k]] for k in ("bus.width_bytes", "workload.entries",
                                         "workload.segment_bytes", "workload.chain_depth"))

    shapes = []
    for r in points:
        if shape(r) not in shapes:
            shapes.append(shape(r))
    wanted = set()
    for i, s in enumerate(shapes):
        turns = [5 * i % 16] + ([(5 * i + 10) % 16] if s[2] == "4096" else [])
        for k in turns:
            wanted.add(s + (str(LATENCIES[k // 4]), str(LATENCIES[k % 4])))
    with open(a.out, "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(header)
        for r in points:
            lat = (r[col["memory.read_latency_cycles"]], r[col["memory.write_latency_cycles"]])
            if shape(r) + lat in wanted:
                wr.writerow(r)


if __name__ == "__main__":
    main()
