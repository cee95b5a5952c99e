"""What the harness does with bad input: a worker killed between runs and
one killed by its own command during a run, a command not found, a
command that fails, a host that refuses, bad sizes and addresses; each
with its message and the other runs' records kept."""

import os
import shutil
import signal
import tempfile
import unittest

from harness.cli import main
from harness.data import Source
from harness.dlt import split_of
from harness.local import LocalWorkers
from harness.originator import Star
from harness.protocol import StarError, parse_address
from harness.tables import parse_sizes
from harness.tests.support import Quiet, closed_port, read_timings, start_worker, stop


class BadInput(Quiet):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "timings.csv")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_a_worker_that_dies(self):
        proc, address = start_worker("cat")
        s = Star([address], 30, self.path)
        source = Source(None, 1.0)
        try:
            ok, _ = self.run_quietly(s.run, "before", "model", 0.1, [(0, 0.1)], source, None)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            lost, err1 = self.run_quietly(s.run, "during", "model", 0.1, [(0, 0.1)], source, None)
            gone, err2 = self.run_quietly(s.run, "after", "model", 0.1, [(0, 0.1)], source, None)
        finally:
            stop(proc)
            s.close()
        self.assertIsNotNone(ok)
        self.assertIsNone(lost)
        self.assertIsNone(gone)
        self.assertIn(f"worker {address} closed the connection", err1)
        self.assertIn(f"worker {address} refused the connection", err2)
        rows = read_timings(self.path)
        self.assertEqual([(r["run"], r["status"]) for r in rows],
                         [("before", "ok"), ("during", "failed"), ("after", "failed")])
        self.assertIn("closed the connection", rows[1]["error"])
        self.assertIn("refused the connection", rows[2]["error"])
        self.assertEqual([name for name, _ in s.failures], ["during", "after"])

    def test_a_worker_that_dies_while_computing(self):
        # The command kills its worker (its parent) midway through the run.
        good, good_address = start_worker("cat")
        bad, bad_address = start_worker("sh", "-c", "kill -9 $PPID")
        s = Star([good_address, bad_address], 30, self.path)
        source = Source(None, 1.0)
        try:
            records, err = self.run_quietly(s.run, "dies", "model", 0.2,
                                            [(0, 0.1), (1, 0.1)], source, None)
            again, _ = self.run_quietly(s.run, "next", "model", 0.1, [(0, 0.1)], source, None)
        finally:
            stop(good)
            stop(bad)
            s.close()
        self.assertIsNone(records)
        self.assertIn(f"worker {bad_address}", err)
        self.assertIsNotNone(again)
        rows = read_timings(self.path)
        self.assertEqual([(r["run"], r["machine"]) for r in rows],
                         [("dies", "P1"), ("dies", "P2"), ("next", "P1")])
        self.assertEqual(rows[-1]["status"], "ok")

    def test_a_command_that_is_not_found(self):
        good, good_address = start_worker("cat")
        bad, bad_address = start_worker("no-such-command-of-star-test")
        s = Star([good_address, bad_address], 30, self.path)
        source = Source(None, 1.0)
        try:
            first, _ = self.run_quietly(s.run, "a", "model", 0.1, [(0, 0.1)], source, None)
            failed, err = self.run_quietly(s.run, "b", "model", 0.1, [(1, 0.1)], source, None)
            last, _ = self.run_quietly(s.run, "c", "model", 0.1, [(0, 0.1)], source, None)
        finally:
            stop(good)
            stop(bad)
            s.close()
        self.assertIsNotNone(first)
        self.assertIsNone(failed)
        self.assertIsNotNone(last)
        self.assertIn(f"worker {bad_address}: command not found: no-such-command-of-star-test", err)
        rows = read_timings(self.path)
        self.assertEqual([(r["run"], r["status"]) for r in rows],
                         [("a", "ok"), ("b", "failed"), ("c", "ok")])
        self.assertIn("command not found", rows[1]["error"])

    def test_a_local_command_that_is_not_found_is_refused_before_starting(self):
        with self.assertRaisesRegex(StarError, "command not found: no-such-command"):
            LocalWorkers(1, ["env", "LC_ALL=C", "no-such-command"], 30)

    def test_a_command_that_fails(self):
        proc, address = start_worker("sh", "-c", "cat > /dev/null; echo boom >&2; exit 3")
        s = Star([address], 30, self.path)
        try:
            failed, err = self.run_quietly(s.run, "x", "model", 0.1, [(0, 0.1)],
                                           Source(None, 1.0), None)
        finally:
            stop(proc)
            s.close()
        self.assertIsNone(failed)
        self.assertIn("exited with status 3: boom", err)

    def test_a_host_that_refuses(self):
        address = f"127.0.0.1:{closed_port()}"
        s = Star([address], 30, self.path)
        failed, err = self.run_quietly(s.run, "x", "model", 0.1, [(0, 0.1)],
                                       Source(None, 1.0), None)
        self.assertIsNone(failed)
        self.assertIn(f"worker {address} refused the connection: is `harness worker` listening",
                      err)
        row, = read_timings(self.path)
        self.assertEqual((row["run"], row["status"]), ("x", "failed"))
        self.assertIn("refused", row["error"])

    def test_a_mode_against_a_refusing_host_says_so_and_fails(self):
        out = os.path.join(self.dir, "link.csv")
        code, err = self.run_quietly(main, ["link", "--workers", f"127.0.0.1:{closed_port()}",
                                                 "--sizes", "1,2", "--repeat", "1", "--out", out])
        self.assertEqual(code, 1)
        self.assertIn("refused the connection", err)
        with open(out) as f:
            self.assertIn("size_MB,time_s", f.read())

    def test_bad_sizes_and_addresses(self):
        with self.assertRaisesRegex(StarError, "size 'x' is not a number"):
            parse_sizes("1,x")
        with self.assertRaisesRegex(StarError, "size -2 is not above 0"):
            parse_sizes("1,-2")
        with self.assertRaisesRegex(StarError, "is not HOST:PORT"):
            parse_address("somehost")

    def test_a_request_without_a_schedule(self):
        with self.assertRaisesRegex(StarError, "has no schedule of chunks"):
            split_of({"model": "metrics", "report": {}})


if __name__ == "__main__":
    unittest.main()
