"""A worker rank of the MPI mode (ranks 1..m): the TCP worker's answers
(worker.py) over MPI messages (mpi.py), with a beat every BEAT s while
its command runs, so that rank 0 can tell a long command from a dead rank.
"""

import sys
import threading

from .host import describe_host
from .mpi import BEAT, CONTROL, DATA, end, pieces, wait, wait_requests, world
from .protocol import PROTOCOL, now
from .worker import run_command


def serve(command, timeout):
    """Answers rank 0 until it says stop, or says nothing for `timeout` s."""
    MPI = world()
    comm = MPI.COMM_WORLD
    me = comm.Get_rank()
    description = dict(describe_host(command), rank=me)

    def answer(message, request):
        comm.send(dict(message, s=request.get("s")), dest=0, tag=CONTROL)

    while True:
        if not wait(lambda: comm.Iprobe(source=0, tag=CONTROL), timeout):
            print(f"harness worker rank {me}: rank 0 said nothing for {timeout:g} s: stopping",
                  file=sys.stderr)
            return 1
        request = comm.recv(source=0, tag=CONTROL)
        op = request.get("op")
        if op == "beat":
            continue  # rank 0 lives
        if op == "stop":
            return end(0, request.get("lost"))
        if op == "hello":
            answer(dict(description, op="hello", protocol=PROTOCOL), request)
        elif op == "ping":
            answer({"op": "pong"}, request)
        elif op == "chunk":
            if not serve_chunk(MPI, comm, request, command, timeout, answer):
                return 1
        else:
            answer({"op": "error", "error": f"unknown request {op!r}"}, request)


def serve_chunk(MPI, comm, request, command, timeout, answer):
    """Receives a chunk, acks it, runs the command on it beating, reports."""
    first = now()
    size = int(request["bytes"])
    data = bytearray(size)
    view = memoryview(data)
    requests = [comm.Irecv([view[a:b], MPI.BYTE], source=0, tag=DATA)
                for a, b in pieces(size, int(request["piece"]))]
    if not wait_requests(MPI, requests, timeout):
        print(f"harness worker rank {comm.Get_rank()}: a chunk stopped arriving for "
              f"{timeout:g} s: stopping", file=sys.stderr)
        return False
    received = now()
    answer({"op": "received"}, request)
    result = [0.0, 0, None]
    started = now()
    if request.get("compute", True):
        def run():
            result[:] = run_command(command, data, own_session=True)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(BEAT)
            if thread.is_alive():
                answer({"op": "beat"}, request)
    seconds, status, error = result
    del view, data
    answer({"op": "done", "recv_s": received - first, "wait_s": started - received,
            "compute_s": seconds, "status": status, "error": error}, request)
    return True
