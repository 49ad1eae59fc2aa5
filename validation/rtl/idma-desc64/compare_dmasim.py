#!/usr/bin/env python3
"""compare_dmasim.py DMASIM PROFILE.yaml POINTS.csv > compare.csv

Runs dmasim once per measured point (the CSV's key columns as --set) and
prints the point, the RTL's cycles, dmasim's cycles and the relative error
(dmasim - rtl) / rtl. Summary (mean |error| by layout and latency) on stderr."""
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

dmasim, profile, points = sys.argv[1:4]
rows = list(csv.DictReader(open(points)))
keys = [k for k in rows[0] if k != "cycles"]
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(keys + ["rtl_cycles", "dmasim_cycles", "error"])
agg = defaultdict(list)
with tempfile.TemporaryDirectory() as tmp:
    rep = os.path.join(tmp, "r.json")
    for r in rows:
        cmd = [dmasim, "run", profile, "-q", "--report", rep]
        for k in keys:
            cmd += ["--set", f"{k}={r[k]}"]
        subprocess.run(cmd, check=True)
        sim = json.load(open(rep))["result"]["cycles"]
        rtl = int(r["cycles"])
        err = (sim - rtl) / rtl
        out.writerow([r[k] for k in keys] + [rtl, sim, f"{err:.4f}"])
        sys.stdout.flush()
        lay = "b2b" if r["workload.chain_depth"] == "1" and r["workload.entries"] != "1" else (
            "one" if r["workload.entries"] == "1" else "scattered")
        agg[(lay, r["workload.segment_bytes"])].append(abs(err))
for k in sorted(agg, key=lambda k: (k[0], int(k[1]))):
    v = agg[k]
    print(f"{k[0]:9s} seg {k[1]:>4s}: {len(v):3d} points, mean |err| {100*sum(v)/len(v):6.1f} %, max {100*max(v):6.1f} %", file=sys.stderr)
