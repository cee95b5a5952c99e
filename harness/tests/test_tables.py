"""The tables the harness writes for `dlt fit`, and `dlt fit` reading a runs
table."""

import json
import os
import subprocess
import tempfile
import unittest

from harness.dlt import dlt_json, split_of
from harness.tables import link_comment, runs_rows, write_json, write_table
from harness.tests.support import dlt_binary


class Tables(unittest.TestCase):
    ANSWER = {"model": "hierarchical", "report": {"schedule": {
        "machines": 3, "makespan": 5.75, "chunks": [
            {"machine": 1, "size": 1.25}, {"machine": 0, "size": 0.75},
            {"machine": 2, "size": 0.0}]}}}

    def test_the_split_is_read_in_the_order_sent_without_empty_chunks(self):
        chunks, machines, makespan = split_of(self.ANSWER)
        self.assertEqual(chunks, [(1, 1.25), (0, 0.75)])
        self.assertEqual((machines, makespan), (3, 5.75))

    def test_runs_rows(self):
        self.assertEqual(runs_rows("r", 6.0, [6.0, 5.5], 2),
                         [["r", "all", 6.0, 2], ["r", "P1", 6.0, 2], ["r", "P2", 5.5, 2]])
        self.assertEqual(runs_rows("r", 6.0, None), [["r", "all", 6.0]])

    def test_tables_declare_the_emulated_link(self):
        text = write_table(os.devnull, ["size_MB", "time_s"], [[1.0, 0.5]],
                                [link_comment(100.0)])
        self.assertTrue(text.startswith("# link: emulated, paced by the sender at 100 MB/s"))
        self.assertIn("size_MB,time_s\n1,0.5\n", text)

    @unittest.skipUnless(dlt_binary(), "no dlt binary (build it or set DLT)")
    def test_dlt_reads_the_runs_table(self):
        dlt = dlt_binary()
        request = json.loads(subprocess.run([dlt, "example", "hierarchical"], check=True,
                                            capture_output=True, text=True).stdout)
        _, _, predicted = split_of(dlt_json(dlt, "solve", request=request))
        with tempfile.TemporaryDirectory() as d:
            runs = os.path.join(d, "runs.csv")
            req = os.path.join(d, "m3.json")
            write_json(req, request)
            write_table(runs, ["run", "machine", "time_s"],
                             runs_rows("r1", 6.0, [6.0, 5.5]), [link_comment(None)])
            answer = json.loads(subprocess.run(
                [dlt, "fit", runs, "--as", "runs", "--request", req, "--compact"],
                check=True, capture_output=True, text=True).stdout)
        run = answer["report"]["validity"]["runs"][0]
        self.assertEqual(run["predicted"], predicted)
        self.assertAlmostEqual(run["error"], (6.0 - predicted) / predicted)
        self.assertEqual([m["measured"] for m in run["machines"]], [6.0, 5.5])


if __name__ == "__main__":
    unittest.main()
