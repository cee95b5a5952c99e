"""Links the kernel shapes (root only): the originator and each local
worker in a network namespace of its own, joined by a veth pair whose
originator end sends at a rate set by the kernel's traffic control (a
token bucket filter, `tc qdisc ... tbf`), instead of the sender's pacing.

Only addresses inside these namespaces are used (10.213.K.1 the
originator's end towards worker K, 10.213.K.2 the worker's), so nothing
of the host's own network changes; `Links.remove` deletes every
namespace, which deletes their veth pairs with them.
"""

import ctypes
import os
import subprocess

from .protocol import StarError

SUBNET = "10.213"
CLONE_NEWNET = 0x40000000


def available():
    """Whether this process can make namespaces and shape links: root, `ip`
    and `tc`, and a probe namespace made and deleted (a container may deny
    it to root)."""
    if os.geteuid() != 0 or subprocess.run(["tc", "-V"], capture_output=True).returncode:
        return False
    probe = f"dlt{os.getpid()}probe"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode:
        return False
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return True


def ip(*words):
    done = subprocess.run(["ip", *words], capture_output=True, text=True)
    if done.returncode != 0:
        raise StarError(f"ip {' '.join(words)}: {done.stderr.strip() or 'failed'}")


class Links:
    """The namespaces of one experiment: `originator` and one per worker."""

    def __init__(self, workers, rate_mbps, tag=None):
        if not 0 < workers <= 250:
            raise StarError(f"{workers} workers: expected 1 to 250")
        if not rate_mbps or not rate_mbps > 0:
            raise StarError("a kernel-shaped link needs a rate in MB/s above 0")
        tag = tag or str(os.getpid())
        self.originator = f"dlt{tag}o"
        self.workers = [f"dlt{tag}w{k + 1}" for k in range(workers)]
        self.addresses = [f"{SUBNET}.{k + 1}.2" for k in range(workers)]
        self.rate_mbps = rate_mbps
        self.made = []
        try:
            for ns in [self.originator] + self.workers:
                ip("netns", "add", ns)
                self.made.append(ns)
                ip("-n", ns, "link", "set", "lo", "up")
            for k, ns in enumerate(self.workers):
                self.join(k, ns)
        except StarError:
            self.remove()
            raise

    def join(self, k, ns):
        """The veth pair to worker k, its originator end shaped by tbf."""
        near, far = f"o{k + 1}", f"w{k + 1}"
        ip("link", "add", near, "netns", self.originator, "type", "veth", "peer", "name", far,
           "netns", ns)
        ip("-n", self.originator, "addr", "add", f"{SUBNET}.{k + 1}.1/30", "dev", near)
        ip("-n", ns, "addr", "add", f"{SUBNET}.{k + 1}.2/30", "dev", far)
        ip("-n", self.originator, "link", "set", near, "up")
        ip("-n", ns, "link", "set", far, "up")
        # The bucket holds at least one segmentation-offloaded packet (64 KiB)
        # and 2 ms at the rate; packets wait up to 100 ms before a drop.
        rate_bytes = self.rate_mbps * 1e6
        burst = max(128 * 1024, int(rate_bytes * 0.002))
        done = subprocess.run(["tc", "-n", self.originator, "qdisc", "add", "dev", near, "root",
                               "tbf", "rate", f"{int(rate_bytes * 8)}bit", "burst", str(burst),
                               "latency", "100ms"], capture_output=True, text=True)
        if done.returncode != 0:
            raise StarError(f"tc ... tbf on {near}: {done.stderr.strip() or 'failed'}")

    def prefix(self, k):
        """The words that run a command in worker k's namespace."""
        return ["ip", "netns", "exec", self.workers[k]]

    def describe(self):
        return {"how": f"kernel: veth pairs between network namespaces, tc tbf at "
                       f"{self.rate_mbps:g} MB/s on the originator's end; sender pacing off",
                "emulated_MBps": None, "kernel_MBps": self.rate_mbps,
                "addresses": self.addresses}

    def enter(self):
        """Moves this process (its calling thread, and every thread and process
        it starts afterwards) into the originator's namespace."""
        self.home = os.open("/proc/self/ns/net", os.O_RDONLY)
        setns(f"/var/run/netns/{self.originator}")

    def leave(self):
        home = getattr(self, "home", None)
        if home is not None:
            setns_fd(home)
            os.close(home)
            self.home = None

    def remove(self):
        self.leave()
        for ns in reversed(self.made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.made = []


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        setns_fd(fd)
    finally:
        os.close(fd)


def setns_fd(fd):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise StarError(f"setns: {os.strerror(ctypes.get_errno())}")
