"""The MPI mode (`--mpi`): under `mpirun` or `srun`, rank 0 is the originator
and ranks 1..m are the workers; mpi4py over Open MPI (Debian's
`python3-mpi4py` and `openmpi-bin`), imported in this mode only.

A request or an answer is a small Python object on tag CONTROL; a chunk's
bytes follow its `chunk` request on tag DATA, in pieces: one per paced
block (the sender's token bucket, as over TCP) or of PIECE bytes unpaced.
The originator sends to one rank at a time and waits for its ack, so the
next send starts when the previous receive has completed (one port).

Every wait polls (Iprobe, Testsome) and has a time-out: Open MPI's
blocking calls spin on a core, which a computing worker needs, and cannot
time out. A wait polls without a pause for its first SPIN s, then sleeps
between polls a twentieth of what it has waited (at most POLL_MAX), so a
short wait is timed to microseconds and a long one costs little CPU. While
its command runs a worker beats every BEAT seconds; a rank silent for
`silence` seconds is taken for dead (under `mpirun --enable-recovery`,
which keeps the other ranks running when one dies), named, and not sent
to again.
"""

import os
import sys
import time

from .protocol import StarError, now

CONTROL, DATA = 1, 2
PIECE = 64 << 20  # unpaced pieces: a time-out measures progress, not the whole chunk
POLL_MAX = 0.001
SPIN = 0.0002  # a wait this short polls without sleeping (a sleep is ~50 us or more)
BEAT = 1.0
SILENCE = 15.0  # a rank beating every BEAT s and silent this long has died
RANKS = []  # rank 0's links to the worker ranks (mpi_originator.py)
_beats = {"next": 0.0, "requests": []}


def world():
    """mpi4py's MPI, or why it is missing."""
    try:
        from mpi4py import MPI
    except ImportError:
        raise StarError("the MPI mode needs mpi4py (Debian: apt-get install python3-mpi4py "
                        "openmpi-bin; run that Python, /usr/bin/python3, under mpirun)") from None
    return MPI


def wait(ready, limit):
    """Polls `ready()` until it is true (True) or `limit` s have passed (False)."""
    start = now()
    while not ready():
        keepalive()
        waited = now() - start
        if waited > limit:
            return False
        if waited > SPIN:
            time.sleep(min(POLL_MAX, waited / 20))
    return True


def keepalive():
    """On rank 0, a beat to every worker rank still there, at most every BEAT s:
    a worker waits for rank 0 with a time-out too, and rank 0 may be busy
    with the others for long (a calibration of one worker alone)."""
    if not RANKS or now() < _beats["next"]:
        return
    _beats["next"] = now() + BEAT
    sent = [r for r in _beats["requests"] if not r.Test()]
    for rank in RANKS:
        if not rank.dead:
            sent.append(rank.comm.isend({"op": "beat"}, dest=rank.rank, tag=CONTROL))
    _beats["requests"] = sent


def wait_requests(MPI, requests, limit):
    """True when every request has completed; False when none completed for `limit` s."""
    left, last = len(requests), [now()]

    def progress():
        nonlocal left
        done = MPI.Request.Testsome(requests) if left else None
        if done:
            left -= len(done)
            last[0] = now()
        return left == 0

    while not wait(progress, max(0.0, limit - (now() - last[0]))):
        if now() - last[0] > limit:
            return False
    return True


def pieces(size, step):
    """The (start, end) of each piece of a chunk of `size` bytes."""
    return [(a, min(a + step, size)) for a in range(0, size, step)] or [(0, 0)]


def this_rank():
    return world().COMM_WORLD.Get_rank()


def end(code, lost):
    """Returns `code`, or ends this process at once when a rank was lost."""
    if lost:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
