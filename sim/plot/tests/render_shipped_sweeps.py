#!/usr/bin/python3
"""render_shipped_sweeps.py DMASIM SOURCE_DIR - draws every shipped sweep's
plots and every image of scripts/doc-plots from synthetic results, and
checks what can be checked of each figure: the legend is narrower than the
axes, a log axis has at least three labelled ticks, no text lies outside
the figure.

No sweep runs: `dmasim sweep --shard N/N` with N past the point count writes
the sweep's manifest and runs nothing; results.csv is then filled with made-
up numbers for every point (cycle account included), and the first point
of each base gets a report holding its resolved config, so names, units,
subtitles and peak lines are the real ones. Seconds, not minutes.
"""
import csv
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

DMASIM, ROOT = sys.argv[1], sys.argv[2]
SWEEPS = os.path.join(ROOT, "configs", "sweeps")
CAUSES = ["data", "bandwidth", "pcie_link", "memory_latency", "dram", "outstanding_limit",
          "buffer_space", "iommu", "descriptor_fetch", "chain_link", "setup", "writeback",
          "start_latency", "irq_latency", "idle"]
# Scenario results some doc plots draw (request streams).
EXTRA = {"latency_p99_us": (40, 4000), "latency_mean_cycles": (2000, 90000),
         "offered_bytes_per_cycle": (0.1, 8), "carried_bytes_per_cycle": (0.1, 8)}
# Sweeps whose own plots (throughput.png, heatmap.png) scripts/doc-plots
# draws and this test checks there.
DOC_PLOTS_DRAWS = ("list-length", "list-length-fixed-segment", "chain-depth",
                   "list-length-x-chain-depth", "formats")
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1", MPLBACKEND="Agg")


def run(args, **kw):
    done = subprocess.run(args, capture_output=True, text=True, env=kw.pop("env", ENV), **kw)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(args)}\n{done.stderr}")
    return done.stdout


