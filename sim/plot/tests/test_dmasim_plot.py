#!/usr/bin/python3
"""Tests of dmasim_plot.py's drawing rules: unit ticks, series told apart,
legends beside the axes, categories as bars, titles from the labels."""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dmasim_plot.py")
spec = importlib.util.spec_from_file_location("dmasim_plot", SCRIPT)
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)


def draw(csv_text, *args):
    """Runs the script on `csv_text`; returns (exit status, stderr, SVG text)."""
    with tempfile.TemporaryDirectory() as folder:
        path, out = os.path.join(folder, "r.csv"), os.path.join(folder, "p.svg")
        with open(path, "w") as f:
            f.write(csv_text)
        done = subprocess.run([sys.executable, SCRIPT, path, "-o", out] + list(args),
                              capture_output=True, text=True)
        svg = ""
        if os.path.exists(out):
            with open(out) as f:
                svg = f.read()
        return done.returncode, done.stderr, svg


def draw_layout(csv_text, *args):
    """Runs the script on `csv_text` into a PNG; returns what it measured
    of the figure (legend and axes widths, log ticks, text outside)."""
    with tempfile.TemporaryDirectory() as folder:
        path, out = os.path.join(folder, "r.csv"), os.path.join(folder, "p.png")
        with open(path, "w") as f:
            f.write(csv_text)
        env = dict(os.environ, DMASIM_PLOT_LAYOUT=os.path.join(folder, "layout.json"))
        done = subprocess.run([sys.executable, SCRIPT, path, "-o", out] + list(args),
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        with open(env["DMASIM_PLOT_LAYOUT"]) as f:
            return json.load(f)


def columns():
    return plot.Columns(plot.parse_args(["r.csv", "-o", "p.png"]))


class Ticks(unittest.TestCase):
    def test_byte_keys_tick_in_binary_sizes(self):
        # The keys' unit is "bytes"; 4096 bytes is 4 KiB, 2^20 is 1 MiB.
        self.assertEqual(plot.tick_text(4096.0, "bytes"), "4 KiB")
        self.assertEqual(plot.tick_text(float(1 << 20), "bytes"), "1 MiB")
        self.assertEqual(plot.tick_text(512.0, "B"), "512 B")

    def test_times_tick_in_the_readable_unit(self):
        self.assertEqual(plot.tick_text(250.0, "ns"), "250 ns")
        self.assertEqual(plot.tick_text(4000.0, "ns"), "4 µs")
        self.assertEqual(plot.tick_text(2.5e6, "ns"), "2.5 ms")

    def test_large_counts_tick_in_si_steps(self):
        self.assertEqual(plot.tick_text(120000.0, "cycles"), "120k")
        self.assertEqual(plot.tick_text(3.5e6, "1/s"), "3.5M")
        # Powers of two on a log axis stay exact.
        self.assertEqual(plot.tick_text(32768.0, ""), "32,768")

    def test_a_plot_of_byte_sizes_shows_kib_ticks(self):
        rows = "".join(f"{1 << k},{k}\n" for k in range(8, 17))
        status, err, svg = draw("workload.segment_bytes,throughput_gbps\n" + rows,
                                "--x", "workload.segment_bytes", "--xunit", "bytes", "--logx")
        self.assertEqual(status, 0, err)
        for tick in ("256 B", "4 KiB", "64 KiB"):
            self.assertIn(tick, svg)
        self.assertNotIn(">8192<", svg)


class Series(unittest.TestCase):
    def test_no_two_of_forty_series_look_the_same(self):
        looks = {tuple(sorted(plot.style(i).items())) for i in range(40)}
        self.assertEqual(len(looks), 40)

    def test_legend_widens_the_figure_instead_of_squeezing_the_axes(self):
        for n in (1, 4, 14, 40):
            csv_text = "workload.entries,k,throughput_gbps\n" + "".join(
                f"{e},{'a very long series value number ' + str(k)},{e + k}\n"
                for k in range(n) for e in (1, 2))
            layout = draw_layout(csv_text, "--series", "k")
            self.assertAlmostEqual(layout["axes"][0]["width"], plot.AXES_INCHES[0])
            self.assertEqual(layout["outside"], [])

    def test_a_cross_product_names_every_varying_column(self):
        series = [("iommu.enabled", "IOMMU enabled", ""),
                  ("iommu.iotlb_entries", "IOTLB entries", "entries")]
        rows = [{"iommu.enabled": e, "iommu.iotlb_entries": n}
                for e in ("false", "true") for n in ("4", "64")]
        legend = plot.Legend(rows, series, columns())
        self.assertEqual(legend.label(rows[1]), "IOMMU enabled false, IOTLB entries 64")
        self.assertIsNone(legend.title())

    def test_a_zip_names_only_the_key_a_series_changes(self):
        # Four knob settings, each changing one key from the common one:
        # the labels name that key; the subtitle states the baseline.
        series = [("dma.status_writeback", "status write-back", ""),
                  ("dma.descriptor_bytes", "descriptor size", "bytes")]
        rows = [{"dma.status_writeback": w, "dma.descriptor_bytes": b}
                for w, b in (("per_descriptor", "32"), ("none", "32"),
                             ("per_descriptor", "16"), ("per_descriptor", "64"))]
        legend = plot.Legend(rows, series, columns())
        self.assertEqual([legend.label(r) for r in rows],
                         ["baseline", "status write-back none", "descriptor size 16 B",
                          "descriptor size 64 B"])
        self.assertIn("baseline: status write-back per_descriptor, descriptor size 32 B",
                      legend.subtitle_parts())

    def test_a_series_column_that_never_varies_goes_to_the_subtitle(self):
        series = [("workload.chain_depth", "chain depth", ""), ("pcie.tags", "tags", "")]
        rows = [{"workload.chain_depth": d, "pcie.tags": "32"} for d in ("1", "4")]
        legend = plot.Legend(rows, series, columns())
        self.assertEqual(legend.label(rows[1]), "4")
        self.assertEqual(legend.title(), "Chain depth")
        self.assertEqual(legend.subtitle_parts(), ["tags 32"])

    def test_a_line_under_an_identical_one_says_so(self):
        csv_text = "workload.entries,k,throughput_gbps\n1,a,5\n2,a,6\n1,b,5\n2,b,6\n"
        status, err, svg = draw(csv_text, "--series", "k")
        self.assertEqual(status, 0, err)
        self.assertIn("b (= a)", svg)


class Layout(unittest.TestCase):
    CSV = "workload.direction,pcie.tags,throughput_gbps\n" \
          "dev_to_mem,32,5\nmem_to_dev,32,4\ndev_to_mem,256,6\nmem_to_dev,256,5\n"

    def test_a_category_on_x_is_drawn_as_grouped_bars(self):
        status, err, svg = draw(self.CSV, "--x", "workload.direction", "--series", "pcie.tags")
        self.assertEqual(status, 0, err)
        self.assertIn("dev_to_mem", svg)
        rows = list(plot.csv.DictReader(self.CSV.splitlines()))
        args = argparse.Namespace(heatmap=False, stack=None, x="workload.direction",
                                  y="throughput_gbps", logx=False)
        self.assertIs(plot.choose_drawing(rows, args), plot.draw_bars)

    def test_a_category_on_a_log_axis_is_refused(self):
        status, err, _ = draw(self.CSV, "--x", "workload.direction", "--logx")
        self.assertEqual(status, 2)
        self.assertIn("is a category", err)

    def test_the_title_follows_the_axis_labels(self):
        status, err, svg = draw(self.CSV, "--x", "pcie.tags", "--xlabel", "Read tags",
                                "--ylabel", "Rate (GB/s)")
        self.assertEqual(status, 0, err)
        self.assertIn("Rate vs. read tags", svg)

    def test_units_in_labels_only_where_the_ticks_lack_them(self):
        self.assertEqual(plot.axis_label("Read latency", "cycles", None), "Read latency (cycles)")
        self.assertEqual(plot.axis_label("IOTLB ways", "entries", None), "IOTLB ways")
        self.assertEqual(plot.axis_label("Segment size", "bytes", None), "Segment size")


class Stack(unittest.TestCase):
    GRID = "workload.entries,workload.chain_depth,account.data,account.writeback\n" \
           "4,1,90,10\n4,2,80,20\n8,1,85,15\n8,2,70,30\n"

    def test_every_cause_has_a_colour_and_hatch_of_its_own(self):
        causes = list(plot.CAUSE_STYLES) + ["a_cause_added_later"]
        styles = [plot.cause_style(c) for c in causes]
        self.assertEqual(len({c for c, _ in styles}), len(causes))
        self.assertEqual(len({h for _, h in styles}), len(causes) - 1)  # data and idle plain
        self.assertNotEqual(plot.cause_style("irq_latency")[0], plot.cause_style("data")[0])

    def test_a_cause_keeps_its_colour_whatever_else_is_drawn(self):
        # writeback is green (#2ca02c) by name, with or without the causes
        # before it in the table.
        csv_text = "workload.entries,account.data,account.bandwidth,account.writeback\n" \
                   "4,90,0,10\n8,80,0,20\n"
        status, err, svg = draw(csv_text, "--stack", "account")
        self.assertEqual(status, 0, err)
        self.assertIn("#2ca02c", svg)
        self.assertNotIn(plot.CAUSE_STYLES["bandwidth"][0], svg)

    def test_rows_sharing_an_x_become_panels_of_the_column_that_varies(self):
        status, err, svg = draw(self.GRID, "--stack", "account", "--series",
                                "workload.chain_depth", "--series-name", "chain depth",
                                "--series-unit", "")
        self.assertEqual(status, 0, err)
        self.assertIn("chain depth 1", svg)
        self.assertIn("chain depth 2", svg)

    def test_where_picks_the_rows_of_one_bar_each(self):
        layout = draw_layout(self.GRID, "--stack", "account", "--where", "workload.chain_depth=2")
        self.assertEqual(len(layout["axes"]), 1)

    def test_rows_sharing_an_x_with_nothing_to_tell_them_apart_are_refused(self):
        status, err, _ = draw(self.GRID, "--stack", "account")
        self.assertEqual(status, 2)
        self.assertIn("--where", err)
        self.assertIn("--facet", err)

    def test_where_naming_a_value_no_row_holds_is_refused_with_the_values(self):
        status, err, _ = draw(self.GRID, "--stack", "account", "--where", "workload.chain_depth=3")
        self.assertEqual(status, 2)
        self.assertIn("holds 1, 2", err)


class LogTicks(unittest.TestCase):
    def test_a_log_axis_within_one_decade_still_gets_three_labels(self):
        self.assertEqual(plot.log_ticks(120, 900, 10), [200, 300, 400, 500, 600, 700, 800, 900])
        self.assertEqual(plot.log_ticks(8000, 30000, 10), [8000, 9000, 10000, 20000, 30000])
        self.assertEqual(plot.log_ticks(90, 1100, 10), [100, 200, 500, 1000])

    def test_a_wide_power_of_two_axis_thins_its_ticks(self):
        ticks = plot.log_ticks(1, 65536, 2)
        self.assertLessEqual(len(ticks), 12)
        self.assertEqual(ticks[0], 1)

    def test_a_log_y_axis_of_times_is_drawn_with_labelled_ticks(self):
        csv_text = "base,latency_p99_us\nb,150\na,700\nc,400\n"
        layout = draw_layout(csv_text, "--x", "base", "--y", "latency_p99_us", "--yunit", "us",
                             "--logy")
        self.assertGreaterEqual(layout["axes"][0]["logy_ticks"], 3)


class Heatmap(unittest.TestCase):
    def test_the_title_names_both_axes_and_text_keeps_file_order(self):
        csv_text = "base,k,throughput_gbps\nzeta,1,1\nalpha,1,2\nzeta,2,3\nalpha,2,4\n"
        status, err, svg = draw(csv_text, "--x", "base", "--xname", "Profile", "--series", "k",
                                "--series-name", "chain depth", "--heatmap", "--yname", "Rate")
        self.assertEqual(status, 0, err)
        self.assertIn("Rate by profile and chain depth", svg)
        self.assertLess(svg.index("zeta"), svg.index("alpha"))


if __name__ == "__main__":
    unittest.main()
