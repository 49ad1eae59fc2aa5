#!/usr/bin/python3
"""Tests of the Python front end (python/dmasim) against the real binary
(DMASIM_EXE, set by ctest). Each case runs small simulations: a handful of
entries of 1 KiB, so every point takes milliseconds."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmasim  # noqa: E402

try:
    import pandas
except ImportError:
    pandas = None

# entries {4, 8} x chain depth {1, 2}, 1 KiB segments: point i has
# entries = [4, 4, 8, 8][i] and depth = [1, 2, 1, 2][i] (last key fastest).
GRID = {"set": {"workload.segment_bytes": "1KiB"},
        "sweep": {"workload.entries": [4, 8], "workload.chain_depth": [1, 2]}}


class SweepTest(unittest.TestCase):
    @unittest.skipIf(pandas is None, "python3-pandas is not installed")
    def test_sweep_returns_a_data_frame_in_point_order(self):
        df = dmasim.sweep(GRID, jobs=2)
        self.assertIsInstance(df, pandas.DataFrame)
        self.assertEqual(list(df["workload.entries"]), [4, 4, 8, 8])
        self.assertEqual(list(df["workload.chain_depth"]), [1, 2, 1, 2])
        # bytes = entries x 1024; chain_links = depth - 1 (docs/descriptor-formats.md).
        self.assertEqual(list(df["bytes"]), [e * 1024 for e in df["workload.entries"]])
        self.assertEqual(list(df["chain_links"]), [d - 1 for d in df["workload.chain_depth"]])
        self.assertTrue((df["integrity"] == "pass").all())

    def test_sweep_without_pandas_gives_dicts_of_numbers(self):
        rows = dmasim.sweep(GRID, jobs=2, frame=False)
        self.assertEqual(len(rows), 4)
        self.assertEqual([r["bytes"] for r in rows], [4096, 4096, 8192, 8192])
        self.assertIsInstance(rows[0]["throughput_gbps"], float)

    def test_sets_apply_to_every_point_and_load_reads_the_folder_back(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            rows = dmasim.sweep({"sweep": {"workload.chain_depth": [1, 2]}}, out,
                                workload__entries=4, workload__segment_bytes=2048, frame=False)
            self.assertEqual([r["bytes"] for r in rows], [4 * 2048, 4 * 2048])
            self.assertEqual(dmasim.load(out, frame=False), rows)

    def test_listed_bases_are_taken_from_the_working_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, width in (("narrow", 4), ("wide", 32)):
                with open(os.path.join(tmp, name + ".yaml"), "w") as f:
                    f.write(f"bus:\n  width_bytes: {width}\n")
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                rows = dmasim.sweep({"base": ["narrow.yaml", "wide.yaml"],
                                     "set": {"workload.entries": 4}}, frame=False)
            finally:
                os.chdir(cwd)
            self.assertEqual([r["base"] for r in rows], ["narrow", "wide"])
            self.assertLess(rows[0]["throughput_gbps"], rows[1]["throughput_gbps"])

    def test_plot_draws_with_the_cli_plot_code(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = dmasim.sweep(GRID, os.path.join(tmp, "out"), frame=False)
            png = dmasim.plot(rows, os.path.join(tmp, "t.png"))
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class PlotTest(unittest.TestCase):
    def draw_svg(self, data, folder):
        svg = dmasim.plot(data, os.path.join(folder, "t.svg"))
        with open(svg) as f:
            return f.read()

    def test_plot_of_a_table_keeps_the_sweeps_subtitle_and_peak_line(self):
        # default.yaml: 16-byte bus at 1000 MHz peaks at 16 x 1000 / 1000 = 16 GB/s.
        tables = [dmasim.sweep(GRID, frame=False)] + ([dmasim.sweep(GRID)] if pandas else [])
        for table in tables:
            with tempfile.TemporaryDirectory() as tmp:
                text = self.draw_svg(table, tmp)
                self.assertIn("peak: 16 B x 1000 MHz = 16 GB/s", text)
                self.assertIn("clock 1000 MHz", text)

    def test_plot_keeps_a_file_it_did_not_draw_unless_asked(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = dmasim.sweep(GRID, os.path.join(tmp, "out"), frame=False)
            mine = os.path.join(tmp, "mine.png")
            with open(mine, "w") as f:
                f.write("my own picture")
            with self.assertRaises(dmasim.DmasimError) as caught:
                dmasim.plot(rows, mine)
            self.assertIn("overwrite=True", str(caught.exception))
            with open(mine) as f:
                self.assertEqual(f.read(), "my own picture")
            # Its own drawing it redraws; someone else's only when asked.
            drawn = os.path.join(tmp, "drawn.png")
            dmasim.plot(rows, drawn)
            dmasim.plot(rows, drawn)
            dmasim.plot(rows, mine, overwrite=True)
            with open(mine, "rb") as f:
                self.assertEqual(f.read(4), b"\x89PNG")

    def test_stack_plot_is_the_clis_picture(self):
        # The rows go through a CSV the front end writes itself, yet the
        # picture must be the one `dmasim plot --stack account` draws from
        # the sweep folder: same script, same labels, same shares.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            rows = dmasim.sweep(GRID, out, frame=False)
            for r in rows:  # account.* adds up to the run's cycles
                self.assertEqual(sum(v for k, v in r.items() if k.count(".") == 1
                                     and k.startswith("account.")), r["cycles"])
            mine = dmasim.plot(rows, os.path.join(tmp, "py.png"), stack="account")
            cli = os.path.join(tmp, "cli.png")
            dmasim._frontend._call(["plot", os.path.join(out, "results.csv"), "--x",
                                    "workload.entries", "--stack", "account", "-o", cli])
            with open(mine, "rb") as a, open(cli, "rb") as b:
                self.assertEqual(a.read(), b.read())
            with open(dmasim.plot(rows, os.path.join(tmp, "t.svg"), stack="account")) as f:
                text = f.read()
            self.assertIn("Cycles by cause", text)
            self.assertIn("Share of cycles (%)", text)

    def test_where_and_facet_pick_the_rows_of_a_stack(self):
        # GRID has two chain depths per list length: one bar per x needs
        # either one depth (where) or a panel per depth (facet).
        rows = dmasim.sweep(GRID, frame=False)
        with tempfile.TemporaryDirectory() as tmp:
            with open(dmasim.plot(rows, os.path.join(tmp, "w.svg"), stack="account",
                                  where={"workload.chain_depth": 2})) as f:
                self.assertIn("chain depth 2", f.read())
            with open(dmasim.plot(rows, os.path.join(tmp, "f.svg"), stack="account",
                                  facet="workload.chain_depth")) as f:
                text = f.read()
            self.assertIn("chain depth 1", text)
            self.assertIn("chain depth 2", text)

    def test_stack_of_a_group_the_table_lacks_is_bad_input(self):
        rows = dmasim.sweep(GRID, frame=False)
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(dmasim.DmasimError) as caught:
                dmasim.plot(rows, os.path.join(tmp, "t.png"), stack="acount")
            self.assertEqual(caught.exception.status, 2)
            self.assertIn("acount", str(caught.exception))


class FailureTest(unittest.TestCase):
    def test_points_whose_integrity_failed_are_missing_from_the_table(self):
        spec = {"set": {"workload.entries": 4, "workload.segment_bytes": "1KiB"},
                "sweep": {"fault.kind": ["none", "data"]}}
        rows = dmasim.sweep(spec, frame=False)
        self.assertEqual([r["integrity"] for r in rows], ["pass"])
        if pandas:
            self.assertEqual(list(dmasim.sweep(spec)["integrity"]), ["pass"])

    def test_missing_pandas_names_the_package_or_a_list(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            dmasim.sweep(GRID, out, frame=False)
            saved = sys.modules.get("pandas")
            sys.modules["pandas"] = None  # import pandas now raises ImportError
            try:
                with self.assertRaises(dmasim.DmasimError) as caught:
                    dmasim.load(out)
                self.assertIn("python3-pandas", str(caught.exception))
                self.assertIn("frame=False", str(caught.exception))
                self.assertEqual(len(dmasim.load(out, frame=False)), 4)
            finally:
                if saved is None:
                    del sys.modules["pandas"]
                else:
                    sys.modules["pandas"] = saved

    def test_a_missing_or_unrunnable_binary_is_a_dmasim_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            not_executable = os.path.join(tmp, "dmasim")
            with open(not_executable, "w") as f:
                f.write("#!/bin/sh\n")
            saved = os.environ["DMASIM_EXE"]
            try:
                for exe in (os.path.join(tmp, "missing"), not_executable):
                    os.environ["DMASIM_EXE"] = exe
                    with self.assertRaises(dmasim.DmasimError) as caught:
                        dmasim.version()
                    self.assertEqual(caught.exception.status, 2)
                    self.assertIn(exe, str(caught.exception))
            finally:
                os.environ["DMASIM_EXE"] = saved


class RunTest(unittest.TestCase):
    def test_run_returns_the_report_of_a_nested_config_with_sets(self):
        report = dmasim.run({"workload": {"entries": 8, "segment_bytes": 1024}},
                            workload__chain_depth=4)
        self.assertEqual(report["config"]["workload.chain_depth"], 4)
        self.assertEqual(report["result"]["bytes"], 8 * 1024)
        self.assertEqual(report["result"]["chain_links"], 4 - 1)

    def test_configs_layer_left_to_right(self):
        report = dmasim.run([{"workload.entries": 8, "workload.segment_bytes": 512},
                             {"workload.entries": 2}])
        self.assertEqual(report["result"]["bytes"], 2 * 512)

    def test_bad_key_raises_with_dmasims_message(self):
        with self.assertRaises(dmasim.DmasimError) as caught:
            dmasim.run({"workload.entires": 8})
        self.assertEqual(caught.exception.status, 2)
        self.assertIn("did you mean workload.entries?", str(caught.exception))

    def test_failed_integrity_still_returns_the_report(self):
        report = dmasim.run({"workload.entries": 4, "fault.kind": "data"})
        self.assertEqual(report["result"]["integrity"], "fail")

    def test_version_is_the_binarys(self):
        self.assertRegex(dmasim.version(), r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main(verbosity=2)