def resolved(base, values, sweep_file):
    """The flat config of a point: its base, the sweep's set: and its values."""
    import yaml
    with open(sweep_file) as f:
        spec = yaml.safe_load(f)
    sets = dict(spec.get("set") or {})
    sets.update({k: v for k, v in values.items() if k != "base"})
    args = [DMASIM, "config", "--resolve", base]
    for k, v in sets.items():
        args += ["--set", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    # --set paths (a trace) are relative to the sweep file, as in the sweep.
    return yaml.safe_load(run(args, cwd=os.path.dirname(sweep_file)))


def synthesize(sweep_file, out):
    run([DMASIM, "sweep", sweep_file, "--shard", "1000000/1000000", "--out", out, "--no-plot"])
    with open(os.path.join(out, "sweep.json")) as f:
        manifest = json.load(f)
    with open(os.path.join(out, "results.csv")) as f:
        header = next(csv.reader(f))
    columns = header + [c for c in EXTRA if c not in header] + ["account." + c for c in CAUSES]
    rng = random.Random(os.path.basename(sweep_file))
    bases, rows = {}, []
    for point in manifest["points"]:
        if "skipped" in point:
            continue
        values = point["values"]
        base = manifest["base"] if isinstance(manifest["base"], str) else \
            manifest["base"][values["base"]]
        if base not in bases:
            bases[base] = resolved(base, values, sweep_file)
            report = {"config": dict(bases[base], **({"base": values["base"]}
                                                    if "base" in values else {})),
                      "result": {"integrity": "pass"}}
            with open(os.path.join(out, "points", point["id"] + ".json"), "w") as f:
                json.dump(report, f)
        config = dict(bases[base], **values)
        row = {c: values.get(c, "") for c in header}
        entries = float(config.get("workload.entries", 1))
        try:
            segment = float(config.get("workload.segment_bytes", 1024))
        except ValueError:
            segment = 1024.0
        row.update(bytes=int(entries * segment), cycles=rng.randint(1000, 10 ** 6),
                   throughput_gbps=round(rng.uniform(0.5, 16), 3), integrity="pass",
                   interrupts_per_second=round(10 ** rng.uniform(3, 7)),
                   cpu_utilization=round(rng.random(), 3))
        for c, (lo, hi) in EXTRA.items():
            row[c] = round(rng.uniform(lo, hi), 3)
        for c in CAUSES:
            row["account." + c] = rng.choice([0, rng.randint(1, 10000)])
        rows.append(row)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval="0", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return manifest


def plot(csv_path, output, layouts, *args):
    env = dict(ENV, DMASIM_PLOT_LAYOUT=layouts)
    run([DMASIM, "plot", csv_path, "-o", output] + list(args), env=env)


def check(layout_file):
    """Problems with one drawn figure, as text."""
    with open(layout_file) as f:
        layout = json.load(f)
    name = os.path.basename(layout_file)[:-5].rsplit("-", 1)[0]
    problems = [f"{name}: text outside the figure: {t!r}" for t in layout["outside"]]
    plots = [a for a in layout["axes"] if a["width"] > 1.0]  # not a colour bar
    axes_width = sum(a["width"] for a in plots)
    for a in layout["axes"]:
        if a.get("legend_width", 0) > 0.6 * axes_width:
            problems.append(f"{name}: legend {a['legend_width']:.1f} in wide beside "
                            f"{axes_width:.1f} in of axes")
        for which in ("x", "y"):
            if a.get(f"log{which}_ticks", 3) < 3:
                problems.append(f"{name}: log {which} axis with {a[f'log{which}_ticks']} "
                                "labelled ticks")
    return problems


def main():
    keep = os.environ.get("DMASIM_RENDER_KEEP")  # a folder to keep the images in
    with tempfile.TemporaryDirectory(prefix="dmasim-render-") as tmp:
        if keep:
            shutil.rmtree(keep, ignore_errors=True)
            tmp = keep
        synthetic, layouts = os.path.join(tmp, "synthetic"), os.path.join(tmp, "layouts")
        images = os.path.join(tmp, "img")
        for d in (synthetic, layouts, images):
            os.makedirs(d)
        jobs = []
        for sweep_file in sorted(glob.glob(os.path.join(SWEEPS, "*.yaml"))):
            name = os.path.basename(sweep_file)[:-5]
            out = os.path.join(synthetic, name)
            manifest = synthesize(sweep_file, out)
            csv_path = os.path.join(out, "results.csv")
            # The sweep's own plots: the line plot, the heatmap of a 2-D
            # grid, and the cycle account (one panel per value of the first
            # other key, the rest at their first value).
            series = manifest["plot"]["series"]
            if name in DOC_PLOTS_DRAWS:
                continue  # scripts/doc-plots below draws its own plots
            jobs.append((csv_path, os.path.join(images, f"{name}.png")))
            if len(series) == 1:
                jobs.append((csv_path, os.path.join(images, f"{name}-heatmap.png"), "--heatmap"))
            if len(series) > 1:
                # The account with rows to pick: a panel per value of the
                # first other key, the rest at their first value.
                first = next(p["values"] for p in manifest["points"] if "skipped" not in p)
                picks = ["--facet", series[0]]
                for key in series[1:]:
                    picks += ["--where", f"{key}={first[key]}"]
                jobs.append((csv_path, os.path.join(images, f"{name}-account.png"),
                             "--stack", "account", *picks))
        shutil.copytree(os.path.join(synthetic, "list-length"),
                        os.path.join(synthetic, "list-length-serial"))
        # Every image of docs/img as scripts/doc-plots draws it, beside the
        # sweeps' own plots: each plot is a matplotlib start-up (about
        # 0.7 s of CPU), so two streams at once.
        env = dict(ENV, DMASIM=DMASIM, DOC_PLOTS_FROM=synthetic, DMASIM_PLOT_LAYOUT=layouts,
                   DOC_PLOTS_IMG=os.path.join(tmp, "docs-img"),
                   DOC_PLOTS_OUT=os.path.join(tmp, "doc-sweeps"))
        doc_plots = subprocess.Popen(["bash", os.path.join(ROOT, "scripts", "doc-plots")],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        for job in jobs:
            plot(job[0], job[1], layouts, *job[2:])
        drawn = len(jobs)
        out, err = doc_plots.communicate()
        if doc_plots.returncode != 0:
            raise SystemExit(f"scripts/doc-plots failed ({doc_plots.returncode}):\n{err}")
        shipped = {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "docs", "img", "*.png"))}
        # Wall-clock time of whole runs on the machine at hand, drawn by
        # bench/run-scaling (docs/performance.md): no sweep behind it.
        shipped.discard("scaling.png")
        redrawn = set(os.listdir(os.path.join(tmp, "docs-img")))
        problems = [f"docs/img/{p} is not drawn by scripts/doc-plots" for p in sorted(shipped - redrawn)]
        for layout_file in sorted(glob.glob(os.path.join(layouts, "*.json"))):
            problems += check(layout_file)
        print(f"{drawn} sweep plots and {len(redrawn)} doc images drawn, "
              f"{len(os.listdir(layouts))} figures checked")
        for p in problems:
            print("FAIL", p)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
