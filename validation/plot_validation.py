#!/usr/bin/python3
"""plot_validation.py DMASIM [ENGINE ...] - dmasim against the RTL, one image per engine.

For each engine (default: every configs/validation/*.csv with a profile in
configs/engines/) scores the profile at every measured point as the
validation ctest does (`dmasim fit PROFILE --points CSV`, no key), then
draws docs/img/validation-ENGINE.png: cycles per descriptor over list length
(the RTL's as circles, dmasim's as crosses, a colour per segment size) and
the relative error over segment size. Run from anywhere; paths are the
repository's. Needs matplotlib and pandas (/usr/bin/python3 on Debian)."""
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS_DROPPED = ("cycles",)


def scored(dmasim, engine, tmp):
    """Measured points with dmasim's cycles beside the RTL's."""
    points = os.path.join(ROOT, "configs", "validation", engine + ".csv")
    work = os.path.join(tmp, engine + ".d")
    subprocess.run([dmasim, "fit", os.path.join(ROOT, "configs", "engines", engine + ".yaml"),
                    "--points", points, "-o", os.path.join(tmp, engine + ".yaml"),
                    "--work", work, "-j", "2"], check=True, stdout=subprocess.DEVNULL)
    rtl = pd.read_csv(points)
    keys = [c for c in rtl.columns if c not in KEYS_DROPPED]
    sim = pd.read_csv(os.path.join(work, "points", "results.csv"))[keys + ["cycles"]]
    both = rtl.merge(sim.drop_duplicates(keys), on=keys, suffixes=("_rtl", "_dmasim"))
    if len(both) != len(rtl):
        sys.exit(f"{engine}: {len(rtl) - len(both)} points have no dmasim result")
    both["error_pct"] = 100 * (both.cycles_dmasim - both.cycles_rtl) / both.cycles_rtl
    return both


def draw(engine, d, out):
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    sizes = sorted(d["workload.segment_bytes"].unique())
    colours = plt.cm.viridis([i / max(1, len(sizes) - 1) for i in range(len(sizes))])
    n = d["workload.entries"]
    for size, colour in zip(sizes, colours):
        s = d[d["workload.segment_bytes"] == size]
        per = s["workload.entries"]
        left.scatter(per, s.cycles_rtl / per, facecolors="none", edgecolors=[colour], s=36,
                     label=f"{size} B RTL")
        left.scatter(per, s.cycles_dmasim / per, marker="x", color=[colour], s=18,
                     label=f"{size} B dmasim")
        right.scatter(s["workload.entries"] * (1 + 0.04 * (sizes.index(size) - 1.5)),
                      s.error_pct, color=[colour], s=12, label=f"{size} B")
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xlabel("list length (descriptors)")
    left.set_ylabel("cycles per descriptor")
    left.set_title(f"{engine}: RTL (o) and dmasim (x), all latencies")
    left.legend(fontsize=7, ncol=2)
    right.set_xscale("log", base=2)
    right.axhline(0, color="grey", lw=0.8)
    for bound in (-10, 10):
        right.axhline(bound, color="grey", lw=0.8, ls=":")
    med = d.error_pct.abs().median()
    right.set_title(f"dmasim - RTL: median |error| {med:.2f} %, max {d.error_pct.abs().max():.2f} %")
    right.set_xlabel("list length (descriptors)")
    right.set_ylabel("relative error (%)")
    right.legend(fontsize=7, title="segment")
    right.set_xlim(right.get_xlim()[0], n.max() * 1.5)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    dmasim = os.path.abspath(sys.argv[1])
    engines = sys.argv[2:] or sorted(
        f[:-4] for f in os.listdir(os.path.join(ROOT, "configs", "validation"))
        if f.endswith(".csv") and os.path.exists(os.path.join(ROOT, "configs", "engines", f[:-4] + ".yaml")))
    with tempfile.TemporaryDirectory() as tmp:
        for engine in engines:
            d = scored(dmasim, engine, tmp)
            img = os.environ.get("DOC_PLOTS_IMG", os.path.join(ROOT, "docs", "img"))
            out = os.path.join(img, f"validation-{engine}.png")
            draw(engine, d, out)
            print(f"{out}: {len(d)} points")


if __name__ == "__main__":
    main()
