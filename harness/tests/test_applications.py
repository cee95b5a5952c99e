"""The default applications' commands: SQLite loads every line as one row,
whatever it holds; sort gets its budget and spill; a bad budget is refused."""

import shutil
import subprocess
import unittest

from harness.applications import APPS, default_command, parse_bytes, shown
from harness.protocol import StarError


class DefaultApplications(unittest.TestCase):
    def test_sort_gets_its_budget_and_spill(self):
        self.assertEqual(default_command("16M", "gzip", "sort"),
                         ["env", "LC_ALL=C", "sort", "--parallel=1", "-S", "16M",
                          "--compress-program=gzip"])
        self.assertNotIn("--compress-program", " ".join(default_command("1M", "none", "sort")))

    def test_sqlite_gets_its_page_cache_in_kib(self):
        command = default_command("8M")
        self.assertEqual(command[:3], ["sqlite3", "-batch", ""])
        self.assertIn("PRAGMA cache_size=-8192;", command)
        self.assertEqual(shown(command)[:18], "sqlite3 -batch '' ")

    @unittest.skipUnless(shutil.which("sqlite3"), "no sqlite3")
    def test_sqlite_loads_every_line_as_one_row_whatever_it_holds(self):
        # Separators, quotes, tabs and repeated lines: one row each, no error.
        lines = b'a|b\n"quoted\nsame\nsame\nx\ty,z\n' + b"w" * 99 + b"\n"
        command = default_command("1M") + ["SELECT count(*), count(DISTINCT line) FROM t;"]
        out = subprocess.run(command, input=lines, capture_output=True, check=True)
        self.assertEqual(out.stderr, b"")
        self.assertEqual(out.stdout, b"6\x1f5\n")  # rows and distinct rows, as .mode ascii prints

    def test_bad_budgets(self):
        for app in APPS:
            for bad in ("", "M", "-8M", "eight", "infM", "nan", "0", "150%"):
                with self.assertRaisesRegex(StarError, "expected a size such as 16M"):
                    default_command(bad, app=app)
        # sort's units: a bare number is KiB, `b` bytes; a share of memory for sort only.
        self.assertEqual(parse_bytes("512K"), 512 * 1024)
        self.assertEqual(parse_bytes("8m"), 8 * 1024 ** 2)
        self.assertEqual(parse_bytes("64"), 64 * 1024)
        self.assertEqual(parse_bytes("4096b"), 4096)
        self.assertIn("-S", default_command("10%", app="sort"))
        with self.assertRaisesRegex(StarError, "16M or 512K'?$"):
            default_command("10%", app="sqlite")


if __name__ == "__main__":
    unittest.main()
