#!/usr/bin/env python3
"""run.py - run the axisgdma measurement grid and write the tables.

    run.py BUILD_DIR [--variant fix] [--addr 30] [--widths 32,64,128]
           [--csv validation/rtl/axisgdma/points-all.csv]
           [--full validation/rtl/axisgdma/measured-full.csv] [-j 2]

BUILD_DIR is build.sh's OUT_DIR; the models are
BUILD_DIR/VARIANT/aADDR/wWIDTH/Vaxisgdma. Every point must pass the
harness's checks (destination bytes, no stray write, status register);
a failing point stops the script with exit status 1 and writes nothing.

Writes two files:
  --csv   the points as `dmasim fit` reads them: dmasim config keys and
          `cycles` (START write to interrupt), one row per point, no
          comments (provenance in configs/validation/axisgdma.md; subset.py
          picks the committed validation points from it);
  --full  the same points with every figure the harness prints
          (mechanism counters: gaps, bursts, outstanding transactions).
"""
import argparse
import concurrent.futures as cf
import csv
import itertools
import os
import subprocess
import sys

ENTRIES = [1, 2, 4, 16, 64, 256]
SEGMENTS = [64, 256, 1024, 4096]
LATENCIES = [1, 10, 30, 100]
LAYOUTS = ["packed", "scattered"]


def grid(widths):
    for w, n, seg, rl, wl, lay in itertools.product(
            widths, ENTRIES, SEGMENTS, LATENCIES, LATENCIES, LAYOUTS):
        if n == 1 and lay == "scattered":
            continue  # one descriptor: no jump entry, same table as packed
        yield dict(width=w, entries=n, seg=seg, rlat=rl, wlat=wl, layout=lay)


def run_point(model_dir, p):
    exe = os.path.join(model_dir, "w%d" % p["width"], "Vaxisgdma")
    cmd = ["nice", exe, "--entries", str(p["entries"]), "--seg", str(p["seg"]),
           "--rlat", str(p["rlat"]), "--wlat", str(p["wlat"]), "--layout", p["layout"]]
    r = subprocess.run(cmd, capture_output=True, text=True)
    line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
    return p, r.returncode, kv, " ".join(cmd), r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--variant", default="fix")
    ap.add_argument("--addr", type=int, default=30)
    ap.add_argument("--widths", default="32,64,128")
    ap.add_argument("--csv", default="validation/rtl/axisgdma/points-all.csv")
    ap.add_argument("--full", default="validation/rtl/axisgdma/measured-full.csv")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    widths = [int(x) for x in a.widths.split(",")]
    model_dir = os.path.join(a.build, a.variant, "a%d" % a.addr)
    points = list(grid(widths))
    results = []
    with cf.ThreadPoolExecutor(a.j) as ex:
        for i, (p, rc, kv, cmd, out) in enumerate(
                ex.map(lambda p: run_point(model_dir, p), points)):
            if rc != 0 or kv.get("status") != "ok":
                sys.stderr.write("point failed: %s\n%s\n" % (cmd, out))
                sys.exit(1)
            results.append((p, kv))
            if (i + 1) % 100 == 0:
                sys.stderr.write("%d/%d points\n" % (i + 1, len(points)))
    keys = ["bus.width_bytes", "workload.entries", "workload.segment_bytes",
            "workload.chain_depth", "memory.read_latency_cycles",
            "memory.write_latency_cycles", "dma.buffer_bytes",
            "dma.read_refill_bytes", "cycles"]
    os.makedirs(os.path.dirname(a.csv) or ".", exist_ok=True)
    with open(a.csv, "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(keys)
        for p, kv in results:
            depth = p["entries"] if p["layout"] == "scattered" else 1
            wb = p["width"] // 8
            # instance parameters that scale with the width: the mover's
            # FIFO, 2^LGFIFO = 512 bus words (axisgdma.v:114), and the space
            # a read waits for, one 256-beat burst (axidma.v:861)
            wr.writerow([wb, p["entries"], p["seg"], depth, p["rlat"], p["wlat"],
                         512 * wb, 256 * wb, kv["cycles"]])
    fields = [k for k in results[0][1].keys() if k != "status"]
    with open(a.full, "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(fields)
        for _, kv in results:
            wr.writerow([kv[k] for k in fields])
    sys.stderr.write("%d points, all checks passed: %s, %s\n" % (len(results), a.csv, a.full))


if __name__ == "__main__":
    main()
