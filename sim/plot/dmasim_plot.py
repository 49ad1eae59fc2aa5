#!/usr/bin/python3
"""dmasim_plot.py - draws one y column of a dmasim results.csv against
another, one line per series (e.g. throughput vs. list length, one line per
chain depth), grouped bars when x is a category, a heatmap of y over x
and one series column, or stacked shares of a statistic group (the cycle
account). Rows can be picked (--where) and split into panels (--facet).
Run by `dmasim plot` and `dmasim sweep`, which work out the names, units,
subtitle and peak line; usable on its own.

Each drawing mode is one draw_* function that draws one panel's rows into
one axes; main() picks it, lays the panels out and fits the figure around
what was drawn, so no text leaves the image.

Exit status: 0 written, 1 matplotlib missing or the file cannot be written,
2 bad arguments (unknown column, empty CSV, no row left, unknown output type).
"""
import argparse
import csv
import json
import math
import os
import sys
import textwrap
import zlib

FORMATS = (".png", ".svg", ".pdf")
SIZE_UNITS = ("bytes", "B")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
# Units a label shows in parentheses; any other unit ("entries",
# "interrupts") is a count the name already says.
SHOWN_UNITS = ("cycles", "GB/s", "B/cycle", "1/s", "MHz", "fraction")
# One panel keeps this size whatever the legend; the legend widens the
# figure. Several panels are smaller each.
AXES_INCHES = (7.2, 4.0)
PANEL_INCHES = (4.6, 3.0)
LEGEND_ROWS = 18
LEGEND_CHARS = 44  # a longer legend label wraps
MARKERS = "osD^vP*X<>h"
DASHES = ("-", "--", ":", "-.")
HATCHES = ("", "//", "..", "xx", "\\\\")
PAD = 0.12  # inches kept free around everything drawn

# Every cause of the cycle account (model/include/dmasim/model/cycle_account.h)
# has a colour and a hatch of its own, picked by name, so a cause looks the
# same in every plot and a new cause recolours none of the others. `idle`
# is the only pale grey: an empty-looking bar part means nothing happened.
CAUSE_STYLES = {
    "data": ("#1f5fa8", ""),
    "bandwidth": ("#74a9dc", "//"),
    "pcie_link": ("#17becf", "\\\\"),
    "memory_latency": ("#ff7f0e", ".."),
    "dram": ("#b15928", "|/"),
    "outstanding_limit": ("#fdc086", "xx"),
    "buffer_space": ("#8c564b", "oo"),
    "iommu": ("#9467bd", "++"),
    "descriptor_fetch": ("#d62728", "--"),
    "chain_link": ("#f59a9a", "||"),
    "setup": ("#e377c2", "**"),
    "writeback": ("#2ca02c", "OO"),
    "start_latency": ("#bcbd22", "/."),
    "irq_latency": ("#4d4d4d", "x."),
    "idle": ("#dddddd", ""),
}
# For a cause this table does not know yet: a colour and hatch from its
# name, never one of the table's.
SPARE_COLOURS = ("#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d",
                 "#31a354", "#756bb1", "#636363")
SPARE_HATCHES = ("\\.", "+.", "-.", "|.", "o.", "*.")


def parse_args(argv=None):
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
    p.add_argument("--column", nargs=3, action="append", default=[],
                   metavar=("COLUMN", "NAME", "UNIT"),
                   help="readable name and unit of any column (--where, --facet, subtitle)")
    p.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                   help="draw only the rows whose COLUMN holds VALUE (repeatable)")
    p.add_argument("--facet", metavar="COLUMN", help="one panel per value of COLUMN")
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
    return p.parse_args(argv)


def fail(status, message):
    print(f"dmasim plot: error: {message}", file=sys.stderr)
    sys.exit(status)


def number_or_text(text):
    try:
        return float(text)
    except (TypeError, ValueError):
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
    return count_text(value) if abs(value) >= 1e3 else short_number(value)


def axis_label(name, unit, given):
    if given:
        return given
    return f"{name} ({unit})" if unit in SHOWN_UNITS else name


