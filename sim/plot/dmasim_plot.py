#!/usr/bin/python3
"""dmasim_plot.py - draws one y column of a dmasim results.csv against
another, one line per series (e.g. throughput vs. list length, one line per
chain depth), grouped bars when x is a category, or a heatmap of y over x
and one series column. Run by `dmasim plot` and `dmasim sweep`, which work
out the names, units, subtitle and peak line; usable on its own.

Each drawing mode is one draw_* function taking (plt, rows, args, series)
and returning the figure; main() picks it.

Exit status: 0 written, 1 matplotlib missing or the file cannot be written,
2 bad arguments (unknown column, empty CSV, unknown output type).
"""
import argparse
import csv
import math
import sys
import textwrap

FORMATS = (".png", ".svg", ".pdf")
SIZE_UNITS = ("bytes", "B")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
# Units a label shows in parentheses; any other unit ("entries",
# "interrupts") is a count the name already says.
SHOWN_UNITS = ("cycles", "GB/s", "B/cycle", "1/s", "MHz", "fraction")
# Axes keep this size whatever the legend; the legend widens the figure.
AXES_INCHES = (7.2, 4.0)
LEGEND_ROWS = 18
MARKERS = "osD^vP*X<>h"
DASHES = ("-", "--", ":", "-.")
HATCHES = ("", "//", "..", "xx", "\\\\")


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
    p.add_argument("--series-name", action="append", default=[],
                   help="readable name of each --series column, in the same order")
    p.add_argument("--xname", help="readable name of x (default: the column)")
    p.add_argument("--yname", help="readable name of y (default: the column)")
    p.add_argument("--xlabel", help="x axis label as given (default: name and unit)")
    p.add_argument("--ylabel", help="y axis label as given (default: name and unit)")
    p.add_argument("--xunit", default="", help="bytes/B: ticks as KiB/MiB; ns: ticks as ns/µs")
    p.add_argument("--yunit", default="")
    p.add_argument("--title", default="", help="default: '<y> vs. <x>' from the labels")
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


