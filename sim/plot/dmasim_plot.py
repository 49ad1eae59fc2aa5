#!/usr/bin/python3
"""dmasim_plot.py - draws one y column of a dmasim results.csv against
another, one line per series (e.g. throughput vs. list length, one line per
chain depth), or a heatmap of y over x and one series column. Run by
`dmasim plot` and `dmasim sweep`, which work out the labels, units, subtitle
and peak line; usable on its own.

Exit status: 0 written, 1 matplotlib missing or the file cannot be written,
2 bad arguments (unknown column, empty CSV, unknown output type).
"""
import argparse
import csv
import sys
import textwrap

FORMATS = (".png", ".svg", ".pdf")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", help="results.csv written by dmasim sweep or merge")
    p.add_argument("-o", "--output", required=True, help="FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--x", default="workload.entries")
    p.add_argument("--y", default="throughput_gbps")
    p.add_argument("--series", action="append", default=[],
                   help="column naming each line (repeat for several)")
    p.add_argument("--series-unit", action="append", default=[],
                   help="unit of each --series column, in the same order")
    p.add_argument("--series-title", default="", help="legend title")
    p.add_argument("--xlabel")
    p.add_argument("--ylabel")
    p.add_argument("--xunit", default="", help="B: ticks as B/KiB/MiB")
    p.add_argument("--yunit", default="")
    p.add_argument("--title", default="")
    p.add_argument("--subtitle", default="", help="settings the plot holds fixed")
    p.add_argument("--peak", type=float, help="dashed horizontal line at this y")
    p.add_argument("--peak-label", default="peak")
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--heatmap", action="store_true")
    p.add_argument("--stack", metavar="GROUP",
                   help="stacked bars of every GROUP.* column as shares of their sum per x")
    return p.parse_args()


def fail(status, message):
    print(f"dmasim plot: error: {message}", file=sys.stderr)
    sys.exit(status)


def number_or_text(text):
    try:
        return float(text)
    except ValueError:
        return text