def capitalised(text):
    return text[:1].upper() + text[1:]


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(2, f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(2, f"{path} has no rows to plot")
    return rows


class Columns:
    """Readable name and unit of each column, from --series-name/-unit,
    --column and the axes' own options."""

    def __init__(self, args):
        self.names, self.units = {}, {}
        for column, name, unit in args.column:
            self.names[column], self.units[column] = name, unit
        self.names.update(zip(args.series, args.series_name))
        self.units.update(zip(args.series, args.series_unit))
        self.names[args.x] = args.xname or self.names.get(args.x, args.x)
        self.units[args.x] = args.xunit or self.units.get(args.x, "")

    def name(self, column):
        return self.names.get(column, column)

    def unit(self, column):
        return self.units.get(column, "")

    def setting(self, column, value):
        """"chain depth 16", "segment size 4 KiB": a value with its name."""
        return f"{self.name(column)} {value_text(number_or_text(value), self.unit(column))}"


def same_value(cell, wanted):
    a, b = number_or_text(cell), number_or_text(wanted)
    if isinstance(a, float) and isinstance(b, float):
        return a == b
    return str(cell).lower() == str(wanted).lower()


def pick_rows(rows, args):
    """The rows every --where COLUMN=VALUE holds for; their settings as
    subtitle parts."""
    picked = []
    for condition in args.where:
        column, sep, value = condition.partition("=")
        if not sep or not column:
            fail(2, f"--where takes COLUMN=VALUE, not '{condition}'")
        if column not in rows[0]:
            fail(2, f"no column '{column}' in {args.csv} for --where "
                    f"(columns: {', '.join(rows[0].keys())})")
        kept = [r for r in rows if same_value(r[column], value)]
        if not kept:
            values = ", ".join(dict.fromkeys(r[column] for r in rows))
            fail(2, f"no row of {args.csv} has {column}={value} ({column} holds {values})")
        rows = kept
        picked.append(column)
    return rows, picked


def check_columns(rows, args, columns):
    """The series columns to draw, as (column, name, unit)."""
    present = rows[0].keys()
    for column in (args.x,) if args.stack else (args.x, args.y):
        if column not in present:
            fail(2, f"no column '{column}' in {args.csv} (columns: {', '.join(present)})")
    if args.facet and args.facet not in present:
        fail(2, f"no column '{args.facet}' in {args.csv} for --facet "
                f"(columns: {', '.join(present)})")
    # A series column the CSV lacks (the default chain depth of a sweep
    # that holds it fixed) has one value: no line to tell apart.
    return [(s, columns.name(s), columns.unit(s)) for s in args.series
            if s in present and s not in (args.x, args.facet)]


def ordered(values):
    """Numbers ascending, text in the order first seen (the file's order:
    a base: sweep's profiles, a zip's steps)."""
    values = list(dict.fromkeys(values))
    if all(isinstance(v, float) for v in values):
        return sorted(values)
    return values


def distinct(rows, column):
    return ordered(number_or_text(r[column]) for r in rows)


class Legend:
    """Series labels naming only what differs between series. A full
    cross product of the series columns names every column that varies;
    a zip (each series changes one or two keys from the rest) names only
    the keys a series changes from the most common setting, which the
    subtitle then states. Columns that never vary go to the subtitle."""

    def __init__(self, rows, series, columns):
        self.columns = columns
        self.fixed = [s for s in series if len(distinct(rows, s[0])) == 1]
        self.varying = [s for s in series if s not in self.fixed]
        combos = ordered(tuple(r[c] for c, _, _ in self.varying) for r in rows)
        product = math.prod(len(distinct(rows, c)) for c, _, _ in self.varying)
        self.zipped = len(self.varying) > 1 and len(combos) < product
        self.common = {}
        if self.zipped:
            for c, _, _ in self.varying:
                counts = {}
                for combo in combos:
                    v = combo[[s[0] for s in self.varying].index(c)]
                    counts[v] = counts.get(v, 0) + 1
                self.common[c] = max(counts, key=counts.get)
        self.fixed_texts = [setting(s, rows[0][s[0]]) for s in self.fixed]
        self.baseline = None

    def label(self, row):
        if not self.varying:
            return ""
        texts = [(name, value_text(number_or_text(row[c]), unit)) for c, name, unit in
                 self.varying if not self.zipped or row[c] != self.common[c]]
        if not self.zipped and len(self.varying) == 1:
            return texts[0][1]
        if not texts:
            self.baseline = ", ".join(setting(s, self.common[s[0]]) for s in self.varying)
            return "baseline"
        return ", ".join(f"{name} {text}" for name, text in texts)

    def title(self):
        if len(self.varying) != 1:
            return None
        return capitalised(self.varying[0][1])

    def subtitle_parts(self):
        parts = list(self.fixed_texts)
        if self.baseline:
            parts.append(f"baseline: {self.baseline}")
        return parts


def setting(series, value):
    """A series column's value with its name: "chain depth 16"."""
    _, name, unit = series
    return f"{name} {value_text(number_or_text(value), unit)}"


def group_rows(rows, args, legend):
    """{series label: [(x, y), ...]} in first-seen order, each sorted by x."""
    groups = {}
    for row in rows:
        y = number_or_text(row[args.y])
        if y == "":
            continue
        groups.setdefault(legend.label(row), []).append((number_or_text(row[args.x]), y))
    for points in groups.values():
        if all(isinstance(x, float) for x, _ in points):
            points.sort(key=lambda p: p[0])
    return groups


def style(i, n=1):
    """Colour, dash and marker of the i-th of n series: colours repeat after
    10, markers after 11 and dashes change every 10, so no two series look
    alike. Earlier series are drawn wider, later ones on top with hollow
    markers, so a line that coincides with another still shows."""
    width = 1.3 + 2.2 * (n - 1 - i) / (n - 1) if n > 1 else 1.6
    return {"color": f"C{i % 10}", "linestyle": DASHES[(i // 10) % len(DASHES)],
            "marker": MARKERS[i % len(MARKERS)], "linewidth": width,
            "markersize": 3.5 + 2.5 * (n - 1 - i) / (n - 1) if n > 1 else 4,
            "markerfacecolor": "none", "markeredgewidth": 1.1, "zorder": 2 + i}


def cause_style(name):
    """(colour, hatch) of an account cause, fixed by its name."""
    if name in CAUSE_STYLES:
        return CAUSE_STYLES[name]
    k = zlib.crc32(name.encode())
    return SPARE_COLOURS[k % len(SPARE_COLOURS)], SPARE_HATCHES[(k // 7) % len(SPARE_HATCHES)]


def darker(colour, by=0.55):
    from matplotlib.colors import to_rgb
    return tuple(c * by for c in to_rgb(colour))


def wrap_label(text, width=LEGEND_CHARS):
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


# --- ticks ---------------------------------------------------------------

def log_ticks(lo, hi, base):
    """Tick values for a log axis over [lo, hi]: at least three, at most
    about a dozen. Base 2: powers of two (every other one if too many,
    with 1.5 x powers if too few); base 10: decades, else 1-2-5, else
    1 ... 9 per decade."""
    if lo <= 0 or hi <= lo:
        return []
    if base == 2:
        k0, k1 = math.floor(math.log2(lo)), math.ceil(math.log2(hi))
        ticks = [2.0 ** k for k in range(k0, k1 + 1) if lo <= 2.0 ** k <= hi]
        step = max(1, math.ceil(len(ticks) / 12))
        ticks = ticks[::step]
        if len(ticks) < 3:
            ticks = sorted(t for k in range(k0, k1 + 1) for t in (2.0 ** k, 1.5 * 2.0 ** k)
                           if lo <= t <= hi)
        return ticks
    d0, d1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    for mantissas in ((1,), (1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [m * 10.0 ** d for d in range(d0, d1 + 1) for m in mantissas
                 if lo <= m * 10.0 ** d <= hi * (1 + 1e-9)]
        if len(ticks) >= 3:
            break
    step = max(1, math.ceil(len(ticks) / 12))
    return ticks[::step]


def tick_axis(ax, which, unit, log, base=10):
    """Sizes as 4 KiB, times as µs, large counts as 12k; log axes in plain
    numbers, not 2^n, with enough labelled ticks to read a value off."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_formatter(FuncFormatter(lambda v, _: tick_text(v, unit)))
    if log:
        ax.autoscale_view()
        lo, hi = ax.get_xlim() if which == "x" else ax.get_ylim()
        ticks = log_ticks(min(lo, hi), max(lo, hi), base)
        if ticks:
            axis.set_major_locator(FixedLocator(ticks))
            axis.set_minor_formatter(NullFormatter())


# --- figure and layout ---------------------------------------------------

class Layout:
    """Panels of a fixed size in a grid, placed in inches; fit() then grows
    the margins until every text drawn is inside the figure."""

    def __init__(self, plt, panels, panel_inches, hgap=0.9, vgap=0.9, sharey=False):
        self.plt = plt
        self.columns = 1 if panels == 1 else 2 if panels in (2, 4) else 3
        self.rows = math.ceil(panels / self.columns)
        self.panel = panel_inches
        self.hgap, self.vgap = hgap, vgap
        width = self.columns * panel_inches[0] + (self.columns - 1) * hgap
        height = self.rows * panel_inches[1] + (self.rows - 1) * vgap
        self.fig = plt.figure(figsize=(width, height))
        self.axes = []
        for i in range(panels):
            r, c = divmod(i, self.columns)
            x = c * (panel_inches[0] + hgap)
            y = height - (r + 1) * panel_inches[1] - r * vgap
            shared = self.axes[0] if sharey and self.axes else None
            self.axes.append(self.fig.add_axes(
                [x / width, y / height, panel_inches[0] / width, panel_inches[1] / height],
                sharey=shared))
        self.header = []

    def legend_anchor(self):
        """The axes the legend sits right of: the top row's last panel."""
        return self.axes[min(self.columns, len(self.axes)) - 1]

    def fit(self, title, subtitle):
        """Grows the figure around what is drawn, then puts the title and
        subtitle above it, wrapped to the figure's width."""
        fig = self.fig
        renderer = fig.canvas.get_renderer()
        boxes = [a.get_tightbbox(renderer) for a in fig.axes] + \
                [t.get_window_extent(renderer) for t in fig.texts]
        boxes = [b for b in boxes if b is not None]
        dpi = fig.dpi
        x0 = min(b.x0 for b in boxes) / dpi
        y0 = min(b.y0 for b in boxes) / dpi
        x1 = max(b.x1 for b in boxes) / dpi
        y1 = max(b.y1 for b in boxes) / dpi
        width, height = fig.get_size_inches()
        left, bottom = PAD - x0, PAD - y0
        new_width = x1 - x0 + 2 * PAD
        body_height = y1 - y0 + 2 * PAD
        # The header: wrapped to the new width, its height measured.
        header = []
        chars_title = max(40, int(new_width * 72 / (12 * 0.55)))
        chars_sub = max(60, int(new_width * 72 / (7.5 * 0.52)))
        if title:
            header.append((textwrap.fill(title, chars_title), 12, "black"))
        if subtitle:
            header.append((textwrap.fill(subtitle, chars_sub), 7.5, "0.35"))
        header_inches = 0
        texts = []
        for text, size, colour in header:
            t = fig.text(0, 0, text, fontsize=size, color=colour, va="top", ha="left")
            # Rewrapped until it fits: the character width was a guess.
            plain = text.replace("\n", " ")
            chars = max(len(line) for line in text.split("\n"))
            for _ in range(8):
                extent = t.get_window_extent(renderer)
                if extent.width / dpi <= new_width - 2 * PAD or chars < 30:
                    break
                chars = int(chars * (new_width - 2 * PAD) / (extent.width / dpi)) - 2
                t.set_text(textwrap.fill(plain, chars))
            texts.append((t, header_inches))
            header_inches += extent.height / dpi + 0.06
        new_height = body_height + header_inches
        fig.set_size_inches(new_width, new_height)
        for ax in fig.axes:
            p = ax.get_position()
            ax.set_position([(p.x0 * width + left) / new_width, (p.y0 * height + bottom) / new_height,
                             p.width * width / new_width, p.height * height / new_height])
        for t in fig.texts:
            if any(t is h for h, _ in texts):
                continue
            x, y = t.get_position()
            t.set_position(((x * width + left) / new_width, (y * height + bottom) / new_height))
        for t, below in texts:
            t.set_position((PAD / new_width, 1 - (PAD / 2 + below) / new_height))


def series_legend(layout, legend, reverse=False):
    """One legend for all panels; `reverse` lists stacked parts top down,
    as the bars show them."""
    handles, labels = [], []
    for ax in layout.axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(h)
                labels.append(label)
    if not handles:
        return
    if reverse:
        handles, labels = handles[::-1], labels[::-1]
    columns = max(1, math.ceil(len(handles) / LEGEND_ROWS))
    # Outside the data, right of the axes: it never covers a curve.
    layout.legend_anchor().legend(
        handles, [wrap_label(label) for label in labels], title=legend,
        fontsize=8, title_fontsize=8, ncol=columns, loc="upper left",
        bbox_to_anchor=(1.02, 1.0), borderaxespad=0, frameon=False)


def title_of(args, xlabel, ylabel, what=None, heatmap_series=None):
    """The title names `what` is drawn (default: y's label) against x."""
    if args.title:
        return args.title
    # Names without units: the axes carry the units.
    strip = lambda label: label.split(" (")[0]
    lower = lambda s: s[0].lower() + s[1:] if s[:2] != s[:2].upper() else s
    # "Throughput vs. segment size", but "... vs. IOTLB ways".
    x = lower(strip(xlabel))
    if heatmap_series:
        return f"{what or strip(ylabel)} by {x} and {lower(heatmap_series)}"
    return f"{what or strip(ylabel)} vs. {x}"


def labels(args):
    xlabel = axis_label(args.xname or args.x, args.xunit, args.xlabel)
    ylabel = axis_label(args.yname or args.y, args.yunit, args.ylabel)
    return xlabel, ylabel


def peak_line(ax, args):
    if args.peak is not None:
        ax.axhline(args.peak, color="0.3", linestyle="--", linewidth=1, marker="",
                   label=args.peak_label, zorder=1)


# --- drawing modes: each draws one panel's rows into `ax` ----------------

def draw_lines(ax, rows, args, plot):
    groups = group_rows(rows, args, plot.legend)
    for label, points in groups.items():
        xs, ys = zip(*points)
        i = plot.label_order.index(label)
        ax.plot(xs, ys, label=plot.shown_label(label), **style(i, len(plot.label_order)))
    peak_line(ax, args)
    if args.logx:
        ax.set_xscale("log", base=2)
    if args.logy:
        ax.set_yscale("log")
    tick_axis(ax, "x", args.xunit, args.logx, base=2)
    plot.finish(ax)


def draw_bars(ax, rows, args, plot):
    """x is a category (e.g. the transfer direction): one group of bars per
    category, one bar per series."""
    groups = group_rows(rows, args, plot.legend)
    categories = [value_text(v, args.xunit) for v in distinct(rows, args.x)]
    width = 0.8 / max(1, len(groups))
    for k, (label, points) in enumerate(groups.items()):
        i = plot.label_order.index(label)
        at = {value_text(x, args.xunit): y for x, y in points}
        xs = [c + (k - (len(groups) - 1) / 2) * width for c in range(len(categories))]
        ax.bar(xs, [at.get(c, 0) for c in categories], width, label=plot.shown_label(label),
               color=f"C{i % 10}", hatch=HATCHES[(i // 10) % len(HATCHES)], edgecolor="white")
    peak_line(ax, args)
    if args.logy:
        ax.set_yscale("log")
    ax.set_xticks(range(len(categories)), categories)
    plot.finish(ax)
    ax.grid(False, axis="x")


def heatmap_grid(rows, args, series_column):
    xs, ss = distinct(rows, args.x), distinct(rows, series_column)
    grid = [[float("nan")] * len(xs) for _ in ss]
    for r in rows:
        y = number_or_text(r[args.y])
        if isinstance(y, float):
            grid[ss.index(number_or_text(r[series_column]))][xs.index(number_or_text(r[args.x]))] = y
    return xs, ss, grid


def draw_heatmap(ax, rows, args, plot):
    s, name, unit = plot.series[0]
    xs, ss, grid = heatmap_grid(rows, args, s)
    lo, hi = plot.heat_range
    image = ax.imshow(grid, aspect="auto", origin="lower", cmap="viridis", vmin=lo, vmax=hi)
    middle = (lo + hi) / 2
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="black" if v > middle else "white")
    ax.set_xticks(range(len(xs)), [value_text(v, args.xunit) for v in xs], rotation=45,
                  ha="right", fontsize=8)
    ax.set_yticks(range(len(ss)), [value_text(v, unit) for v in ss], fontsize=8)
    ax.set_xlabel(plot.xlabel)
    ax.set_ylabel(axis_label(capitalised(name), unit, None))
    plot.image = image


def draw_stack(ax, rows, args, plot):
    """One bar per x value, split into the group's columns (a cycle account's
    causes, in the CSV's order = priority order) as shares of their sum;
    columns that are zero at every x of every panel are left out."""
    parts = plot.parts
    prefix = args.stack + "."
    values = [{c: float(number_or_text(r[c]) or 0) for c in plot.all_parts} for r in rows]
    xs = distinct(rows, args.x)
    order = [next(i for i, r in enumerate(rows) if number_or_text(r[args.x]) == x) for x in xs]
    bottom = [0.0] * len(order)
    for c in parts:
        shares = []
        for r in order:
            total = sum(values[r].values())
            shares.append(100 * values[r][c] / total if total else 0)
        colour, hatch = cause_style(c[len(prefix):])
        ax.bar(range(len(order)), shares, bottom=bottom, label=c[len(prefix):], color=colour,
               hatch=hatch, edgecolor=darker(colour), linewidth=0.4)
        bottom = [b + s for b, s in zip(bottom, shares)]
    ax.set_xticks(range(len(order)), [value_text(x, args.xunit) for x in xs],
                  rotation=45 if len(order) > 4 else 0,
                  ha="right" if len(order) > 4 else "center", fontsize=8)
    ax.set_xlabel(plot.xlabel)
    ax.set_ylabel(plot.ylabel)
    ax.set_ylim(0, 100)


class Plot:
    """What every panel shares: labels, the legend's series, styles by
    series (the same line looks the same in every panel)."""

    def __init__(self, rows, args, series, columns):
        self.args = args
        self.series = series
        self.legend = Legend(rows, series, columns)
        self.xlabel, self.ylabel = labels(args)
        self.label_order = list(dict.fromkeys(self.legend.label(r) for r in rows))
        self.same_as = {}
        if not args.stack and not args.heatmap:
            groups = group_rows(rows, args, self.legend)
            seen = {}
            for label, points in groups.items():
                key = tuple((x, round(y, 9) if isinstance(y, float) else y) for x, y in points)
                if key in seen and label and len(points) > 1:
                    self.same_as[label] = seen[key]
                seen.setdefault(key, label)

    def shown_label(self, label):
        """None for a lone unnamed line; a line hidden under an earlier one
        says so."""
        if not self.legend.varying:
            return None
        if label in self.same_as:
            return f"{label} (= {self.same_as[label]})"
        return label

    def finish(self, ax):
        args = self.args
        tick_axis(ax, "y", args.yunit, args.logy)
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(self.ylabel)
        if not args.logy:
            ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.grid(True, which="minor", alpha=0.12)


def categorical(rows, column):
    """Text in a column (empty cells are failed points, not text)."""
    return any(r[column] != "" and not isinstance(number_or_text(r[column]), float) for r in rows)


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


def stack_facet(rows, args, series):
    """A stack has one bar per x: rows that share an x need panels. The one
    series column that tells them apart becomes the facet; several are
    bad input that names --where and --facet."""
    if len({r[args.x] for r in rows}) == len(rows):
        return None
    varying = [s[0] for s in series if len(distinct(rows, s[0])) > 1]
    if len(varying) == 1:
        return varying[0]
    too_many_rows(rows, args, series)


def crowded_facet(rows, args, series, draw):
    """More than a dozen lines in one axes hide each other: the first
    series column of a few values that varies becomes panels."""
    if draw not in (draw_lines, draw_bars) or len(series) < 2:
        return None
    if len({tuple(r[c] for c, _, _ in series) for r in rows}) <= 12:
        return None
    for column, _, _ in series:
        if 1 < len(distinct(rows, column)) <= 4:
            return column
    return None


def too_many_rows(rows, args, series):
    xs = [r[args.x] for r in rows]
    varying = [s[0] for s in series if len(distinct(rows, s[0])) > 1]
    others = [c for c in rows[0] if "." in c and not c.startswith(args.stack + ".")
              and c != args.x and len(distinct(rows, c)) > 1][:6]
    fail(2, f"{len(xs)} rows but only {len(set(xs))} values of {args.x}: a stacked plot needs "
            f"one row per bar; pick rows with --where COLUMN=VALUE or panels with --facet "
            f"COLUMN (columns that vary: {', '.join(varying or others)})")


def subtitle_of(args, rows, plot, columns, picked, facet):
    parts = [args.subtitle] if args.subtitle else []
    shown = set()
    for column in picked:
        if column not in shown and column != facet:
            parts.append(columns.setting(column, rows[0][column]))
            shown.add(column)
    # A stack draws no series: only their fixed values are said, no baseline.
    legend_parts = plot.legend.fixed_texts if args.stack else plot.legend.subtitle_parts()
    parts += [t for t in legend_parts if t not in parts]
    # A zip of list length and segment size holds the bytes per run fixed.
    if "bytes" in rows[0] and len(distinct(rows, "bytes")) == 1 and any(
            c in rows[0] and len(distinct(rows, c)) > 1
            for c in ("workload.entries", "workload.segment_bytes")):
        b = number_or_text(rows[0]["bytes"])
        if isinstance(b, float):
            parts.append(f"{size_text(b)} per run")
    return ", ".join(p for p in parts if p)


def check_layout(fig, path):
    """Writes what a test checks of the drawn figure to `path` (JSON):
    legend and axes widths, labelled ticks per log axis, text outside the
    figure."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    W, H = fig.get_size_inches() * fig.dpi
    # Sizes in inches.
    out = {"width": W / fig.dpi, "height": H / fig.dpi, "axes": [], "outside": []}
    texts = list(fig.texts)
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        entry = {"width": box.width / fig.dpi}
        legend = ax.get_legend()
        if legend:
            entry["legend_width"] = legend.get_window_extent(renderer).width / fig.dpi
            texts += legend.get_texts()
        for which, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if axis.get_scale() == "log":
                lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
                entry[f"log{which}_ticks"] = sum(
                    1 for t in axis.get_major_ticks()
                    if t.label1.get_visible() and t.label1.get_text()
                    and lo <= t.get_loc() <= hi)
        texts += [ax.xaxis.label, ax.yaxis.label, ax.title]
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            texts += [t.label1 for t in axis.get_major_ticks() if t.label1.get_visible()
                      and t.label1.get_text() and lo <= t.get_loc() <= hi]
        out["axes"].append(entry)
    for t in texts:
        if not t.get_text() or not t.get_visible():
            continue
        b = t.get_window_extent(renderer)
        if b.x0 < -0.5 or b.y0 < -0.5 or b.x1 > W + 0.5 or b.y1 > H + 0.5:
            out["outside"].append(t.get_text())
    with open(path, "w") as f:
        json.dump(out, f)


def main(argv=None):
    args = parse_args(argv)
    if not args.output.lower().endswith(FORMATS):
        fail(2, f"output must end in {', '.join(FORMATS)}: {args.output}")
    rows = read_rows(args.csv)
    columns = Columns(args)
    rows, picked = pick_rows(rows, args)
    series = check_columns(rows, args, columns)
    draw = choose_drawing(rows, args)
    if draw is draw_heatmap and len(series) != 1:
        fail(2, "a heatmap needs exactly one --series column")
    facet = args.facet or (stack_facet(rows, args, series) if args.stack else
                           crowded_facet(rows, args, series, draw))
    series = [s for s in series if s[0] != facet]
    if args.stack and facet:
        for v in distinct(rows, facet):
            panel = [r for r in rows if number_or_text(r[facet]) == v]
            if len({r[args.x] for r in panel}) != len(panel):
                too_many_rows(panel, args, series)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, f"matplotlib is missing for {sys.executable}: "
                f"{install_advice('python3-matplotlib', 'matplotlib')}")

    plot = Plot(rows, args, series, columns)
    if args.stack:
        prefix = args.stack + "."
        plot.all_parts = [c for c in rows[0] if c.startswith(prefix) and "." not in c[len(prefix):]]
        if not plot.all_parts:
            fail(2, f"no column '{prefix}*' in {args.csv}")
        plot.parts = [c for c in plot.all_parts if any(float(number_or_text(r[c]) or 0) for r in rows)]
        plot.xlabel = axis_label(args.xname or args.x, args.xunit, args.xlabel)
        plot.ylabel = args.ylabel or f"Share of the {args.stack.replace('.', ' ')} (%)"
    if draw is draw_heatmap:
        finite = [number_or_text(r[args.y]) for r in rows]
        finite = [v for v in finite if isinstance(v, float)]
        plot.heat_range = (min(finite), max(finite)) if finite else (0, 1)

    panels = [(None, rows)] if not facet else \
        [(v, [r for r in rows if number_or_text(r[facet]) == v]) for v in distinct(rows, facet)]
    if draw is draw_stack:
        bars = max(len(distinct(p, args.x)) for _, p in panels)
        size = (max(3.2 if facet else 7.2, 0.42 * bars + 0.8), 4.0 if not facet else 3.2)
    else:
        size = AXES_INCHES if len(panels) == 1 else PANEL_INCHES
    layout = Layout(plt, len(panels), size, hgap=1.0, vgap=1.5 if draw is draw_stack else 1.1,
                    sharey=draw in (draw_lines, draw_bars) and len(panels) > 1)
    for ax, (value, panel_rows) in zip(layout.axes, panels):
        draw(ax, panel_rows, args, plot)
        if facet:
            ax.set_title(columns.setting(facet, panel_rows[0][facet]), fontsize=9)
    if draw is draw_heatmap:
        cbar = layout.fig.colorbar(plot.image, ax=layout.axes, fraction=0.05, pad=0.02)
        cbar.set_label(plot.ylabel)
        legend_title = None
    elif draw is draw_stack:
        legend_title = "Cause"
    else:
        legend_title = plot.legend.title()
    if draw is not draw_heatmap:
        series_legend(layout, legend_title, reverse=draw is draw_stack)
    # A long axis label (a caption under the bars) wraps to the panel.
    for ax in layout.axes:
        for label, inches in ((ax.xaxis.label, layout.panel[0]), (ax.yaxis.label, layout.panel[1])):
            chars = max(20, int(inches * 72 / (label.get_fontsize() * 0.55)))
            if len(label.get_text()) > chars:
                label.set_text(textwrap.fill(label.get_text(), chars))

    what = f"Cycles by cause ({args.stack})" if args.stack else None
    heat_name = capitalised(series[0][1]) if draw is draw_heatmap else None
    title = title_of(args, plot.xlabel, plot.ylabel, what, heat_name)
    layout.fit(title, subtitle_of(args, rows, plot, columns, picked, facet))
    try:
        layout.fig.savefig(args.output, dpi=110)
    except (OSError, ValueError) as e:
        fail(1, f"cannot write {args.output}: {e}")
    where = os.environ.get("DMASIM_PLOT_LAYOUT")
    if where:
        # A folder collects one file per figure (the output's name and
        # this process's id: `dmasim plot` draws into a scratch folder).
        if os.path.isdir(where):
            where = os.path.join(where, f"{os.path.basename(args.output)}-{os.getpid()}.json")
        check_layout(layout.fig, where)


def install_advice(debian_package, pip_name):
    """How to get a missing module for this very interpreter: Debian's
    package only serves Debian's /usr/bin/python3."""
    if os.path.realpath(sys.executable).startswith("/usr/bin/python3") and \
            sys.prefix == sys.base_prefix:
        return f"install the Debian package {debian_package} (sudo apt-get install {debian_package})"
    return (f"install it into this interpreter ({sys.executable} -m pip install {pip_name}); "
            f"the Debian package {debian_package} serves /usr/bin/python3 only")


if __name__ == "__main__":
    main()
