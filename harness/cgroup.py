"""A CPU quota per local worker, through the kernel's cgroup CPU controller
(root only): a worker limited to a share of one core computes as a slower
machine would, and every command it starts inherits the limit.

A cluster's machines differ in speed by themselves; there, each worker's
speed is what its calibration measures (`--each`), and no quota is needed.
"""

import os

from .protocol import StarError

V1 = "/sys/fs/cgroup/cpu"  # the cgroup v1 CPU controller's hierarchy
V2 = "/sys/fs/cgroup"  # the unified hierarchy, where it holds the cpu controller
PERIOD_US = 100000


def available():
    """Whether this process can set CPU quotas: root, a CPU controller
    mounted, and a probe cgroup made and removed (a container may mount it
    read-only)."""
    v1 = os.path.isfile(os.path.join(V1, "cpu.cfs_quota_us"))
    if os.geteuid() != 0 or not (v1 or "cpu" in read(os.path.join(V2, "cgroup.controllers")).split()):
        return False
    probe = os.path.join(V1 if v1 else V2, f"dlt-probe-{os.getpid()}")
    try:
        os.mkdir(probe)
        os.rmdir(probe)
    except OSError:
        return False
    return True


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def limit(pid, share, name):
    """Puts process `pid` in a new cgroup `name` allowed `share` of one core;
    returns the cgroup's folder (remove it with `release` once pid is gone)."""
    if not 0 < share <= 64:
        raise StarError(f"CPU quota {share:g}: expected a share of a core above 0")
    quota = str(max(1000, round(share * PERIOD_US)))
    v1 = os.path.isfile(os.path.join(V1, "cpu.cfs_quota_us"))
    folder = os.path.join(V1 if v1 else V2, name)
    try:
        os.makedirs(folder, exist_ok=True)
        if v1:
            write(os.path.join(folder, "cpu.cfs_period_us"), str(PERIOD_US))
            write(os.path.join(folder, "cpu.cfs_quota_us"), quota)
        else:
            write(os.path.join(folder, "cpu.max"), f"{quota} {PERIOD_US}")
        write(os.path.join(folder, "cgroup.procs"), str(pid))
    except OSError as e:
        release(folder)
        raise StarError(f"cannot set a CPU quota ({folder}): {e.strerror or e}") from None
    return folder


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def release(folder):
    """Removes a cgroup made by `limit` (the kernel refuses while it holds a process)."""
    try:
        os.rmdir(folder)
    except OSError:
        pass
