"""What the harness's tests share: a worker process on a free port, a port
nobody listens on, the timings a run wrote, the `dlt` to check tables with."""

import csv
import io
import os
import socket
import subprocess
import sys
import unittest
from contextlib import redirect_stderr

from harness.dlt import find_dlt
from harness.local import PACKAGE
from harness.protocol import StarError


def dlt_binary():
    try:
        return find_dlt(os.environ.get("DLT"))
    except StarError:
        return None


def start_worker(*command):
    """A worker process of the harness on a free local port, without the local
    check that the command exists (as a worker on another host would be)."""
    proc = subprocess.Popen([sys.executable, PACKAGE, "worker", "--listen", "127.0.0.1:0",
                             "--", *command], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.startswith("star worker listening on "), line
    return proc, line.rsplit(" ", 1)[1].strip()


def stop(proc):
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    proc.stdout.close()


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def read_timings(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Quiet(unittest.TestCase):
    """Keeps the harness's messages about failed runs out of the test output."""

    def run_quietly(self, fn, *args, **kwargs):
        err = io.StringIO()
        with redirect_stderr(err):
            result = fn(*args, **kwargs)
        return result, err.getvalue()


def drain_all(sock, size):
    got = 0
    while got < size:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        got += len(chunk)
    return got
