#!/usr/bin/python3
"""Tests of dmasim_plot.py's drawing rules: unit ticks, series told apart,
legends beside the axes, categories as bars, titles from the labels."""
import argparse
import importlib.util
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
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for entries in (0, 4, 14, 40):
            fig, ax, _ = plot.figure(plt, entries, 60)
            width = ax.get_position().width * fig.get_figwidth()
            self.assertAlmostEqual(width, plot.AXES_INCHES[0])
            plt.close(fig)

    def test_several_series_columns_name_each_value(self):
        series = [("iommu.enabled", "IOMMU enabled", ""), ("iommu.iotlb_entries", "IOTLB entries",
                                                           "entries")]
        row = {"iommu.enabled": "true", "iommu.iotlb_entries": "64"}
        self.assertEqual(plot.series_label(row, series), "IOMMU enabled true, IOTLB entries 64")


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
    def test_a_cause_keeps_its_colour_when_an_earlier_cause_is_zero(self):
        # account.writeback is the group's third column: colour C2 (#2ca02c)
        # in every plot, even where bandwidth (C1, #ff7f0e) is not drawn.
        csv_text = "workload.entries,account.data,account.bandwidth,account.writeback\n" \
                   "4,90,0,10\n8,80,0,20\n"
        status, err, svg = draw(csv_text, "--stack", "account")
        self.assertEqual(status, 0, err)
        self.assertIn("#2ca02c", svg)
        self.assertNotIn("#ff7f0e", svg)


if __name__ == "__main__":
    unittest.main()
