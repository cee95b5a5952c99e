"""The wire between the originator and a TCP worker, and what both ends share.

A request or an answer is one line of JSON; a chunk's bytes follow its
`chunk` request raw. Sizes are in MB (10^6 bytes), times in seconds.
"""

import json
import time

MB = 1_000_000
# Bytes per paced send: the token bucket holds at most one block.
BLOCK = 1 << 16
# Bytes of one generated text line (99 random characters and a newline).
LINE = 100
PROTOCOL = 1
# The columns of the raw timings, one row per chunk.
TIMING_COLUMNS = [
    "run", "split", "load_MB", "chunk", "machine", "worker", "chunk_MB",
    "send_start_s", "send_end_s", "ack_s", "recv_end_s", "worker_recv_s",
    "worker_wait_s", "compute_s", "compute_end_s", "done_s", "status", "error",
]


class StarError(Exception):
    """A failure with a message meant for the user (no traceback)."""


def now():
    return time.perf_counter()


def send_json(sock, message):
    sock.sendall(json.dumps(message).encode() + b"\n")


def parse_address(text):
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port.isdigit():
        raise StarError(f"worker address {text!r} is not HOST:PORT")
    return (host.strip("[]") or "127.0.0.1", int(port))


def read_exact(reader, size):
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = reader.readinto(view[got:])
        if not n:
            return None
        got += n
    return buf


def send_paced(sock, data, rate_mbps):
    """Sends `data`, no faster than `rate_mbps` MB/s when given.

    A token bucket of one block that starts empty: block k leaves no
    earlier than (bytes up to its end)/rate after the start, so n bytes
    take at least n/rate seconds, and a late block does not delay the next.
    """
    view = memoryview(data)
    if not rate_mbps:
        sock.sendall(view)
        return
    rate = rate_mbps * MB
    start = now()
    sent = 0
    while sent < len(view):
        n = min(BLOCK, len(view) - sent)
        delay = start + (sent + n) / rate - now()
        if delay > 0:
            time.sleep(delay)
        sock.sendall(view[sent:sent + n])
        sent += n


def handshake(link):
    """A link's first exchange, over TCP or MPI alike: the worker's hello,
    and the least of a few round trips (machine.json): half of it bounds
    how late an ack makes a receive's end."""
    hello = link.ask({"op": "hello"}, "hello")
    trips = []
    for _ in range(5):
        start = now()
        link.ask({"op": "ping"}, "pong")
        trips.append(now() - start)
    return hello, min(trips)
