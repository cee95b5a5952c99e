"""`apps`, [1] section 2's three applications: each command does its work on
the generated lines (compress shrinks them, the join finds one key a row,
grep counts what Python counts), the loads span a decade of the calibrated
range, and the table gives error by V and says whether it fell."""

import re
import shutil
import subprocess
import unittest

from harness.apps import APPLICATIONS, FACTORS, app_loads, apps_table, trend
from harness.data import generate_lines


def program(name):
    command = APPLICATIONS[name][1]
    return command[2] if command[0] == "env" else command[0]


class Commands(unittest.TestCase):
    lines = generate_lines(200 * 100, 3)

    def run_app(self, name):
        command = APPLICATIONS[name][1]
        # The worker sends standard output to a sink; here it is read.
        return subprocess.run(command, input=self.lines, capture_output=True, check=True)

    @unittest.skipUnless(shutil.which(program("compress")), "no compress (ncompress)")
    def test_compress_writes_lzw_smaller_than_its_input(self):
        out = self.run_app("compress").stdout
        self.assertEqual(out[:2], b"\x1f\x9d")  # compress's magic number
        self.assertLess(len(out), len(self.lines))

    @unittest.skipUnless(shutil.which(program("join")), "no sqlite3")
    def test_the_join_matches_every_row_with_one_key(self):
        rows, total = self.run_app("join").stdout.rstrip(b"\n").split(b"\x1f")
        self.assertEqual(int(rows), 200)
        expected = sum((line[0] * 256 + line[1]) % 97 for line in self.lines.splitlines())
        self.assertEqual(int(total), expected)

    @unittest.skipUnless(shutil.which(program("grep")), "no grep")
    def test_grep_counts_the_lines_python_counts(self):
        count = int(self.run_app("grep").stdout)
        self.assertEqual(count, sum(1 for line in self.lines.splitlines()
                                    if re.search(rb"a[0-9]", line)))
        self.assertGreater(count, 20)  # a search that finds something in every chunk


class Loads(unittest.TestCase):
    def test_four_loads_over_a_decade_within_the_calibrated_sizes(self):
        loads = app_loads([0.5, 1, 2, 4, 8, 16, 32], 2)
        self.assertEqual(len(loads), len(FACTORS))
        self.assertEqual(loads, sorted(loads))
        self.assertAlmostEqual(loads[-1] / loads[0], 10, places=2)
        self.assertLessEqual(loads[-1] / 2 * 1.7, 32 + 1e-9)


class Table(unittest.TestCase):
    def result(self, errors):
        runs, checks, loads = [], {}, []
        for i, (load, errs) in enumerate(errors):
            loads.append(load)
            for rep, e in enumerate(errs):
                name = f"V{load:g}-{rep + 1}"
                runs.append(dict(name=name, load=load, makespan=1.0 + i, predicted=1.1 + i))
                checks[("linear", name)] = {"error": e}
        return dict(name="grep", runs=runs, checks=checks, loads=loads, failed=0,
                    machine="a CPU, 2 cores", version="grep 3")

    def test_error_by_load_and_its_trend(self):
        ok = self.result([(2, [0.1, -0.3]), (20, [0.02, -0.04])])
        failed = dict(name="join", error="sqlite3 exited with status 1", runs=[], checks={},
                      loads=[])
        table = apps_table([ok, failed], {"rate": 100.0}, 5)
        self.assertRegex(table, r"grep\s+2\s+2\s+1\.000\s+1\.100\s+20\.0 %\s+< 5 %")
        self.assertRegex(table, r"grep\s+20\s+2\s+2\.000\s+2\.100\s+3\.0 %")
        self.assertIn("grep (pattern search): mean |error| 3.0 % at the largest V (20 MB); "
                      "it fell from 20.0 % at V = 2 MB", table)
        self.assertIn("join: failed: sqlite3 exited with status 1", table)
        self.assertIn("linear DLT (M2): mean |error| 11.5 % over 4 runs of 2 applications", table)
        self.assertIn("machine, grep: a CPU, 2 cores (grep 3)", table)

    def test_an_error_that_grows_is_said_so(self):
        line = trend({"name": "compress"}, "LZW", [(2, 0.01), (20, None), (40, 0.05)])
        self.assertIn("5.0 % at the largest V (40 MB); it did not fall from 1.0 %", line)
        self.assertIn("no run checked", trend({"name": "x"}, "y", [(2, None)]))


if __name__ == "__main__":
    unittest.main()
