"""Tests of docs/star.py, the harness that runs a real application on a star
of workers: the timing records, the emulated link rate, the tables it writes
for `dlt fit`, and what it does when a worker dies, a command is not found
or a host refuses. Standard library only:

    python3 -m unittest tests/star_test.py
"""

import csv
import importlib.util
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
STAR_PATH = os.path.join(HERE, "..", "docs", "star.py")
spec = importlib.util.spec_from_file_location("star", STAR_PATH)
star = importlib.util.module_from_spec(spec)
spec.loader.exec_module(star)

MB = star.MB


def dlt_binary():
    try:
        return star.find_dlt(os.environ.get("DLT"))
    except star.StarError:
        return None


def start_worker(*command):
    """A worker process of star.py on a free local port, without the local
    check that the command exists (as a worker on another host would be)."""
    proc = subprocess.Popen([sys.executable, STAR_PATH, "worker", "--listen", "127.0.0.1:0",
                             "--", *command], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.startswith("star worker listening on "), line
    return proc, line.rsplit(" ", 1)[1].strip()


def stop(proc):
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    proc.stdout.close()


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def read_timings(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Quiet(unittest.TestCase):
    """Keeps the harness's messages about failed runs out of the test output."""

    def run_quietly(self, fn, *args, **kwargs):
        err = io.StringIO()
        with redirect_stderr(err):
            result = fn(*args, **kwargs)
        return result, err.getvalue()


class RateLimit(unittest.TestCase):
    def test_ten_megabytes_at_100_MBps_take_a_tenth_of_a_second(self):
        a, b = socket.socketpair()
        got = []
        drain = threading.Thread(target=lambda: got.append(drain_all(b, 10 * MB)))
        drain.start()
        start = time.perf_counter()
        star.send_paced(a, bytes(10 * MB), 100.0)
        drain.join()
        elapsed = time.perf_counter() - start
        a.close()
        b.close()
        self.assertEqual(got, [10 * MB])
        self.assertGreaterEqual(elapsed, 0.1)
        self.assertLess(elapsed, 0.15)  # not slower than paced either

    def test_no_rate_sends_everything_at_once(self):
        a, b = socket.socketpair()
        got = []
        drain = threading.Thread(target=lambda: got.append(drain_all(b, 3 * MB)))
        drain.start()
        star.send_paced(a, bytes(3 * MB), None)
        drain.join()
        a.close()
        b.close()
        self.assertEqual(got, [3 * MB])

    def test_the_link_mode_times_a_paced_message_through_a_worker(self):
        proc, address = start_worker("cat")
        try:
            s = star.Star([address], 30)
            records = s.run("link", "link", 10, [(0, 10)], star.Source(None, 10), 100.0,
                            compute=False)
            s.close()
        finally:
            stop(proc)
        r = records[0]
        self.assertGreaterEqual(r["ack_s"] - r["send_start_s"], 0.1)
        self.assertLess(r["ack_s"] - r["send_start_s"], 0.18)
        self.assertGreaterEqual(r["recv_end_s"] - r["send_start_s"], 0.099)
        self.assertLess(r["recv_end_s"] - r["send_start_s"], 0.18)
        self.assertEqual(r["compute_s"], 0.0)


def drain_all(sock, size):
    got = 0
    while got < size:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        got += len(chunk)
    return got


class TimingRecords(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Each worker reads its chunk whole, then takes 0.2 s more.
        cls.local = star.LocalWorkers(2, ["sh", "-c", "cat > /dev/null; sleep 0.2"], 30)
        cls.dir = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        cls.local.stop()
        shutil.rmtree(cls.dir)

    def test_one_port_star_records(self):
        path = os.path.join(self.dir, "timings.csv")
        s = star.Star(self.local.addresses, 30, path)
        records = s.run("r1", "model", 1.5, [(0, 1.0), (1, 0.5)], star.Source(None, 1.0), 50.0)
        s.close()
        first, second = records
        self.assertEqual((first["machine"], second["machine"]), ("P1", "P2"))
        self.assertAlmostEqual(first["chunk_MB"], 1.0)
        self.assertLess(first["send_start_s"], 0.01)
        # 1 MB at 50 MB/s: the receive ends 0.02 s or more after the send began.
        self.assertGreaterEqual(first["ack_s"], 0.02)
        self.assertLess(first["ack_s"], 0.1)
        # One port: the second send starts when the first receive has ended.
        self.assertGreaterEqual(second["send_start_s"], first["ack_s"])
        for r in records:
            self.assertGreaterEqual(r["recv_end_s"], r["send_start_s"])
            self.assertLessEqual(r["recv_end_s"], r["ack_s"])
            self.assertGreaterEqual(r["compute_s"], 0.2)
            self.assertAlmostEqual(r["compute_end_s"],
                                   r["recv_end_s"] + r["worker_wait_s"] + r["compute_s"])
            # The anchored end and the report's arrival agree within the two
            # messages' trips (loose: a busy machine delays either).
            self.assertGreater(r["done_s"] - r["compute_end_s"], -0.05)
            self.assertLess(r["done_s"] - r["compute_end_s"], 0.5)
            self.assertEqual(r["status"], "ok")
        finishes, makespan = star.finish_times(records, 2)
        self.assertEqual(finishes, [first["compute_end_s"], second["compute_end_s"]])
        self.assertEqual(makespan, max(finishes))
        rows = read_timings(path)
        self.assertEqual([r["machine"] for r in rows], ["P1", "P2"])
        self.assertEqual(list(rows[0].keys()), star.TIMING_COLUMNS)
        self.assertEqual(rows[0]["status"], "ok")
        self.assertAlmostEqual(float(rows[1]["compute_end_s"]), second["compute_end_s"], places=5)

    def test_a_machine_gets_its_next_chunk_after_finishing_the_last(self):
        s = star.Star(self.local.addresses, 30)
        records = s.run("r2", "model", 0.2, [(0, 0.1), (0, 0.1)], star.Source(None, 1.0), None)
        s.close()
        first, second = records
        self.assertGreaterEqual(second["send_start_s"], first["done_s"])
        finishes, makespan = star.finish_times(records, 2)
        self.assertIsNone(finishes)  # P2 got nothing: no per-machine rows
        self.assertEqual(makespan, second["compute_end_s"])

    def test_chunks_are_whole_lines_of_the_generated_data(self):
        source = star.Source(None, 1.0, seed=3)
        size = star.chunk_bytes(0.5, source.lines)
        chunk = bytes(source.chunk(size))
        self.assertEqual(len(chunk), 500000)
        self.assertEqual(chunk.count(b"\n"), 5000)
        self.assertTrue(chunk.endswith(b"\n"))
        self.assertEqual(star.generate_lines(1000, 3), star.generate_lines(1000, 3))


class BadInput(Quiet):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "timings.csv")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_a_worker_that_dies(self):
        proc, address = start_worker("cat")
        s = star.Star([address], 30, self.path)
        source = star.Source(None, 1.0)
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
        s = star.Star([good_address, bad_address], 30, self.path)
        source = star.Source(None, 1.0)
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
        s = star.Star([good_address, bad_address], 30, self.path)
        source = star.Source(None, 1.0)
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
        with self.assertRaisesRegex(star.StarError, "command not found: no-such-command"):
            star.LocalWorkers(1, ["env", "LC_ALL=C", "no-such-command"], 30)

    def test_a_command_that_fails(self):
        proc, address = start_worker("sh", "-c", "cat > /dev/null; echo boom >&2; exit 3")
        s = star.Star([address], 30, self.path)
        try:
            failed, err = self.run_quietly(s.run, "x", "model", 0.1, [(0, 0.1)],
                                           star.Source(None, 1.0), None)
        finally:
            stop(proc)
            s.close()
        self.assertIsNone(failed)
        self.assertIn("exited with status 3: boom", err)

    def test_a_host_that_refuses(self):
        address = f"127.0.0.1:{closed_port()}"
        s = star.Star([address], 30, self.path)
        failed, err = self.run_quietly(s.run, "x", "model", 0.1, [(0, 0.1)],
                                       star.Source(None, 1.0), None)
        self.assertIsNone(failed)
        self.assertIn(f"worker {address} refused the connection: is `star.py worker` listening",
                      err)
        row, = read_timings(self.path)
        self.assertEqual((row["run"], row["status"]), ("x", "failed"))
        self.assertIn("refused", row["error"])

    def test_a_mode_against_a_refusing_host_says_so_and_fails(self):
        out = os.path.join(self.dir, "link.csv")
        code, err = self.run_quietly(star.main, ["link", "--workers", f"127.0.0.1:{closed_port()}",
                                                 "--sizes", "1,2", "--repeat", "1", "--out", out])
        self.assertEqual(code, 1)
        self.assertIn("refused the connection", err)
        with open(out) as f:
            self.assertIn("size_MB,time_s", f.read())

    def test_bad_sizes_and_addresses(self):
        with self.assertRaisesRegex(star.StarError, "size 'x' is not a number"):
            star.parse_sizes("1,x")
        with self.assertRaisesRegex(star.StarError, "size -2 is not above 0"):
            star.parse_sizes("1,-2")
        with self.assertRaisesRegex(star.StarError, "is not HOST:PORT"):
            star.parse_address("somehost")

    def test_bad_budgets(self):
        for app in star.APPS:
            for bad in ("", "M", "-8M", "eight", "infM", "nan", "0", "150%"):
                with self.assertRaisesRegex(star.StarError, "expected a size such as 16M"):
                    star.default_command(bad, app=app)
        # sort's units: a bare number is KiB, `b` bytes; a share of memory for sort only.
        self.assertEqual(star.parse_bytes("512K"), 512 * 1024)
        self.assertEqual(star.parse_bytes("8m"), 8 * 1024 ** 2)
        self.assertEqual(star.parse_bytes("64"), 64 * 1024)
        self.assertEqual(star.parse_bytes("4096b"), 4096)
        self.assertIn("-S", star.default_command("10%", app="sort"))
        with self.assertRaisesRegex(star.StarError, "16M or 512K'?$"):
            star.default_command("10%", app="sqlite")

    def test_a_request_without_a_schedule(self):
        with self.assertRaisesRegex(star.StarError, "has no schedule of chunks"):
            star.split_of({"model": "metrics", "report": {}})


class DefaultApplications(unittest.TestCase):
    def test_sort_gets_its_budget_and_spill(self):
        self.assertEqual(star.default_command("16M", "gzip", "sort"),
                         ["env", "LC_ALL=C", "sort", "--parallel=1", "-S", "16M",
                          "--compress-program=gzip"])
        self.assertNotIn("--compress-program", " ".join(star.default_command("1M", "none", "sort")))

    def test_sqlite_gets_its_page_cache_in_kib(self):
        command = star.default_command("8M")
        self.assertEqual(command[:3], ["sqlite3", "-batch", ""])
        self.assertIn("PRAGMA cache_size=-8192;", command)
        self.assertEqual(star.shown(command)[:18], "sqlite3 -batch '' ")

    @unittest.skipUnless(shutil.which("sqlite3"), "no sqlite3")
    def test_sqlite_loads_every_line_as_one_row_whatever_it_holds(self):
        # Separators, quotes, tabs and repeated lines: one row each, no error.
        lines = b'a|b\n"quoted\nsame\nsame\nx\ty,z\n' + b"w" * 99 + b"\n"
        command = star.default_command("1M") + ["SELECT count(*), count(DISTINCT line) FROM t;"]
        out = subprocess.run(command, input=lines, capture_output=True, check=True)
        self.assertEqual(out.stderr, b"")
        self.assertEqual(out.stdout, b"6\x1f5\n")  # rows and distinct rows, as .mode ascii prints


class Tables(unittest.TestCase):
    ANSWER = {"model": "hierarchical", "report": {"schedule": {
        "machines": 3, "makespan": 5.75, "chunks": [
            {"machine": 1, "size": 1.25}, {"machine": 0, "size": 0.75},
            {"machine": 2, "size": 0.0}]}}}

    def test_the_split_is_read_in_the_order_sent_without_empty_chunks(self):
        chunks, machines, makespan = star.split_of(self.ANSWER)
        self.assertEqual(chunks, [(1, 1.25), (0, 0.75)])
        self.assertEqual((machines, makespan), (3, 5.75))

    def test_runs_rows(self):
        self.assertEqual(star.runs_rows("r", 6.0, [6.0, 5.5], 2),
                         [["r", "all", 6.0, 2], ["r", "P1", 6.0, 2], ["r", "P2", 5.5, 2]])
        self.assertEqual(star.runs_rows("r", 6.0, None), [["r", "all", 6.0]])

    def test_tables_declare_the_emulated_link(self):
        text = star.write_table(os.devnull, ["size_MB", "time_s"], [[1.0, 0.5]],
                                [star.link_comment(100.0)])
        self.assertTrue(text.startswith("# link: emulated, paced by the sender at 100 MB/s"))
        self.assertIn("size_MB,time_s\n1,0.5\n", text)

    @unittest.skipUnless(dlt_binary(), "no dlt binary (build it or set DLT)")
    def test_dlt_reads_the_runs_table(self):
        dlt = dlt_binary()
        request = json.loads(subprocess.run([dlt, "example", "hierarchical"], check=True,
                                            capture_output=True, text=True).stdout)
        _, _, predicted = star.split_of(star.dlt_json(dlt, "solve", request=request))
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "runs.csv")
            req = os.path.join(d, "m3.json")
            star.write_json(req, request)
            star.write_table(runs, ["run", "machine", "time_s"],
                             star.runs_rows("r1", 6.0, [6.0, 5.5]), [star.link_comment(None)])
            answer = json.loads(subprocess.run(
                [dlt, "fit", runs, "--as", "runs", "--request", req, "--compact"],
                check=True, capture_output=True, text=True).stdout)
        run = answer["report"]["validity"]["runs"][0]
        self.assertEqual(run["predicted"], predicted)
        self.assertAlmostEqual(run["error"], (6.0 - predicted) / predicted)
        self.assertEqual([m["measured"] for m in run["machines"]], [6.0, 5.5])


if __name__ == "__main__":
    unittest.main()
