"""Links the kernel shapes (root only): a worker in a network namespace of
its own, reached at its address there through a veth pair whose rate tc's
token bucket sets; everything removed afterwards."""

import os
import subprocess
import unittest

from harness import netns
from harness.data import Source
from harness.local import LocalWorkers
from harness.originator import Star
from harness.protocol import StarError


def namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


@unittest.skipUnless(netns.available(), "not root, or no ip netns or tc")
class KernelLink(unittest.TestCase):
    def test_a_message_takes_the_shaped_rate_and_the_namespaces_go(self):
        links = netns.Links(1, 50.0, tag=f"t{os.getpid()}")
        local = LocalWorkers(1, ["cat"], 30, links=links)
        try:
            links.enter()
            self.assertEqual(local.addresses[0].rsplit(":", 1)[0], "10.213.1.2")
            star = Star(local.addresses, 30)
            records = star.run("link", "link", 2, [(0, 2)], Source(None, 2), None, compute=False)
            star.close()
        finally:
            local.stop()
        # 2 MB at 50 MB/s: 0.04 s, less the bucket's 128 KiB sent at once.
        r = records[0]
        self.assertGreaterEqual(r["ack_s"] - r["send_start_s"], 0.035)
        self.assertFalse({links.originator, *links.workers} & namespaces())

    def test_bad_shapes_are_refused(self):
        with self.assertRaisesRegex(StarError, "rate in MB/s above 0"):
            netns.Links(1, 0)
        with self.assertRaisesRegex(StarError, "expected 1 to 250"):
            netns.Links(0, 10)


if __name__ == "__main__":
    unittest.main()
