#!/usr/bin/python3
"""dmasim_plot.py - draws one y column of a dmasim results.csv against
another, one line per series (e.g. throughput vs. list length, one line per
chain depth). Run by `dmasim plot` and `dmasim sweep`; usable on its own.

Exit status: 0 written, 1 matplotlib missing or the file cannot be written,
2 bad arguments (unknown column, empty CSV).
"""
import argparse
import csv
import sys
import textwrap


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", help="results.csv written by dmasim sweep or merge")
    p.add_argument("-o", "--output", required=True, help="FILE.png or FILE.svg")
    p.add_argument("--x", default="workload.entries")
    p.add_argument("--y", default="throughput_gbps")
    p.add_argument("--series", action="append", default=[],
                   help="column naming each line (repeat for several)")
    p.add_argument("--xlabel")
    p.add_argument("--ylabel")
    p.add_argument("--title", default="")
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    return p.parse_args()


def fail(status, message):
    print(f"dmasim plot: error: {message}", file=sys.stderr)
    sys.exit(status)


def number_or_text(text):
    try:
        return float(text)
    except ValueError:
        return text


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(2, f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(2, f"{path} has no rows to plot")
    return rows


def group_rows(rows, args):
    """{series label: [(x, y), ...]} in first-seen order, each sorted by x."""
    columns = rows[0].keys()
    for column in (args.x, args.y):
        if column not in columns:
            fail(2, f"no column '{column}' in {args.csv} (columns: {', '.join(columns)})")
    series = [s for s in args.series if s in columns and s != args.x]
    groups = {}
    for row in rows:
        label = ", ".join(f"{s}={row[s]}" for s in series)
        groups.setdefault(label, []).append(
            (number_or_text(row[args.x]), number_or_text(row[args.y])))
    for points in groups.values():
        if all(isinstance(x, float) for x, _ in points):
            points.sort(key=lambda p: p[0])
    return groups


def draw(groups, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, f"matplotlib is missing for {sys.executable}: install the Debian package "
                "python3-matplotlib (sudo apt-get install python3-matplotlib)")
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, points in groups.items():
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="o", label=label or args.y)
    ax.set_xlabel(args.xlabel or args.x)
    ax.set_ylabel(args.ylabel or args.y)
    # The platform line is long: wrap each title line to the figure's width.
    title = "\n".join(textwrap.fill(line, 110) for line in args.title.splitlines())
    ax.set_title(title, fontsize=9)
    if args.logx:
        ax.set_xscale("log", base=2)
    if args.logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(args.output)
    except (OSError, ValueError) as e:
        fail(1, f"cannot write {args.output}: {e}")


def main():
    args = parse_args()
    if not args.output.endswith((".png", ".svg")):
        fail(2, f"output must end in .png or .svg: {args.output}")
    draw(group_rows(read_rows(args.csv), args), args)


if __name__ == "__main__":
    main()