def short_number(value):
    """16,384, 1.5, 0.25: whole numbers exact, others at most four
    significant digits, no trailing zeros."""
    if value == int(value) and abs(value) < 1e15:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def size_text(value):
    """256 B, 4 KiB, 1 MiB: sizes the way people say them."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(value) >= scale:
            return f"{short_number(value / scale)} {unit}"
    return f"{short_number(value)} B"


def time_text(value, unit):
    """A time in `unit` as ns, µs, ms or s, whichever reads shortest."""
    seconds = value * TIME_UNITS[unit]
    for name, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if abs(seconds) >= scale:
            return f"{short_number(seconds / scale)} {name}"
    return f"{short_number(seconds / 1e-9)} ns"


def count_text(value):
    """12k, 3.5M: large round counts (cycles, interrupts per second) in SI
    steps; others exact (32,768 on a power-of-two axis, not 32.77k)."""
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale and float(f"{value / scale:.3g}") == value / scale:
            return f"{value / scale:.3g}{suffix}"
    return short_number(value)


def unit_ticks(unit):
    """Ticks carry the unit themselves (4 KiB, 2 µs), so the label does not."""
    return unit in SIZE_UNITS or unit in TIME_UNITS


def value_text(value, unit):
    """A value as a tick or legend entry shows it, with its unit."""
    if not isinstance(value, float):
        return str(value)
    if unit in SIZE_UNITS:
        return size_text(value)
    if unit in TIME_UNITS:
        return time_text(value, unit)
    text = short_number(value)
    return f"{text} {unit}" if unit in ("cycles", "MHz") else text


def tick_text(value, unit):
    if value == 0:
        return "0"
    if unit_ticks(unit):
        return value_text(value, unit)
    return count_text(value) if abs(value) >= 1e4 else short_number(value)


def axis_label(name, unit, given):
    if given:
        return given
    return f"{name} ({unit})" if unit in SHOWN_UNITS else name


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
    """The series columns to draw, as (column, name, unit)."""
    columns = rows[0].keys()
    for column in (args.x,) if args.stack else (args.x, args.y):
        if column not in columns:
            fail(2, f"no column '{column}' in {args.csv} (columns: {', '.join(columns)})")
    names = dict(zip(args.series, args.series_name))
    units = dict(zip(args.series, args.series_unit))
    # A series column the CSV lacks (the default chain depth of a sweep
    # that holds it fixed) has one value: no line to tell apart.
    return [(s, names.get(s, s), units.get(s, "")) for s in args.series
            if s in columns and s != args.x]


def series_label(row, series):
    """"4 KiB" for one series column; "IOTLB entries 64, walk cache 16" for several."""
    texts = [value_text(number_or_text(row[c]), unit) for c, _, unit in series]
    if len(series) == 1:
        return texts[0]
    return ", ".join(f"{name} {text}" for (_, name, _), text in zip(series, texts))


def group_rows(rows, args, series):
    """{series label: [(x, y), ...]} in first-seen order, each sorted by x."""
    groups = {}
    for row in rows:
        y = number_or_text(row[args.y])
        if y == "":
            continue
        groups.setdefault(series_label(row, series), []).append((number_or_text(row[args.x]), y))
    for points in groups.values():
        if all(isinstance(x, float) for x, _ in points):
            points.sort(key=lambda p: p[0])
    return groups


def style(i):
    """Colour, dash and marker of the i-th series: colours repeat after 10,
    markers after 11 and dashes change every 10, so no two series look alike."""
    return {"color": f"C{i % 10}", "linestyle": DASHES[(i // 10) % len(DASHES)],
            "marker": MARKERS[i % len(MARKERS)]}


def figure(plt, legend_entries=0, legend_width=0, bottom=0.7, left=0.9):
    """A figure whose axes are AXES_INCHES whatever the legend: the legend
    sits right of the axes and the figure grows to hold it."""
    columns = max(1, math.ceil(legend_entries / LEGEND_ROWS))
    legend_inches = columns * (0.6 + 0.075 * legend_width) if legend_entries else 0
    right, top = 0.3 + legend_inches, 0.95
    width, height = left + AXES_INCHES[0] + right, bottom + AXES_INCHES[1] + top
    fig = plt.figure(figsize=(width, height))
    ax = fig.add_axes([left / width, bottom / height, AXES_INCHES[0] / width,
                       AXES_INCHES[1] / height])
    return fig, ax, columns


def legend(ax, columns, title=None):
    # Outside the data, right of the axes: it never covers a curve.
    ax.legend(title=title, fontsize=8, title_fontsize=8, ncol=columns, loc="upper left",
              bbox_to_anchor=(1.02, 1.0), borderaxespad=0, frameon=False)


def tick_axis(axis, unit, log):
    """Sizes as 4 KiB, times as µs, large counts as 12k; log axes in plain
    numbers, not 2^n."""
    from matplotlib.ticker import FuncFormatter, LogLocator
    if log and unit in SIZE_UNITS:
        axis.set_major_locator(LogLocator(base=2, numticks=12))
    axis.set_major_formatter(FuncFormatter(lambda v, _: tick_text(v, unit)))


def titles(fig, args, xlabel, ylabel, what=None):
    """The title names `what` is drawn (default: y's label) against x."""
    # Names without units: the axes carry the units.
    strip = lambda label: label.split(" (")[0]
    # "Throughput vs. segment size", but "... vs. IOTLB ways".
    x = strip(xlabel)
    x = x[0].lower() + x[1:] if x[:2] != x[:2].upper() else x
    title = args.title or f"{what or strip(ylabel)} vs. {x}"
    fig.text(0.01, 0.985, textwrap.fill(title, 100), fontsize=12, va="top")
    if args.subtitle:
        fig.text(0.01, 0.985 - 0.32 / fig.get_figheight(), textwrap.fill(args.subtitle, 150),
                 fontsize=7.5, color="0.35", va="top")


def labels(args):
    xlabel = axis_label(args.xname or args.x, args.xunit, args.xlabel)
    ylabel = axis_label(args.yname or args.y, args.yunit, args.ylabel)
    return xlabel, ylabel


def legend_title(series):
    if len(series) != 1:
        return None
    name = series[0][1]
    return name[0].upper() + name[1:] if name else None


def peak_line(ax, args):
    if args.peak is not None:
        ax.axhline(args.peak, color="0.3", linestyle="--", linewidth=1, marker="",
                   label=args.peak_label)


def finish_axes(fig, ax, args, series, columns):
    xlabel, ylabel = labels(args)
    tick_axis(ax.yaxis, args.yunit, args.logy)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if not args.logy:
        ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        legend(ax, columns, legend_title(series))
    titles(fig, args, xlabel, ylabel)


def draw_lines(plt, rows, args, series):
    groups = group_rows(rows, args, series)
    names = list(groups) + ([args.peak_label] if args.peak is not None else [])
    fig, ax, columns = figure(plt, len(names) if series or args.peak is not None else 0,
                              max(map(len, names)))
    for i, (label, points) in enumerate(groups.items()):
        xs, ys = zip(*points)
        ax.plot(xs, ys, markersize=4, label=label if series else None, **style(i))
    peak_line(ax, args)
    if args.logx:
        ax.set_xscale("log", base=2)
    if args.logy:
        ax.set_yscale("log")
    tick_axis(ax.xaxis, args.xunit, args.logx)
    finish_axes(fig, ax, args, series, columns)
    return fig


def draw_bars(plt, rows, args, series):
    """x is a category (e.g. the transfer direction): one group of bars per
    category, one bar per series."""
    groups = group_rows(rows, args, series)
    categories = list(dict.fromkeys(value_text(number_or_text(r[args.x]), args.xunit)
                                    for r in rows))
    names = list(groups) + ([args.peak_label] if args.peak is not None else [])
    fig, ax, columns = figure(plt, len(names) if series or args.peak is not None else 0,
                              max(map(len, names)))
    width = 0.8 / len(groups)
    for i, (label, points) in enumerate(groups.items()):
        at = {value_text(x, args.xunit): y for x, y in points}
        xs = [c + (i - (len(groups) - 1) / 2) * width for c in range(len(categories))]
        ax.bar(xs, [at.get(c, 0) for c in categories], width, label=label if series else None,
               color=f"C{i % 10}", hatch=HATCHES[(i // 10) % len(HATCHES)], edgecolor="white")
    peak_line(ax, args)
    if args.logy:
        ax.set_yscale("log")
    ax.set_xticks(range(len(categories)), categories)
    finish_axes(fig, ax, args, series, columns)
    ax.grid(False, axis="x")
    return fig


def draw_heatmap(plt, rows, args, series):
    if len(series) != 1:
        fail(2, "a heatmap needs exactly one --series column")
    s, name, unit = series[0]
    key = lambda v: (isinstance(v, str), v)
    xs = sorted({number_or_text(r[args.x]) for r in rows}, key=key)
    ss = sorted({number_or_text(r[s]) for r in rows}, key=key)
    grid = [[float("nan")] * len(xs) for _ in ss]
    for r in rows:
        y = number_or_text(r[args.y])
        if isinstance(y, float):
            grid[ss.index(number_or_text(r[s]))][xs.index(number_or_text(r[args.x]))] = y
    # Room for the slanted x ticks and the row names.
    rows_width = max(len(value_text(v, unit)) for v in ss)
    fig, ax, _ = figure(plt, 1, 12, bottom=1.3, left=0.6 + 0.075 * rows_width)
    image = ax.imshow(grid, aspect="auto", origin="lower", cmap="viridis")
    xlabel, ylabel = labels(args)
    fig.colorbar(image, ax=ax, fraction=0.05, pad=0.02).set_label(ylabel)
    finite = [v for row in grid for v in row if v == v]
    middle = (min(finite) + max(finite)) / 2 if finite else 0
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="black" if v > middle else "white")
    ax.set_xticks(range(len(xs)), [value_text(v, args.xunit) for v in xs], rotation=45,
                  ha="right", fontsize=8)
    ax.set_yticks(range(len(ss)), [value_text(v, unit) for v in ss], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(axis_label(name[:1].upper() + name[1:], unit, None))
    titles(fig, args, xlabel, ylabel)
    return fig


def categorical(rows, column):
    """Text in a column (empty cells are failed points, not text)."""
    return any(r[column] != "" and not isinstance(number_or_text(r[column]), float) for r in rows)


def draw_stack(plt, rows, args, series):
    """One bar per x value, split into the group's columns (a cycle account's
    causes, in the CSV's order = priority order) as shares of their sum;
    columns that are zero at every x are left out of the legend."""
    prefix = args.stack + "."
    parts = [c for c in rows[0].keys() if c.startswith(prefix) and "." not in c[len(prefix):]]
    if not parts:
        fail(2, f"no column '{prefix}*' in {args.csv}")
    values = [{c: float(number_or_text(r[c]) or 0) for c in parts} for r in rows]
    # A cause keeps its colour from plot to plot: it is picked by the
    # cause's place in the whole group, not among those drawn.
    place = {c: i for i, c in enumerate(parts)}
    parts = [c for c in parts if any(v[c] for v in values)]
    order = sorted(range(len(rows)), key=lambda i: (isinstance(number_or_text(rows[i][args.x]), str),
                                                     number_or_text(rows[i][args.x])))
    names = [c[len(prefix):] for c in parts]
    fig, ax, columns = figure(plt, len(names), max(map(len, names), default=0), bottom=1.0)
    bottom = [0.0] * len(order)
    for i, c in enumerate(parts):
        shares = []
        for r in order:
            total = sum(values[r].values())
            shares.append(100 * values[r][c] / total if total else 0)
        k = place[c]
        ax.bar(range(len(order)), shares, bottom=bottom, label=names[i], color=f"C{k % 10}",
               hatch=HATCHES[(k // 10) % len(HATCHES)], edgecolor="white")
        bottom = [b + s for b, s in zip(bottom, shares)]
    ax.set_xticks(range(len(order)),
                  [value_text(number_or_text(rows[r][args.x]), args.xunit) for r in order],
                  rotation=45, ha="right", fontsize=8)
    xlabel = axis_label(args.xname or args.x, args.xunit, args.xlabel)
    ylabel = args.ylabel or f"Share of the {args.stack.replace('.', ' ')} (%)"
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 100)
    legend(ax, columns, "Cause")
    titles(fig, args, xlabel, ylabel, f"Cycles by cause ({args.stack})")
    return fig


def choose_drawing(rows, args):
    if args.stack:
        return draw_stack
    if args.heatmap:
        return draw_heatmap
    if categorical(rows, args.y):
        fail(2, f"y column '{args.y}' holds text, not numbers")
    if categorical(rows, args.x):
        if args.logx:
            fail(2, f"x column '{args.x}' is a category: it cannot have a log axis")
        return draw_bars
    return draw_lines


def main():
    args = parse_args()
    if not args.output.lower().endswith(FORMATS):
        fail(2, f"output must end in {', '.join(FORMATS)}: {args.output}")
    rows = read_rows(args.csv)
    series = check_columns(rows, args)
    draw = choose_drawing(rows, args)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, f"matplotlib is missing for {sys.executable}: install the Debian package "
                "python3-matplotlib (sudo apt-get install python3-matplotlib)")
    fig = draw(plt, rows, args, series)
    try:
        fig.savefig(args.output, dpi=110)
    except (OSError, ValueError) as e:
        fail(1, f"cannot write {args.output}: {e}")


if __name__ == "__main__":
    main()
