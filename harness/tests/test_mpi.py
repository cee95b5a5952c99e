"""The MPI mode under `mpirun -n 3 --oversubscribe` (with
`--allow-run-as-root` as root): the smoke loop, a command that fails on one
rank and a rank that dies, each named, its chunks kept as failed, the other
runs going on and the job ending without hanging. Needs `mpirun` and a
Python with mpi4py (MPI_PYTHON, default Debian's /usr/bin/python3); skipped
without them unless HARNESS_MPI=required (as `make test` sets it)."""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from harness.mpi import pieces, wait
from harness.tests.support import dlt_binary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = os.environ.get("MPI_PYTHON", "/usr/bin/python3")


def has_mpi():
    if not shutil.which("mpirun") or not os.path.exists(PYTHON):
        return False
    return subprocess.run([PYTHON, "-c", "import mpi4py"], capture_output=True).returncode == 0


HAS_MPI = has_mpi()
if os.environ.get("HARNESS_MPI") == "required" and not HAS_MPI:
    raise RuntimeError(f"HARNESS_MPI=required, but mpirun or mpi4py in {PYTHON} is missing "
                       "(.ci/setup test installs them)")


def mpirun(*args, timeout=180):
    """`mpirun -n 3 ... PYTHON -m ARGS` from the project's root."""
    launcher = ["mpirun", "-n", "3", "--oversubscribe", "--enable-recovery"]
    if os.geteuid() == 0:
        launcher.append("--allow-run-as-root")
    return subprocess.run([*launcher, PYTHON, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Pieces(unittest.TestCase):
    def test_pieces_cover_a_chunk_once_in_order(self):
        self.assertEqual(pieces(10, 4), [(0, 4), (4, 8), (8, 10)])
        self.assertEqual(pieces(0, 4), [(0, 0)])

    def test_a_wait_ends_when_ready_or_at_its_limit(self):
        self.assertTrue(wait(lambda: True, 0.0))
        start = time.perf_counter()
        self.assertFalse(wait(lambda: False, 0.05))
        self.assertGreaterEqual(time.perf_counter() - start, 0.05)

    @unittest.skipIf(HAS_MPI and PYTHON == sys.executable, "this Python has mpi4py")
    def test_without_mpi4py_the_mode_says_what_to_install(self):
        out = subprocess.run([sys.executable, "-m", "harness", "loop", "--mpi", "--smoke"],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2)
        self.assertIn("the MPI mode needs mpi4py", out.stderr)


@unittest.skipUnless(HAS_MPI, f"no mpirun, or no mpi4py in {PYTHON}")
class UnderMpirun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    @unittest.skipUnless(dlt_binary(), "no dlt binary (build it or set DLT)")
    def test_the_smoke_loop(self):
        out = mpirun("harness", "loop", "--mpi", "--smoke", "--quiet", "--dlt", dlt_binary(),
                     "--out", self.dir)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("two-level model (M3): mean |error|", out.stdout)
        with open(os.path.join(self.dir, "machine.json")) as f:
            about = json.load(f)
        self.assertEqual(about["transport"], "mpi")
        self.assertEqual([w["address"] for w in about["workers"]], ["rank 1", "rank 2"])
        self.assertEqual([w["rank"] for w in about["workers"]], [1, 2])
        timings = rows(os.path.join(self.dir, "timings.csv"))
        self.assertTrue(timings)
        self.assertEqual({r["status"] for r in timings}, {"ok"})
        self.assertEqual({r["worker"] for r in timings}, {"rank 1", "rank 2"})

    def run_case(self, case):
        out = mpirun("harness.tests.mpi_driver", case, self.dir)
        with open(os.path.join(self.dir, "failures.json")) as f:
            result = json.load(f)
        return result, rows(os.path.join(self.dir, "timings.csv")), out

    def test_a_command_that_fails_on_one_rank(self):
        result, timings, _ = self.run_case("fails")
        self.assertEqual(result["ok"], [True, False, True, False])
        self.assertEqual([name for name, _ in result["failures"]], ["b", "d"])
        self.assertIn("worker rank 2: sh -c", result["stderr"])
        self.assertIn("exited with status 3: boom", result["stderr"])
        self.assertEqual([(r["run"], r["machine"], r["status"]) for r in timings],
                         [("a", "P1", "ok"), ("b", "P1", "ok"), ("b", "P2", "failed"),
                          ("c", "P1", "ok"), ("d", "P2", "failed")])
        self.assertIn("exited with status 3", timings[2]["error"])

    def test_a_rank_that_dies(self):
        result, timings, out = self.run_case("dies")
        self.assertEqual(result["ok"], [True, False, True, False])
        self.assertIn("worker rank 2 sent nothing for 3 s: did it die?", result["stderr"])
        self.assertIn("worker rank 2 was lost earlier", result["stderr"])
        self.assertEqual([(r["run"], r["machine"], r["status"]) for r in timings],
                         [("a", "P1", "ok"), ("b", "P1", "ok"), ("b", "P2", "failed"),
                          ("c", "P1", "ok"), ("d", "", "failed")])
        self.assertIn("sent nothing for 3 s", timings[2]["error"])
        # Every rank ended (mpirun --enable-recovery then exits 0 whatever they said).
        self.assertEqual(out.returncode, 0, out.stderr)


if __name__ == "__main__":
    unittest.main()
