"""`measure` (any command timed at several sizes) and `real-runs`'s report:
the figures it reads from an experiment's folder, one row per experiment."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from harness.cli import main
from harness.experiments import render, summary


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


class Measure(unittest.TestCase):
    def test_one_row_per_size_and_repetition_with_the_size_in_the_command(self):
        code, out, _ = run_main(["measure", "--machine", "n1", "--sizes", "1,2", "--repeat", "2",
                                 "--", "sh", "-c", "test {size} = 1 || test {size} = 2"])
        self.assertEqual(code, 0)
        rows = out.splitlines()
        self.assertEqual(rows[0], "machine,size_MB,time_s")
        self.assertEqual([r.rsplit(",", 1)[0] for r in rows[1:]], ["n1,1", "n1,2", "n1,1", "n1,2"])
        self.assertTrue(all(float(r.rsplit(",", 1)[1]) >= 0 for r in rows[1:]))

    def test_a_failing_command_stops_with_its_status(self):
        code, out, err = run_main(["measure", "--sizes", "1", "--", "sh", "-c", "exit 4"])
        self.assertEqual(code, 1)
        self.assertEqual(out, "size_MB,time_s\n")
        self.assertIn("failed with status 4", err)

    def test_bad_sizes_are_refused(self):
        code, _, err = run_main(["measure", "--sizes", "1,-1", "--", "true"])
        self.assertEqual(code, 2)
        self.assertIn("size -1 is not above 0", err)


class Report(unittest.TestCase):
    def test_the_figures_of_a_loops_folder(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "table.txt"), "w") as f:
                f.write("load_MB ...\n\ntwo-level model (M3): mean |error| 6.7 % over 10 runs\n"
                        "linear DLT (M2): mean |error| 15.2 % over 10 runs; past the knee 13.1 % over 6\n"
                        "multi-installment (M4): mean |error| 9.0 % over 8 runs\n")
            with open(os.path.join(d, "fit.json"), "w") as f:
                json.dump({"report": {"calibration": {"machines": [
                    {"rate": 0.01, "latency": 0.0002}]}}}, f)
            found = summary(d)
            missing = summary(os.path.join(d, "none"))
        self.assertEqual(found["M3"], "mean |error| 6.7 % over 10 runs")
        self.assertTrue(found["M2"].startswith("mean |error| 15.2 %"))
        self.assertEqual(found["link"], "C = 0.01 s/MB, S = 0.2 ms")
        self.assertEqual(found["M4"], "mean |error| 9.0 % over 8 runs")
        self.assertEqual(missing, {})
        done = [dict(name="loop", about="a loop", argv=["loop"], status=0, wall_s=80.0,
                     table="the table\n", summary=found),
                dict(name="other", about="another", argv=["loop", "--mpi"], status=1, wall_s=2.0,
                     table="", summary={})]
        report = render(done, "out")
        self.assertIn("| loop | ok | 80 s | mean \\|error\\| 6.7 %", report)
        self.assertIn("| other | failed (1) | 2 s | - |", report)
        self.assertIn("(no table: the experiment failed)", report)


if __name__ == "__main__":
    unittest.main()
