"""The one-port star: the timing records of a run (the second send after the
first ack, the compute end the ack plus the worker's durations, the
report's arrival within a round trip of it, a worker's second chunk after
its first is done), the emulated link rate, the generated data."""

import os
import shutil
import socket
import tempfile
import threading
import time
import unittest

from harness.data import Source, chunk_bytes, generate_lines
from harness.local import LocalWorkers
from harness.originator import Star, finish_times
from harness.protocol import MB, TIMING_COLUMNS, send_paced
from harness.tests.support import drain_all, read_timings, start_worker, stop


class RateLimit(unittest.TestCase):
    def test_ten_megabytes_at_100_MBps_take_a_tenth_of_a_second(self):
        a, b = socket.socketpair()
        got = []
        drain = threading.Thread(target=lambda: got.append(drain_all(b, 10 * MB)))
        drain.start()
        start = time.perf_counter()
        send_paced(a, bytes(10 * MB), 100.0)
        drain.join()
        elapsed = time.perf_counter() - start
        a.close()
        b.close()
        self.assertEqual(got, [10 * MB])
        self.assertGreaterEqual(elapsed, 0.1)

    def test_no_rate_sends_everything_at_once(self):
        a, b = socket.socketpair()
        got = []
        drain = threading.Thread(target=lambda: got.append(drain_all(b, 3 * MB)))
        drain.start()
        send_paced(a, bytes(3 * MB), None)
        drain.join()
        a.close()
        b.close()
        self.assertEqual(got, [3 * MB])

    def test_the_link_mode_times_a_paced_message_through_a_worker(self):
        proc, address = start_worker("cat")
        try:
            s = Star([address], 30)
            records = s.run("link", "link", 10, [(0, 10)], Source(None, 10), 100.0,
                            compute=False)
            s.close()
        finally:
            stop(proc)
        r = records[0]
        self.assertGreaterEqual(r["ack_s"] - r["send_start_s"], 0.1)
        self.assertGreaterEqual(r["recv_end_s"] - r["send_start_s"], 0.099)
        self.assertEqual(r["compute_s"], 0.0)


class TimingRecords(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Each worker reads its chunk whole, then takes 0.2 s more.
        cls.local = LocalWorkers(2, ["sh", "-c", "cat > /dev/null; sleep 0.2"], 30)
        cls.dir = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        cls.local.stop()
        shutil.rmtree(cls.dir)

    def test_one_port_star_records(self):
        path = os.path.join(self.dir, "timings.csv")
        s = Star(self.local.addresses, 30, path)
        records = s.run("r1", "model", 1.5, [(0, 1.0), (1, 0.5)], Source(None, 1.0), 50.0)
        s.close()
        first, second = records
        self.assertEqual((first["machine"], second["machine"]), ("P1", "P2"))
        self.assertAlmostEqual(first["chunk_MB"], 1.0)
        self.assertLess(first["send_start_s"], 0.01)
        # 1 MB at 50 MB/s: the receive ends 0.02 s or more after the send began.
        self.assertGreaterEqual(first["ack_s"], 0.02)
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
        finishes, makespan = finish_times(records, 2)
        self.assertEqual(finishes, [first["compute_end_s"], second["compute_end_s"]])
        self.assertEqual(makespan, max(finishes))
        rows = read_timings(path)
        self.assertEqual([r["machine"] for r in rows], ["P1", "P2"])
        self.assertEqual(list(rows[0].keys()), TIMING_COLUMNS)
        self.assertEqual(rows[0]["status"], "ok")
        self.assertAlmostEqual(float(rows[1]["compute_end_s"]), second["compute_end_s"], places=5)

    def test_a_machine_gets_its_next_chunk_after_finishing_the_last(self):
        s = Star(self.local.addresses, 30)
        records = s.run("r2", "model", 0.2, [(0, 0.1), (0, 0.1)], Source(None, 1.0), None)
        s.close()
        first, second = records
        self.assertGreaterEqual(second["send_start_s"], first["done_s"])
        finishes, makespan = finish_times(records, 2)
        self.assertIsNone(finishes)  # P2 got nothing: no per-machine rows
        self.assertEqual(makespan, second["compute_end_s"])

    def test_chunks_are_whole_lines_of_the_generated_data(self):
        source = Source(None, 1.0, seed=3)
        size = chunk_bytes(0.5, source.lines)
        chunk = bytes(source.chunk(size))
        self.assertEqual(len(chunk), 500000)
        self.assertEqual(chunk.count(b"\n"), 5000)
        self.assertTrue(chunk.endswith(b"\n"))
        self.assertEqual(generate_lines(1000, 3), generate_lines(1000, 3))


if __name__ == "__main__":
    unittest.main()
