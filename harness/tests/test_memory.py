"""The memory and co-located experiments' pieces: one local worker per
budget, each with its own command; every worker calibrated alone or all at
once; a fit per worker kept as fitted; a CPU quota per worker (as root)."""

import argparse
import os
import unittest

from harness import cgroup
from harness.data import Source
from harness.local import LocalWorkers
from harness.loop import loop_commands, loop_requests, quotas_of
from harness.modes import measure_compute
from harness.originator import Star
from harness.protocol import StarError


def loop_args(**given):
    args = dict(budgets=None, command=[], mpi=False, spill="gzip", app="sqlite", cpu_quota=None)
    args.update(given)
    return argparse.Namespace(**args)


class Commands(unittest.TestCase):
    def test_one_sqlite_page_cache_per_budget(self):
        commands = loop_commands(loop_args(budgets="2M, 8M,32M"), {"budget": "1M"})
        caches = [next(w for w in c if w.startswith("PRAGMA")) for c in commands]
        self.assertEqual(caches, ["PRAGMA cache_size=-2048;", "PRAGMA cache_size=-8192;",
                                  "PRAGMA cache_size=-32768;"])
        self.assertEqual(len(loop_commands(loop_args(), {"budget": "1M"})), 1)

    def test_budgets_refuse_a_command_and_mpi(self):
        with self.assertRaisesRegex(StarError, "give no -- COMMAND"):
            loop_commands(loop_args(budgets="1M", command=["--", "cat"]), {"budget": "1M"})
        with self.assertRaisesRegex(StarError, "takes no --mpi"):
            loop_commands(loop_args(budgets="1M", mpi=True), {"budget": "1M"})

    def test_quotas_one_per_worker(self):
        self.assertIsNone(quotas_of(loop_args(), 3))
        with self.assertRaisesRegex(StarError, "gives 2 shares for 3 workers"):
            quotas_of(loop_args(cpu_quota="1,0.5"), 3)
        with self.assertRaisesRegex(StarError, "not above 0"):
            quotas_of(loop_args(cpu_quota="1,0,1"), 3)


class Requests(unittest.TestCase):
    def fit(self, processors, machines, fitted):
        return {"report": {"calibration": {"machines": [{}] * fitted}, "requests": {
            "hierarchical": {"model": "hierarchical", "load": 1, "processors": processors},
            "linear": {"model": "linear", "load": 1, "machines": machines}}}}

    def test_a_fit_per_worker_is_kept_as_fitted(self):
        fit = self.fit([{"p": 1}, {"p": 2}, {"p": 3}], [{"a": 1}, {"a": 2}, {"a": 3}], 3)
        m3, m2 = loop_requests(fit, 3)
        self.assertEqual([p["p"] for p in m3["processors"]], [1, 2, 3])
        self.assertEqual([m["a"] for m in m2["machines"]], [1, 2, 3])

    def test_one_fitted_machine_stands_for_every_worker(self):
        # The requests' defaults may hold more machines than were fitted.
        m3, m2 = loop_requests(self.fit([{"p": 1}, {"p": 9}], [{"a": 1, "count": 1}], 1), 2)
        self.assertEqual(m3["processors"], [{"p": 1}, {"p": 1}])
        self.assertEqual(m2["machines"], [{"a": 1, "count": 2}])
        with self.assertRaisesRegex(StarError, "the fit has 2 machines for 3 workers"):
            loop_requests(self.fit([{"p": 1}, {"p": 2}], [{"a": 1}, {"a": 2}], 2), 3)


class Calibration(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Each worker reads its chunk, then takes 0.1 s more.
        cls.local = LocalWorkers(2, None, 30, commands=[
            ["sh", "-c", "cat > /dev/null; sleep 0.1"], ["sh", "-c", "cat > /dev/null; sleep 0.1"]])
        cls.star = Star(cls.local.addresses, 30)

    @classmethod
    def tearDownClass(cls):
        cls.star.close()
        cls.local.stop()

    def test_each_worker_alone_then_every_worker_at_once(self):
        source = Source(None, 1.0)
        alone = measure_compute(self.star, source, [0.1, 0.2], 1, 1, each=True)
        self.assertEqual(sorted((r[0], r[1]) for r in alone),
                         [("P1", 0.1), ("P1", 0.2), ("P2", 0.1), ("P2", 0.2)])
        together = measure_compute(self.star, source, [0.1, 0.2], 2, 1, together=True)
        self.assertEqual(sorted(r[0] for r in together), [0.1] * 4 + [0.2] * 4)
        pooled = measure_compute(self.star, source, [0.1], 1, 1, each=True, together=True)
        self.assertEqual([r[0] for r in pooled], ["P1", "P2"])
        self.assertTrue(all(r[-1] >= 0.1 for r in alone + together + pooled))
        first = measure_compute(self.star, source, [0.1, 0.2], 1, 1)
        self.assertEqual(sorted(len(r) for r in first), [2, 2])  # worker 1 alone, no column


@unittest.skipUnless(cgroup.available(), "no CPU quota here (not root, or no cgroup CPU controller)")
class Quota(unittest.TestCase):
    def test_a_worker_in_a_cgroup_of_its_own_removed_when_it_stops(self):
        local = LocalWorkers(1, ["cat"], 30, quotas=[0.5])
        folder = local.cgroups[0]
        try:
            with open(os.path.join(folder, "cgroup.procs")) as f:
                self.assertIn(str(local.procs[0].pid), f.read().split())
            quota = os.path.join(folder, "cpu.cfs_quota_us")
            if os.path.isfile(quota):
                with open(quota) as f:
                    self.assertEqual(f.read().strip(), "50000")
            else:
                with open(os.path.join(folder, "cpu.max")) as f:
                    self.assertEqual(f.read().split()[0], "50000")
        finally:
            local.stop()
        self.assertFalse(os.path.exists(folder))

    def test_a_share_of_nothing_is_refused(self):
        with self.assertRaisesRegex(StarError, "expected a share of a core above 0"):
            cgroup.limit(os.getpid(), 0, "dlt-never-made")
        for root in (cgroup.V1, cgroup.V2):
            self.assertFalse(os.path.exists(os.path.join(root, "dlt-never-made")))


if __name__ == "__main__":
    unittest.main()
