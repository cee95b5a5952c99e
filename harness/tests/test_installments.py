"""Multi-installment: M4's round robin of equal chunks, the plan of loads and
chunk sizes from the knee, a worker that keeps the chunks it receives while
it computes (buffered), and the figure."""

import os
import tempfile
import unittest

from harness.data import Source
from harness.figure import loglog_svg
from harness.installments import BETAS, plan, round_robin
from harness.local import LocalWorkers
from harness.originator import Star
from harness.startup import fixed_cost
from harness.tests.support import dlt_binary


class Plan(unittest.TestCase):
    def test_equal_chunks_round_robin_the_last_one_smaller(self):
        chunks = round_robin(10, 3, 2)
        self.assertEqual([m for m, _ in chunks], [0, 1, 0, 1])
        self.assertEqual([s for _, s in chunks][:3], [3, 3, 3])
        self.assertAlmostEqual(chunks[-1][1], 1)
        self.assertEqual(len(round_robin(9, 3, 2)), 3)  # no empty last chunk
        self.assertEqual(round_robin(1, 5, 3), [(0, 1)])

    def test_loads_from_the_knee_and_betas_over_three_decades(self):
        knee, loads, runs = plan(8.0, [1, 64], 2, 1000)
        self.assertEqual(knee, 8.0)
        self.assertEqual(loads, [8, 16, 32, 64])
        self.assertEqual(BETAS[-1] / BETAS[0], 1000)
        for load in loads:
            self.assertIn((load, None), runs)  # one installment at every load
        # The smallest beta only where it makes at most 1000 chunks.
        self.assertIn((8, 0.008), runs)
        self.assertNotIn((16, 0.008), runs)
        _, capped, _ = plan(100.0, [1, 64], 2, 10)  # a knee past the sizes
        self.assertLessEqual(max(capped) / 2, 64 / 1.2 + 1e-9)


@unittest.skipUnless(dlt_binary(), "no dlt (cargo build --release --bin dlt, or DLT=...)")
class StartUp(unittest.TestCase):
    def test_the_fixed_cost_is_the_intercept_of_the_computing_times(self):
        with tempfile.TemporaryDirectory() as out:
            with open(os.path.join(out, "compute.csv"), "w") as f:
                f.write("size_MB,time_s\n" + "".join(
                    f"{x},{0.05 + 0.1 * x + e}\n" for x in (1, 2, 4, 8, 16)
                    for e in (-0.001, 0.001)))
            cost = fixed_cost(dlt_binary(), out)
            self.assertTrue(os.path.isfile(os.path.join(out, "fit-intercept.json")))
        self.assertAlmostEqual(cost, 0.05, places=3)


class Buffered(unittest.TestCase):
    def test_a_worker_receives_its_next_chunk_while_it_computes(self):
        local = LocalWorkers(1, ["sh", "-c", "cat > /dev/null; sleep 0.3"], 30)
        try:
            star = Star(local.addresses, 30)
            records = star.run("b", "m4", 0.2, [(0, 0.1), (0, 0.1)], Source(None, 1), None,
                               buffered=True)
            star.close()
        finally:
            local.stop()
        first, second = records
        # Sent while the first computes, then kept until it is done.
        self.assertLess(second["send_start_s"], first["compute_end_s"] - 0.1)
        self.assertGreaterEqual(second["worker_wait_s"], 0.1)
        self.assertGreaterEqual(second["compute_end_s"] - first["compute_end_s"], 0.29)
        self.assertEqual([r["status"] for r in records], ["ok", "ok"])


class Figure(unittest.TestCase):
    def test_lines_points_and_a_legend(self):
        svg = loglog_svg("t", "x", "y", {"model": [(1, 1), (10, 5)]},
                         [(2, 2, "model"), (3, 3, "other"), (0, 1, "other")])
        self.assertEqual(svg.count("<polyline"), 1)
        self.assertEqual(svg.count("<circle"), 2)  # the point at x = 0 left out
        self.assertIn(">other</text>", svg)
        self.assertIn("no data", loglog_svg("t", "x", "y", {}, []))


if __name__ == "__main__":
    unittest.main()
