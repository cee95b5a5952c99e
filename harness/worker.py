"""The worker: it receives chunks, pipes each into its own command and
reports when its receive ended and how long the command took (durations
on its own clock, so that no two hosts' clocks need to agree)."""

import json
import queue as queue_module
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

from .applications import shown, strip_dashes
from .host import describe_host
from .protocol import PROTOCOL, StarError, now, parse_address, read_exact, send_json


def run_command(command, data, own_session=False):
    """Pipes `data` into `command`; returns (seconds, status, error). With
    `own_session` the command gets a session of its own (see local.py)."""
    start = now()
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=err,
                                    start_new_session=own_session)
        except FileNotFoundError:
            return now() - start, None, f"command not found: {command[0]}"
        except OSError as e:
            return now() - start, None, f"cannot start {command[0]}: {e.strerror or e}"
        try:
            proc.stdin.write(data)
        except BrokenPipeError:
            pass  # the command stopped reading; its status says why
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        status = proc.wait()
        seconds = now() - start
        if status == 0:
            return seconds, status, None
        err.seek(0)
        tail = err.read()[-600:].decode(errors="replace").strip()
        return seconds, status, f"{shown(command)} exited with status {status}" + (
            f": {tail}" if tail else "")


def serve_connection(sock, command, description):
    """Answers one originator until it closes the connection. A chunk sent
    with `buffer` waits in a queue while earlier ones compute (M4's
    machines receive while they compute); any other is computed at once."""
    reader = sock.makefile("rb")
    lock = threading.Lock()  # one message at a time on the socket

    def say(message):
        with lock:
            send_json(sock, message)

    queue = Buffered(command, say)
    try:
        while True:
            line = reader.readline()
            if not line:
                return
            message = json.loads(line)
            op = message.get("op")
            if op == "hello":
                say(dict(description, op="hello", protocol=PROTOCOL))
            elif op == "ping":
                say({"op": "pong"})
            elif op == "chunk":
                first = now()
                data = read_exact(reader, int(message["bytes"]))
                if data is None:
                    return
                received = now()
                say({"op": "received"})
                if message.get("buffer"):
                    queue.put(data, first, received, message.get("compute", True))
                else:
                    queue.drain()
                    say(compute_report(command, data, first, received,
                                       message.get("compute", True)))
                del data
            else:
                say({"op": "error", "error": f"unknown request {op!r}"})
    except (OSError, ValueError):
        return  # the originator went away or spoke nonsense: drop it
    finally:
        queue.stop()
        reader.close()
        sock.close()


def compute_report(command, data, first, received, compute):
    """Runs the command on a chunk; the `done` report of its durations."""
    seconds, status, error = 0.0, 0, None
    started = now()
    if compute:
        seconds, status, error = run_command(command, data)
    return {"op": "done", "recv_s": received - first, "wait_s": started - received,
            "compute_s": seconds, "status": status, "error": error}


class Buffered:
    """Buffered chunks, computed one after the other by a thread of their own."""

    def __init__(self, command, say):
        self.command, self.say = command, say
        self.queue = queue_module.Queue()
        self.thread = None

    def put(self, data, first, received, compute):
        if self.thread is None:
            self.thread = threading.Thread(target=self.serve, daemon=True)
            self.thread.start()
        self.queue.put((data, first, received, compute))

    def serve(self):
        while True:
            item = self.queue.get()
            try:
                if item is None:
                    return
                try:
                    self.say(compute_report(self.command, *item))
                except OSError:
                    pass  # the originator went away
            finally:
                self.queue.task_done()

    def drain(self):
        """Waits until every buffered chunk is computed and reported."""
        self.queue.join()

    def stop(self):
        if self.thread is not None:
            self.queue.put(None)


def cmd_worker(args):
    command = strip_dashes(args.command)
    if not command:
        raise StarError("worker: give the command to run after --, e.g. -- gzip -9")
    if not shutil.which(command[0]):
        print(f"star worker: warning: command not found: {command[0]}", file=sys.stderr)
    host, port = parse_address(args.listen)
    server = socket.create_server((host, port), reuse_port=False)
    description = describe_host(command)
    bound = server.getsockname()
    print(f"star worker listening on {bound[0]}:{bound[1]}", flush=True)
    while True:
        sock, _ = server.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve_connection, args=(sock, command, description),
                         daemon=True).start()
