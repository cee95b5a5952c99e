"""Rank 0 of the MPI mode: its link to each worker rank (the interface of
tcp.Worker, so the originator runs a schedule over either), and the end
of the job."""

import sys
import time

from .mpi import CONTROL, DATA, PIECE, RANKS, SILENCE, end, pieces, wait, wait_requests, world
from .protocol import BLOCK, MB, StarError, handshake, now


class Rank:
    """The originator's link to one worker rank (the interface of tcp.Worker)."""

    def __init__(self, rank, timeout):
        self.MPI = world()
        self.comm = self.MPI.COMM_WORLD
        self.rank = rank
        self.address = f"rank {rank}"
        self.timeout = timeout
        self.silence = min(timeout, SILENCE)
        self.hello, self.rtt = {}, 0.0
        self.session = 0  # answers of an earlier session (a failed run's) are dropped
        self.live = False
        self.dead = None
        self.header = None

    def connect(self):
        if self.dead:
            raise StarError(self.dead)
        if self.live:
            return
        self.session += 1
        self.live = True
        self.hello, self.rtt = handshake(self)

    def close(self):
        self.live = False

    def ask(self, message, op):
        self.send(message)
        return self.expect(op)

    def send(self, message):
        if message.get("op") == "chunk":
            self.header = message  # sent by send_data, with the pieces' size
            return
        self.post(message)

    def post(self, message):
        request = self.comm.isend(dict(message, s=self.session), dest=self.rank, tag=CONTROL)
        if not wait(lambda: request.Test(), self.silence):
            raise self.lose(f"took no message for {self.silence:g} s")

    def send_data(self, data, rate):
        view, MPI = memoryview(data), self.MPI
        step = BLOCK if rate else PIECE
        self.header, header = None, dict(self.header, piece=step)
        self.post(header)
        requests, start = [], now()
        for a, b in pieces(len(view), step):
            if rate:
                delay = start + b / (rate * MB) - now()
                if delay > 0:
                    time.sleep(delay)
            requests.append(self.comm.Isend([view[a:b], MPI.BYTE], dest=self.rank, tag=DATA))
        if not wait_requests(MPI, requests, self.silence):
            raise self.lose(f"took none of its chunk for {self.silence:g} s")

    def expect(self, op):
        while True:
            if not wait(lambda: self.comm.Iprobe(source=self.rank, tag=CONTROL), self.silence):
                raise self.lose(f"sent nothing for {self.silence:g} s")
            message = self.comm.recv(source=self.rank, tag=CONTROL)
            if message.get("s") != self.session or message.get("op") == "beat":
                continue
            if message.get("op") == "error":
                raise StarError(f"worker {self.address}: {message.get('error')}")
            if message.get("op") != op:
                raise StarError(f"worker {self.address} answered {message.get('op')!r}, not {op!r}")
            return message

    def lose(self, what):
        self.dead = (f"worker {self.address} was lost earlier (it {what}): "
                     "not sent to again")
        return StarError(f"worker {self.address} {what}: did it die? (its own output "
                         "or the launcher's says why; mpirun needs --enable-recovery "
                         "to keep the other ranks running)")


def ranks(timeout, count=None):
    """The worker ranks 1..m of this job, for rank 0 (once per process)."""
    MPI = world()
    size = MPI.COMM_WORLD.Get_size()
    if size < 2:
        raise StarError("the MPI mode needs 2 ranks or more: rank 0 the originator, "
                        "the others the workers (mpirun -n 3 ...)")
    if count is not None and count != size - 1:
        raise StarError(f"--machines {count}, but this MPI job has {size - 1} worker ranks "
                        f"(mpirun -n {count + 1})")
    if not RANKS:
        RANKS.extend(Rank(r, timeout) for r in range(1, size))
    return list(RANKS)


def finish(code):
    """Rank 0's end: every worker rank still there is told to stop. With a
    rank lost, MPI's finalize would wait for it, so every process ends
    without it (the stop says so)."""
    lost = any(rank.dead for rank in RANKS)
    for rank in RANKS:
        if not rank.dead:
            try:
                rank.session += 1
                rank.post({"op": "stop", "lost": lost})
            except StarError as e:
                print(f"star: {e}", file=sys.stderr)
    return end(code, lost)