def size_text(value):
    """256 B, 4 KiB, 1 MiB: sizes the way people say them."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= scale:
            v = value / scale
            return f"{v:g} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{value:g} B"


def value_text(value, unit):
    if isinstance(value, float):
        return size_text(value) if unit == "B" else f"{value:g}"
    return str(value)


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(2, f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(2, f"{path} has no rows to plot")
    return rows


def check_columns(rows, args):
    columns = rows[0].keys()
    for column in (args.x,) if args.stack else (args.x, args.y):
        if column not in columns:
            fail(2, f"no column '{column}' in {args.csv} (columns: {', '.join(columns)})")
    units = dict(zip(args.series, args.series_unit))
    series = [s for s in args.series if s in columns and s != args.x]
    return series, units


def group_rows(rows, args, series, units):
    """{series label: [(x, y), ...]} in first-seen order, each sorted by x."""
    groups = {}
    for row in rows:
        label = ", ".join(value_text(number_or_text(row[s]), units.get(s, "")) for s in series)
        y = number_or_text(row[args.y])
        if y == "":
            continue
        groups.setdefault(label, []).append((number_or_text(row[args.x]), y))
    for points in groups.values():
        if all(isinstance(x, float) for x, _ in points):
            points.sort(key=lambda p: p[0])
    return groups


def tick_axis(axis, unit, log):
    """Sizes as 256 B / 4 KiB / 1 MiB; log axes in plain numbers, not 2^n."""
    from matplotlib.ticker import FuncFormatter
    if unit == "B":
        axis.set_major_formatter(FuncFormatter(lambda v, _: size_text(v) if v > 0 else "0"))
    elif log:
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def titles(fig, ax, args):
    fig.suptitle(textwrap.fill(args.title, 90), fontsize=12, x=0.01, ha="left")
    if args.subtitle:
        ax.set_title(textwrap.fill(args.subtitle, 130), fontsize=7.5, color="0.35", loc="left")


def draw_lines(plt, rows, args, series, units):
    groups = group_rows(rows, args, series, units)
    fig, ax = plt.subplots(figsize=(9, 5))
    for label, points in groups.items():
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="o", markersize=4, label=label or args.ylabel or args.y)
    if args.peak is not None:
        ax.axhline(args.peak, color="0.3", linestyle="--", linewidth=1, label=args.peak_label)
    if args.logx:
        ax.set_xscale("log", base=2)
    if args.logy:
        ax.set_yscale("log")
    tick_axis(ax.xaxis, args.xunit, args.logx)
    tick_axis(ax.yaxis, args.yunit, args.logy)
    ax.set_xlabel(args.xlabel or args.x)
    ax.set_ylabel(args.ylabel or args.y)
    ax.set_ylim(bottom=0) if not args.logy else None
    ax.grid(True, alpha=0.3)
    # Outside the data, right of the axes: it never covers a curve.
    ax.legend(title=args.series_title or None, fontsize=8, title_fontsize=8,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    titles(fig, ax, args)
    return fig


def draw_heatmap(plt, rows, args, series, units):
    if len(series) != 1:
        fail(2, "a heatmap needs exactly one --series column")
    s = series[0]
    xs = sorted({number_or_text(r[args.x]) for r in rows}, key=lambda v: (isinstance(v, str), v))
    ss = sorted({number_or_text(r[s]) for r in rows}, key=lambda v: (isinstance(v, str), v))
    grid = [[float("nan")] * len(xs) for _ in ss]
    for r in rows:
        y = number_or_text(r[args.y])
        if isinstance(y, float):
            grid[ss.index(number_or_text(r[s]))][xs.index(number_or_text(r[args.x]))] = y
    fig, ax = plt.subplots(figsize=(9, 5))
    image = ax.imshow(grid, aspect="auto", origin="lower", cmap="viridis")
    bar = fig.colorbar(image, ax=ax)
    bar.set_label(args.ylabel or args.y)
    finite = [v for row in grid for v in row if v == v]
    middle = (min(finite) + max(finite)) / 2 if finite else 0
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="black" if v > middle else "white")
    ax.set_xticks(range(len(xs)), [value_text(v, args.xunit) for v in xs], rotation=45,
                  ha="right", fontsize=8)
    ax.set_yticks(range(len(ss)), [value_text(v, units.get(s, "")) for v in ss], fontsize=8)
    ax.set_xlabel(args.xlabel or args.x)
    ax.set_ylabel(args.series_title or s)
    titles(fig, ax, args)
    return fig


def draw_stack(plt, rows, args, series, units):
    """One bar per x value, split into the group's columns (a cycle account's
    causes, in the CSV's order = priority order) as shares of their sum;
    columns that are zero at every x are left out of the legend."""
    prefix = args.stack + "."
    parts = [c for c in rows[0].keys() if c.startswith(prefix) and "." not in c[len(prefix):]]
    if not parts:
        fail(2, f"no column '{prefix}*' in {args.csv}")
    values = [{c: float(number_or_text(r[c]) or 0) for c in parts} for r in rows]
    parts = [c for c in parts if any(v[c] for v in values)]
    order = sorted(range(len(rows)), key=lambda i: (isinstance(number_or_text(rows[i][args.x]), str),
                                                     number_or_text(rows[i][args.x])))
    labels = [value_text(number_or_text(rows[i][args.x]), args.xunit) for i in order]
    fig, ax = plt.subplots(figsize=(9, 5))
    bottom = [0.0] * len(order)
    for c in parts:
        shares = []
        for i in order:
            total = sum(values[i].values())
            shares.append(100 * values[i][c] / total if total else 0)
        ax.bar(range(len(order)), shares, bottom=bottom, label=c[len(prefix):])
        bottom = [b + s for b, s in zip(bottom, shares)]
    ax.set_xticks(range(len(order)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_xlabel(args.xlabel or args.x)
    ax.set_ylabel(args.ylabel or f"share of {args.stack} (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    titles(fig, ax, args)
    return fig


def main():
    args = parse_args()
    if not args.output.lower().endswith(FORMATS):
        fail(2, f"output must end in {', '.join(FORMATS)}: {args.output}")
    rows = read_rows(args.csv)
    series, units = check_columns(rows, args)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, f"matplotlib is missing for {sys.executable}: install the Debian package "
                "python3-matplotlib (sudo apt-get install python3-matplotlib)")
    draw = draw_stack if args.stack else draw_heatmap if args.heatmap else draw_lines
    fig = draw(plt, rows, args, series, units)
    fig.tight_layout()
    try:
        fig.savefig(args.output, dpi=110)
    except (OSError, ValueError) as e:
        fail(1, f"cannot write {args.output}: {e}")


if __name__ == "__main__":
    main()
