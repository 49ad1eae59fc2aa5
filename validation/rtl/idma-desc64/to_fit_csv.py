#!/usr/bin/env python3
"""to_fit_csv.py MEASURED.csv > configs/validation/idma-desc64.csv

Turns the harness's rows (measured.csv) into the points file `dmasim fit`
reads (sim/src/fit_input.cc): one column per config key, `cycles` the
measured doorbell-to-irq count. Layout: back-to-back descriptors are one
linked-list chunk (workload.chain_depth 1); scattered ones each sit in a
chunk of their own (workload.chain_depth = entries). Rows whose check
failed are dropped (there are none in the committed table)."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["bus.width_bytes", "workload.entries", "workload.segment_bytes",
              "memory.read_latency_cycles", "memory.write_latency_cycles",
              "workload.chain_depth", "cycles"])
for r in rows:
    if r["check"] != "ok":
        print(f"dropping failed point: {r}", file=sys.stderr)
        continue
    e = int(r["entries"])
    out.writerow([int(r["data_width"]) // 8, e, r["segment_bytes"], r["read_latency"],
                  r["write_latency"], 1 if r["layout"] == "b2b" else e, r["cycles"]])
