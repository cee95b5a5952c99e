#!/usr/bin/env python3
"""Run a real application on a star of workers, time it, and write the tables `dlt fit` reads.

The originator sends each worker its chunk over TCP, one worker after
another (a one-port star); each worker pipes its chunk into a command that
reads standard input (SQLite loading it into an indexed table, `sort -S 64M`,
`gzip -9`, `xz`) and reports when its receive ended and when the command
finished. See docs/real-run.md.

    python3 docs/star.py loop                      # the whole loop on this machine
    python3 docs/star.py loop --smoke              # the same with tiny sizes, in seconds

On several hosts, start a worker on each (it runs only its own command):

    python3 star.py worker --listen 0.0.0.0:7000 -- env LC_ALL=C sort --parallel=1 -S 64M

and measure from the originator:

    python3 docs/star.py link    --workers h1:7000 --sizes 1,4,16,64 --link-MBps 100 > link.csv
    python3 docs/star.py compute --workers h1:7000 --sizes 2,4,8,16,32,64,128 > compute.csv
    python3 docs/star.py runs    --workers h1:7000,h2:7000 --request m3.json --loads 100,200 --out out/

Without --workers, the measuring modes start local workers running the
command given after `--` (default: the loop's application, --app). Sizes are in MB
(10^6 bytes), times in seconds. Python 3.9 or newer, standard library only.
"""

import argparse
import csv
import datetime
import io
import json
import os
import platform
import random
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
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


# ---------------------------------------------------------------- the wire

def send_json(sock, message):
    sock.sendall(json.dumps(message).encode() + b"\n")


def parse_address(text):
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port.isdigit():
        raise StarError(f"worker address {text!r} is not HOST:PORT")
    return (host.strip("[]") or "127.0.0.1", int(port))


# ---------------------------------------------------------------- the worker

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def program_of(command):
    """The program a command runs, skipping `env` and its VAR=value words."""
    words = list(command)
    if words and os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if "=" not in w or w.startswith("-")]
        words = [w for w in words if not w.startswith("-")]
    return words[0] if words else None


def app_version(command):
    """The first line of `PROGRAM --version`, if it has one."""
    program = program_of(command)
    if not program or not shutil.which(program):
        return None
    try:
        out = subprocess.run([program, "--version"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = (out.stdout or out.stderr).decode(errors="replace").splitlines()
    return lines[0].strip() if out.returncode == 0 and lines else None


def describe_host(command):
    return {
        "host": socket.gethostname(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "memory_MB": memory_mb(),
        "command": list(command),
        "command_version": app_version(command),
    }


def memory_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) * 1024 / MB)
    except (OSError, ValueError, IndexError):
        pass
    return None


def run_command(command, data):
    """Pipes `data` into `command`; returns (seconds, status, error)."""
    start = now()
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=err)
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


def serve_connection(sock, command, description):
    """Answers one originator until it closes the connection."""
    reader = sock.makefile("rb")
    try:
        while True:
            line = reader.readline()
            if not line:
                return
            message = json.loads(line)
            op = message.get("op")
            if op == "hello":
                send_json(sock, dict(description, op="hello", protocol=PROTOCOL))
            elif op == "ping":
                send_json(sock, {"op": "pong"})
            elif op == "chunk":
                first = now()
                data = read_exact(reader, int(message["bytes"]))
                if data is None:
                    return
                received = now()
                send_json(sock, {"op": "received"})
                seconds, status, error = 0.0, 0, None
                started = now()
                if message.get("compute", True):
                    seconds, status, error = run_command(command, data)
                del data
                send_json(sock, {"op": "done", "recv_s": received - first,
                                 "wait_s": started - received, "compute_s": seconds,
                                 "status": status, "error": error})
            else:
                send_json(sock, {"op": "error", "error": f"unknown request {op!r}"})
    except (OSError, ValueError):
        return  # the originator went away or spoke nonsense: drop it
    finally:
        reader.close()
        sock.close()


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


# ---------------------------------------------------------------- the originator

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


class Worker:
    """The originator's connection to one worker."""

    def __init__(self, address, timeout):
        self.address = address
        self.timeout = timeout
        self.sock = None
        self.reader = None
        self.hello = {}
        self.rtt = 0.0

    def connect(self):
        if self.sock:
            return
        try:
            sock = socket.create_connection(parse_address(self.address), timeout=10)
        except ConnectionRefusedError:
            raise StarError(f"worker {self.address} refused the connection: "
                            "is `star.py worker` listening there?") from None
        except OSError as e:
            raise StarError(f"cannot reach worker {self.address}: {e.strerror or e}") from None
        sock.settimeout(self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.reader = sock, sock.makefile("rb")
        self.hello = self.ask({"op": "hello"}, "hello")
        # The least of a few round trips (machine.json): half of it bounds
        # how late an ack makes a receive's end.
        trips = []
        for _ in range(5):
            start = now()
            self.ask({"op": "ping"}, "pong")
            trips.append(now() - start)
        self.rtt = min(trips)

    def close(self):
        if self.sock:
            for closing in (self.reader, self.sock):
                try:
                    closing.close()
                except OSError:
                    pass
        self.sock = self.reader = None

    def ask(self, message, op):
        self.send(message)
        return self.expect(op)

    def send(self, message):
        try:
            send_json(self.sock, message)
        except OSError as e:
            raise self.lost(e) from None

    def send_data(self, data, rate):
        try:
            send_paced(self.sock, data, rate)
        except OSError as e:
            raise self.lost(e) from None

    def expect(self, op):
        try:
            line = self.reader.readline()
        except socket.timeout:
            raise StarError(f"worker {self.address} sent nothing for {self.timeout:g} s "
                            "(raise --timeout for longer chunks)") from None
        except OSError as e:
            raise self.lost(e) from None
        if not line:
            raise self.lost(None)
        message = json.loads(line)
        if message.get("op") == "error":
            raise StarError(f"worker {self.address}: {message.get('error')}")
        if message.get("op") != op:
            raise StarError(f"worker {self.address} answered {message.get('op')!r}, not {op!r}")
        return message

    def lost(self, error):
        why = f" ({error.strerror or error})" if error else ""
        return StarError(f"worker {self.address} closed the connection{why}: "
                         "did it die? (its own output says why)")


class Source:
    """The data chunks are cut from: a generated pool of random text lines, or a file."""

    def __init__(self, path=None, size_mb=0.0, seed=1):
        if path:
            with open(path, "rb") as f:
                self.pool = f.read()
            self.lines = False
            if not self.pool:
                raise StarError(f"input {path} is empty")
        else:
            self.pool = generate_lines(int(size_mb * MB) + LINE, seed)
            self.lines = True
        self.offset = 0

    def chunk(self, size):
        """`size` bytes, the next ones after the previous chunk (wrapping around)."""
        pool = self.pool
        if size > len(pool):
            return (pool * (size // len(pool) + 1))[:size]
        start = self.offset if self.offset + size <= len(pool) else 0
        if self.lines:
            start -= start % LINE
        self.offset = start + size
        return memoryview(pool)[start:start + size]


def generate_lines(size, seed):
    """`size` bytes of lines of 99 random letters and digits each (seeded)."""
    rng = random.Random(seed)
    alphabet = (b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" * 5)[:256]
    per_block = 10000
    out = bytearray()
    while len(out) < size:
        raw = rng.randbytes(99 * per_block).translate(alphabet)
        out += b"\n".join(raw[i:i + 99] for i in range(0, len(raw), 99)) + b"\n"
    return bytes(out[:size])


def chunk_bytes(size_mb, lines):
    size = int(round(size_mb * MB))
    if lines and size >= LINE:
        size -= size % LINE
    return max(size, 1)


def execute(workers, chunks, source, rate, compute=True):
    """Runs one schedule: `chunks` is [(machine, MB)] in the order sent.

    Chunk j goes out when the channel is free and its machine has finished
    its previous chunk. Returns one record per chunk; times are seconds
    from the run's start (the start of its first send) on the originator's
    clock. A worker's receive end is when its ack arrives (late by the
    ack's one-way trip, which is also when the channel is free for the
    next send); its compute end adds the durations the worker measured on
    its own clock after its receive ended, so no clocks need to agree.
    A failure raises RunFailed with the records so far.
    """
    records = []
    pending = {}
    for machine in sorted({m for m, _ in chunks}):
        if machine >= len(workers):
            raise RunFailed(f"the schedule sends to machine P{machine + 1}, "
                            f"but only {len(workers)} workers were given", [])
    try:
        for machine in sorted({m for m, _ in chunks}):
            workers[machine].connect()
    except StarError as e:
        raise RunFailed(str(e), []) from None
    start = now()

    def finish(record):
        worker = workers[record["_index"]]
        done = worker.expect("done")
        record["done_s"] = now() - start
        record["worker_recv_s"] = done["recv_s"]
        record["worker_wait_s"] = done["wait_s"]
        record["compute_s"] = done["compute_s"]
        record["compute_end_s"] = record["recv_end_s"] + done["wait_s"] + done["compute_s"]
        if done.get("error"):
            record["status"], record["error"] = "failed", done["error"]
            raise StarError(f"worker {worker.address}: {done['error']}")
        record["status"] = "ok"

    try:
        for j, (machine, size_mb) in enumerate(chunks):
            worker = workers[machine]
            if machine in pending:
                finish(pending.pop(machine))
            size = chunk_bytes(size_mb, source.lines)
            record = {"chunk": j + 1, "machine": f"P{machine + 1}", "worker": worker.address,
                      "chunk_MB": size / MB, "_index": machine, "status": "failed"}
            records.append(record)
            record["send_start_s"] = now() - start
            worker.send({"op": "chunk", "bytes": size, "compute": compute})
            worker.send_data(source.chunk(size), rate)
            record["send_end_s"] = now() - start
            worker.expect("received")
            record["ack_s"] = now() - start
            record["recv_end_s"] = record["ack_s"]
            pending[machine] = record
        for record in list(pending.values()):
            finish(record)
            pending.pop(record["_index"])
    except StarError as e:
        for record in records:
            if record["status"] != "ok" and not record.get("error"):
                record["error"] = str(e)
        raise RunFailed(str(e), records) from None
    return records


class RunFailed(StarError):
    def __init__(self, message, records):
        super().__init__(message)
        self.records = records


class Star:
    """The workers of one session and the raw timings file."""

    def __init__(self, addresses, timeout, timings_path=None):
        self.workers = [Worker(a, timeout) for a in addresses]
        self.timings_path = timings_path
        self.failures = []
        if timings_path:
            with open(timings_path, "w", newline="") as f:
                csv.writer(f).writerow(TIMING_COLUMNS)

    def connect(self):
        for worker in self.workers:
            worker.connect()

    def close(self):
        for worker in self.workers:
            worker.close()

    def run(self, name, split, load_mb, chunks, source, rate, compute=True):
        """One run; its records go to the timings file, failed or not.

        Returns the records, or None when the run failed (the message is
        printed and kept in `failures`; every connection is closed so that
        the next run starts afresh).
        """
        try:
            records = execute(self.workers, chunks, source, rate, compute)
            failed = None
        except RunFailed as e:
            records, failed = e.records, str(e)
        if failed and not records:  # refused before any send: one row says so
            records = [{"status": "failed", "error": failed}]
        for record in records:
            record.update(run=name, split=split, load_MB=load_mb)
        self.record(records)
        if failed:
            self.failures.append((name, failed))
            print(f"star: run {name} failed: {failed}", file=sys.stderr)
            self.close()
            return None
        return records

    def record(self, records):
        if not self.timings_path:
            return
        with open(self.timings_path, "a", newline="") as f:
            out = csv.writer(f)
            for r in records:
                out.writerow([fmt(r.get(c)) for c in TIMING_COLUMNS])


def fmt(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") if value else "0"
    return str(value)


def finish_times(records, machines):
    """Each machine's finish (its last compute end) in machine order, or None
    when a machine got no chunk; and the makespan."""
    ends = {}
    for r in records:
        k = int(r["machine"][1:]) - 1
        ends[k] = max(ends.get(k, 0.0), r["compute_end_s"])
    makespan = max(ends.values())
    per = [ends.get(k) for k in range(machines)]
    return (None if None in per else per), makespan


# ---------------------------------------------------------------- local workers

class LocalWorkers:
    """Workers started on this machine, stopped on exit."""

    def __init__(self, count, command, timeout):
        self.procs = []
        self.addresses = []
        program = program_of(command)
        if not program or not shutil.which(program):
            raise StarError(f"command not found: {program or ' '.join(command)}")
        for _ in range(count):
            proc = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "worker", "--listen",
                 "127.0.0.1:0", "--", *command],
                stdout=subprocess.PIPE, text=True,
                # A session of its own: Linux's autogroup scheduler then shares
                # the cores between the workers as between separate hosts, not
                # one share among all of them (which halves each worker's speed
                # in a run against its speed when measured alone).
                start_new_session=True)
            self.procs.append(proc)
            line = proc.stdout.readline()
            if not line.startswith("star worker listening on "):
                self.stop()
                raise StarError("a local worker did not start")
            self.addresses.append(line.rsplit(" ", 1)[1].strip())

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            if proc.stdout:
                proc.stdout.close()
        self.procs = []


# ---------------------------------------------------------------- tables

def write_table(path, header, rows, comments=()):
    """A CSV table for `dlt fit`: `#` comment lines, a header, the rows."""
    out = io.StringIO()
    for comment in comments:
        out.write(f"# {comment}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([fmt(v) for v in row])
    text = out.getvalue()
    if path in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)
    return text


def link_comment(rate):
    if rate:
        return (f"link: emulated, paced by the sender at {rate:g} MB/s "
                "(a token bucket of 64 KiB), not the network's own rate")
    return "link: not emulated (the network's own rate)"


def runs_rows(name, makespan, finishes, load_mb=None):
    """A run's rows of the table `dlt fit --as runs` reads: its makespan
    (machine `all`) and each machine's finish, P1 first."""
    tail = [] if load_mb is None else [load_mb]
    rows = [[name, "all", makespan] + tail]
    if finishes:
        rows += [[name, f"P{k + 1}", t] + tail for k, t in enumerate(finishes)]
    return rows


def parse_sizes(text, what="size"):
    sizes = []
    for word in text.split(","):
        if not word.strip():
            continue
        try:
            value = float(word)
        except ValueError:
            raise StarError(f"{what} {word.strip()!r} is not a number") from None
        if not value > 0:
            raise StarError(f"{what} {word.strip()} is not above 0")
        sizes.append(value)
    if not sizes:
        raise StarError(f"give at least one {what}")
    return sizes


# ---------------------------------------------------------------- dlt

def find_dlt(given):
    """The `dlt` binary: --dlt, else PATH, else this checkout's release build."""
    if given:
        if not (shutil.which(given) or os.path.isfile(given)):
            raise StarError(f"--dlt {given}: no such program")
        return shutil.which(given) or os.path.abspath(given)
    found = shutil.which("dlt")
    if found:
        return found
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "dlt")
    if os.path.isfile(here):
        return os.path.abspath(here)
    raise StarError("dlt not found: build it (cargo build --release --bin dlt), "
                    "put it on PATH, or give --dlt PATH")


def dlt_json(dlt, *args, request=None):
    """Runs `dlt ARGS --compact` (with `request` on standard input) and reads its JSON."""
    argv = [dlt, *args, "--compact"]
    stdin = json.dumps(request) if request is not None else None
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        raise StarError(f"dlt {' '.join(args)}: {out.stderr.strip() or 'failed'}")
    return json.loads(out.stdout)


def split_of(answer):
    """The chunks of a solved request's schedule, [(machine, MB)] in the order
    sent, the machine count, and the predicted makespan."""
    schedule = (answer.get("report") or {}).get("schedule")
    if not schedule or not schedule.get("chunks"):
        raise StarError(f"the answer of model {answer.get('model')!r} has no schedule "
                        "of chunks to run: give a request that computes one schedule")
    chunks = [(int(c["machine"]), float(c["size"])) for c in schedule["chunks"]
              if float(c["size"]) > 0]
    return chunks, int(schedule["machines"]), float(schedule["makespan"])


def with_load(request, load):
    if "load" not in request:
        raise StarError(f"the {request.get('model')} request has no `load` to set: "
                        "give no --loads and solve it as it is")
    changed = dict(request)
    changed["load"] = load
    return changed


def equal_split(load, machines):
    return [(k, load / machines) for k in range(machines)]


# ---------------------------------------------------------------- machine description

def description(star, rate, command, extra=None):
    workers = []
    for w in star.workers:
        entry = {"address": w.address, "rtt_ms": round(w.rtt * 1e3, 4)}
        entry.update({k: v for k, v in w.hello.items() if k not in ("op", "protocol")})
        workers.append(entry)
    about = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "originator": describe_host(command or []),
        "workers": workers,
        "link": {"emulated_MBps": rate, "how": link_comment(rate)},
        "units": {"size": "MB = 10^6 bytes", "time": "s"},
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    if extra:
        about.update(extra)
    return about


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2, sort_keys=True)
        f.write("\n")


# ---------------------------------------------------------------- modes

def strip_dashes(words):
    return list(words[1:] if words[:1] == ["--"] else words)


APPS = ("sqlite", "sort")
# Each application's memory when --budget is not given.
DEFAULT_BUDGET = {"sqlite": "8M", "sort": "16M"}


def default_command(budget=None, spill="gzip", app="sqlite"):
    """The default application, with `budget` (`16M`, `512K`; None: its
    default) as its memory.

    `sqlite`: SQLite loads every line into an indexed table of a temporary
    on-disk database whose page cache holds `budget`. While the table and
    its index fit in the cache, an insert is a search in memory; past it,
    the index pages a random insert needs are evicted and read back from
    the file, so only the part beyond the cache is slow: the cost grows
    with the excess, as `[3]`'s swapping does.

    `sort`: GNU sort with `-S budget`: past it, sort spills sorted runs to
    temporary files and merges them, so its time jumps at the budget (the
    whole input goes through the spill). With `spill` (a compressor,
    default gzip) the spilled runs are compressed: where temporary files
    sit in the page cache, as on a machine with RAM to spare, an
    uncompressed spill costs next to nothing and no second level shows."""
    if budget is None:
        budget = DEFAULT_BUDGET[app]
    if app == "sqlite":
        kib = max(1, round(parse_bytes(budget) / 1024))
        return ["sqlite3", "-batch", "",  # "": a temporary database on disk
                f"PRAGMA cache_size=-{kib};",  # negative: KiB
                "CREATE TABLE t(line TEXT);", "CREATE INDEX t_line ON t(line);",
                # One line a row, whatever it holds (no quoting, no columns).
                ".mode ascii", '.separator "\\037" "\\n"', ".import /dev/stdin t"]
    parse_bytes(budget, percent=True)  # refused here rather than by every run
    command = ["env", "LC_ALL=C", "sort", "--parallel=1", "-S", budget]
    if spill and spill != "none":
        command.append(f"--compress-program={spill}")
    return command


def parse_bytes(text, percent=False):
    """A budget in sort's -S units: `16M`, `512K`, `1G`, `100b` (bytes) or a
    bare number (KiB, as sort takes it); `10%` of the memory when `percent`
    (sort only). Returns bytes, or None for a percentage."""
    units = {"B": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}
    text = text.strip()
    suffix = text[-1:].upper()
    number, unit = (text[:-1], suffix) if suffix in units or suffix == "%" else (text, "K")
    try:
        value = float(number)
    except ValueError:
        value = 0.0
    if unit == "%" and percent and 0 < value <= 100:
        return None
    if unit == "%" or not 0 < value < float("inf"):
        forms = "16M, 512K or 10%" if percent else "16M or 512K"
        raise StarError(f"budget {text!r}: expected a size such as {forms}")
    return value * units[unit]


def shown(command):
    """A command as a shell would take it (an empty argument shown as '')."""
    return shlex.join(command)


def open_star(args, count, timings=None):
    """The workers of --workers, or `count` local ones running the command after --."""
    local = None
    if args.workers:
        addresses = [a for a in args.workers.split(",") if a.strip()]
    else:
        command = strip_dashes(args.command) or default_command(args.budget, args.spill, args.app)
        local = LocalWorkers(count, command, args.timeout)
        addresses = local.addresses
    star = Star(addresses, args.timeout, timings)
    return star, local


def measure_link(star, source, sizes, repeat, rate, seed, each=False):
    """Rows (machine?, size_MB, time_s): the time from the start of a send to
    the arrival of the receiver's ack (the channel's time per message in a run)."""
    rows = []
    order = random.Random(seed)
    targets = range(len(star.workers)) if each else [0]
    for k in targets:
        for rep in range(repeat):
            shuffled = list(sizes)
            order.shuffle(shuffled)
            for size in shuffled:
                records = star.run(f"link-{k + 1}-{rep + 1}-{size:g}", "link", size,
                                   [(k, size)], source, rate, compute=False)
                if records:
                    r = records[0]
                    rows.append(([f"P{k + 1}"] if each else [])
                                + [r["chunk_MB"], r["recv_end_s"] - r["send_start_s"]])
    return rows


def measure_compute(star, source, sizes, repeat, seed, each=False):
    """Rows (machine?, size_MB, time_s): the command's time on the worker alone
    (from its start to its exit, on the worker's clock). Sizes are shuffled
    within each repetition so that a drift of the machine is not a trend in size."""
    rows = []
    order = random.Random(seed)
    targets = range(len(star.workers)) if each else [0]
    for k in targets:
        for rep in range(repeat):
            shuffled = list(sizes)
            order.shuffle(shuffled)
            for size in shuffled:
                records = star.run(f"compute-{k + 1}-{rep + 1}-{size:g}", "compute", size,
                                   [(k, size)], source, None)
                if records:
                    r = records[0]
                    rows.append(([f"P{k + 1}"] if each else []) + [r["chunk_MB"], r["compute_s"]])
    return rows


def cmd_link(args):
    sizes = parse_sizes(args.sizes)
    star, local = open_star(args, 1)
    try:
        source = Source(args.input, 2 * max(sizes), args.seed)
        rows = measure_link(star, source, sizes, args.repeat, args.link_MBps, args.seed, args.each)
    finally:
        star.close()
        if local:
            local.stop()
    header = (["machine"] if args.each else []) + ["size_MB", "time_s"]
    write_table(args.out, header, rows,
                [link_comment(args.link_MBps), "time: from the send's start to the arrival of the receiver's ack"])
    return 1 if star.failures else 0


def cmd_compute(args):
    sizes = parse_sizes(args.sizes)
    star, local = open_star(args, 1)
    try:
        source = Source(args.input, 2 * max(sizes), args.seed)
        star.connect()
        command = star.workers[0].hello.get("command")
        rows = measure_compute(star, source, sizes, args.repeat, args.seed, args.each)
    finally:
        star.close()
        if local:
            local.stop()
    header = (["machine"] if args.each else []) + ["size_MB", "time_s"]
    write_table(args.out, header, rows,
                [f"command: {' '.join(command or [])}",
                 "time: the command's run on the worker alone, input piped from memory",
                 link_comment(args.link_MBps) + "; chunks here are sent unpaced and not timed"])
    return 1 if star.failures else 0


def cmd_runs(args):
    dlt = find_dlt(args.dlt)
    with open(args.request) as f:
        request = json.load(f)
    loads = parse_sizes(args.loads, "load") if args.loads else [None]
    os.makedirs(args.out, exist_ok=True)
    plans = []
    for load in loads:
        req = request if load is None else with_load(request, load)
        answer = dlt_json(dlt, "solve", request=req)
        chunks, machines, predicted = split_of(answer)
        plans.append((req, chunks, machines, predicted))
    count = max(p[2] for p in plans)
    star, local = open_star(args, count, os.path.join(args.out, "timings.csv"))
    try:
        star.connect()
        if len(star.workers) < count:
            raise StarError(f"the request's schedule has {count} machines, "
                            f"but {len(star.workers)} workers were given")
        biggest = max(s for p in plans for _, s in p[1])
        source = Source(args.input, 2 * biggest, args.seed)
        write_json(os.path.join(args.out, "machine.json"),
                   description(star, args.link_MBps, star.workers[0].hello.get("command")))
        model = "equal" if args.equal else request.get("model", "model")
        for i, (req, chunks, machines, predicted) in enumerate(plans):
            tag = f"{model}-{i + 1}" if req.get("load") is None else f"{model}-V{req['load']:g}"
            write_json(os.path.join(args.out, f"{tag}.json"), req)
            rows = []
            for rep in range(args.repeat):
                plan = chunks if not args.equal else equal_split(req["load"], machines)
                name = f"{tag}-{rep + 1}"
                records = star.run(name, model, req.get("load"),
                                   plan, source, args.link_MBps)
                if records:
                    finishes, makespan = finish_times(records, machines)
                    rows += runs_rows(name, makespan, finishes)
                    print(f"{name}: measured {makespan:.3f} s, predicted {predicted:.3f} s",
                          file=sys.stderr)
            write_table(os.path.join(args.out, f"runs-{tag}.csv"), ["run", "machine", "time_s"],
                        rows, [link_comment(args.link_MBps),
                               f"check: dlt fit runs-{tag}.csv --as runs --request {tag}.json"])
    finally:
        star.close()
        if local:
            local.stop()
    return 1 if star.failures else 0


# ---------------------------------------------------------------- the loop

LOOP = {
    # Per-worker loads as multiples of the fitted knee r: two under it, three past it.
    "factors": [0.35, 0.7, 1.5, 2.5, 3.5],
}


def loop_settings(args):
    settings = loop_defaults(args)
    if args.sizes:
        settings["compute"] = parse_sizes(args.sizes)
    settings["noise"] = args.noise
    return settings


def loop_defaults(args):
    if args.smoke:
        return dict(budget=args.budget or "1M", compute=[0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3],
                    link=[0.01, 0.05, 0.2, 0.5, 1], repeat=3, run_repeat=1,
                    rate=args.link_MBps if args.link_MBps is not None else 200.0)
    return dict(budget=args.budget,
                compute=[1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64],
                link=[0.1, 0.5, 1, 2, 4, 8, 16, 32, 64], repeat=4, run_repeat=2,
                rate=args.link_MBps if args.link_MBps is not None else 100.0)


def fitted_knee(fit):
    """The knee r (MB) of the computing fit when it kept two levels, else None."""
    for entry in (fit.get("report") or {}).get("computation") or []:
        r = ((entry.get("knee") or {}).get("r") or {}).get("value")
        if entry.get("shape") == "two-level" and r:
            return r
    return None


def fitted_noise(fit):
    """The noise model the computing and link fits assumed, in words."""
    report = fit.get("report") or {}
    words = [f"{what} {entries[0].get('noise', 'absolute')}"
             for what, entries in (("computing", report.get("computation")),
                                   ("link", report.get("transfers"))) if entries]
    return "noise fitted: " + (", ".join(words) or "n/a")


def convex(fit):
    """False when the fit kept two levels whose second line is not steeper."""
    for entry in (fit.get("report") or {}).get("computation") or []:
        if entry.get("shape") == "two-level" and not (entry.get("knee") or {}).get("convex"):
            return False
    return True


def loop_requests(fit, machines):
    """The M3 and M2 requests of the fit, for `machines` workers alike."""
    requests = (fit.get("report") or {}).get("requests") or {}
    if "hierarchical" not in requests or "linear" not in requests:
        raise StarError("dlt fit filled no hierarchical or linear request")
    m3 = dict(requests["hierarchical"])
    m3["processors"] = [m3["processors"][0]] * machines
    m2 = dict(requests["linear"])
    machine = dict(m2["machines"][0], count=machines)
    m2 = {"model": "linear", "load": m2["load"], "machines": [machine]}
    return m3, m2


def loop_loads(knee, sizes, machines, factors):
    """Total loads: per-worker loads of `factors` times the knee, kept within
    the measured sizes (a model is not asked to extrapolate far)."""
    if knee is None or not min(sizes) < knee < max(sizes):
        knee = (min(sizes) * max(sizes)) ** 0.5  # no knee: spread over the range
    top = max(sizes) / 1.7  # the first worker gets the most, up to ~1.7 times the mean
    loads = [round(machines * min(f * knee, top), 3) for f in factors]
    return sorted(set(loads))


def cmd_loop(args):
    started = now()
    dlt = find_dlt(args.dlt)
    s = loop_settings(args)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = args.out or os.path.join("star-out", ("smoke-" if args.smoke else "") + stamp)
    for folder in (out, os.path.join(out, "requests"), os.path.join(out, "runs")):
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):  # a folder used before: no stale runs
            if name.endswith((".csv", ".json", ".txt")):
                os.remove(os.path.join(folder, name))
    command = strip_dashes(args.command) or default_command(s["budget"], args.spill, args.app)
    machines = args.machines
    rate = s["rate"]
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    say(f"star loop: {machines} local workers running `{shown(command)}`, "
        f"link emulated at {rate:g} MB/s; output in {out}")
    local = LocalWorkers(machines, command, args.timeout)
    star = Star(local.addresses, args.timeout, os.path.join(out, "timings.csv"))
    try:
        star.connect()
        source = Source(args.input, max(s["compute"] + s["link"]) * 2.2, args.seed)
        about = description(star, rate, command, {"loop": {"smoke": args.smoke, "seed": args.seed}})
        write_json(os.path.join(out, "machine.json"), about)
        result = loop_body(star, source, dlt, s, out, machines, rate, command, say)
        about["load_average_end"] = list(os.getloadavg())
        about["wall_s"] = round(now() - started, 1)
        write_json(os.path.join(out, "machine.json"), about)
    finally:
        star.close()
        local.stop()
    table = loop_table(result, rate, command, now() - started)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    print(table, end="")
    if star.failures:
        print(f"star: {len(star.failures)} runs failed (see {out}/timings.csv)", file=sys.stderr)
        return 1
    return 0


def loop_body(star, source, dlt, s, out, machines, rate, command, say):
    """Calibrate, fit, solve, run, check; returns what the table needs."""
    fit = calibrate(star, source, dlt, s, out, rate, command, say)
    knee = fitted_knee(fit)
    m3, m2 = loop_requests(fit, machines)
    loads = loop_loads(knee, s["compute"], machines, LOOP["factors"])
    say(f"fitted knee: {'%.1f MB' % knee if knee else 'none (one line)'}; "
        f"loads {', '.join('%g' % v for v in loads)} MB on {machines} workers")
    runs = []
    for i, load in enumerate(loads):
        plans = {}
        for name, base in (("hierarchical", m3), ("linear", m2)):
            request = with_load(base, load)
            write_json(os.path.join(out, "requests", f"{name}-V{load:g}.json"), request)
            chunks, _, predicted = split_of(dlt_json(dlt, "solve", request=request))
            plans[name] = (chunks, predicted)
        plans["equal"] = (equal_split(load, machines), None)
        for rep in range(s["run_repeat"]):
            # The splits' order rotates, so that none always runs first.
            names = ["hierarchical", "linear", "equal"]
            shift = (i + rep) % 3
            for split in names[shift:] + names[:shift]:
                run = run_split(star, source, rate, machines, split, load, rep + 1, plans[split])
                if run:
                    runs.append(run)
                    say(f"  {split:>12} V={load:g} MB rep {rep + 1}: {run['makespan']:.3f} s"
                        + (f" (predicted {run['predicted']:.3f} s)" if run["predicted"] else ""))
    checks = check_runs(dlt, out, runs, loads, rate)
    return dict(runs=runs, checks=checks, knee=knee, loads=loads, fit=fit)


def calibrate(star, source, dlt, s, out, rate, command, say):
    """The link and computing tables, measured apart from any run, and their fit."""
    say(f"measuring the link ({len(s['link'])} sizes x {s['repeat']})")
    link = measure_link(star, source, s["link"], s["repeat"], rate, 1)
    say(f"measuring the computation ({len(s['compute'])} sizes x {s['repeat']}, one worker alone)")
    comp = measure_compute(star, source, s["compute"], s["repeat"], 2)
    if len(link) < 3 or len(comp) < 3:
        raise StarError("too few measurements survived to fit (see timings.csv)")
    link_csv = write_table(os.path.join(out, "link.csv"), ["size_MB", "time_s"], link,
                           [link_comment(rate),
                            "time: from the send's start to the arrival of the receiver's ack"])
    comp_csv = write_table(os.path.join(out, "compute.csv"), ["size_MB", "time_s"], comp,
                           [f"command: {shown(command)}",
                            "time: the command's run on the worker alone, input piped from memory",
                            link_comment(rate) + "; chunks here are sent unpaced and not timed"])
    fit_request = {"model": "fit", "transfers": {"csv": link_csv},
                   "computation": {"csv": comp_csv}, "shape": "auto",
                   "noise": s["noise"]}
    fit = dlt_json(dlt, "solve", request=fit_request)
    if not convex(fit):
        # M3 needs every level slower than the one above; a knee whose second
        # line is flatter is no memory spill, so M3 gets the one line.
        say("the two-level fit is not convex (no memory spill seen): M3 gets one line")
        write_json(os.path.join(out, "fit-auto.json"), fit)
        fit_request["shape"] = "line"
        fit = dlt_json(dlt, "solve", request=fit_request)
    write_json(os.path.join(out, "fit-request.json"), fit_request)
    write_json(os.path.join(out, "fit.json"), fit)
    return fit


def run_split(star, source, rate, machines, split, load, rep, plan):
    """One run of a split; None when it failed (the star keeps the message)."""
    chunks, predicted = plan
    name = f"V{load:g}-{rep}"
    records = star.run(f"{split}-{name}", split, load, chunks, source, rate)
    if not records:
        return None
    finishes, makespan = finish_times(records, machines)
    return dict(name=name, load=load, split=split, rep=rep, makespan=makespan,
                finishes=finishes, chunks=[c for _, c in chunks], predicted=predicted,
                records=records)


def check_runs(dlt, out, runs, loads, rate):
    """Writes each model's runs tables and checks them with `dlt fit --as runs`;
    returns {(split, run name): dlt's check of that run}."""
    checks = {}
    everything = []
    for split in ("hierarchical", "linear", "equal"):
        mine = [r for r in runs if r["split"] == split]
        rows = [row for r in mine for row in runs_rows(r["name"], r["makespan"], r["finishes"], r["load"])]
        everything += [[split] + row for row in rows]
        if split == "equal":
            continue
        for load in loads:
            at = [r for r in mine if r["load"] == load]
            if not at:
                continue
            path = os.path.join(out, "runs", f"{split}-V{load:g}.csv")
            write_table(path, ["run", "machine", "time_s"],
                        [row for r in at for row in runs_rows(r["name"], r["makespan"], r["finishes"])],
                        [link_comment(rate),
                         f"check: dlt fit runs/{split}-V{load:g}.csv --as runs "
                         f"--request requests/{split}-V{load:g}.json"])
            answer = subprocess.run(
                [dlt, "fit", path, "--as", "runs", "--request",
                 os.path.join(out, "requests", f"{split}-V{load:g}.json"), "--compact"],
                capture_output=True, text=True)
            if answer.returncode != 0:
                raise StarError(f"dlt fit {path} --as runs: {answer.stderr.strip()}")
            validity = json.loads(answer.stdout)["report"]["validity"]
            for run in validity["runs"]:
                checks[(split, run["name"])] = run
    write_table(os.path.join(out, "runs.csv"), ["split", "run", "machine", "time_s", "load_MB"],
                everything, [link_comment(rate), "makespan (machine all) and each machine's finish, s"])
    return checks


def loop_table(result, rate, command, wall):
    runs, checks, knee = result["runs"], result["checks"], result["knee"]
    machines = max((len(r["finishes"] or []) for r in runs), default=0)
    lines = [f"application: {shown(command)}",
             link_comment(rate),
             f"fitted knee r = {knee:.1f} MB per worker" if knee else
             "fitted knee: none (the data support one line)",
             fitted_noise(result["fit"]), ""]
    head = ("load_MB", "rep", "M3_split_MB", "measured_s", "M3_pred_s", "M3_err",
            "M2_measured_s", "M2_pred_s", "M2_err", "equal_s", "equal/M3")
    rows = []
    errors = {"hierarchical": [], "linear": [], "linear_past": [], "ratio_past": []}
    by = {(r["split"], r["name"]): r for r in runs}
    for r in [r for r in runs if r["split"] == "hierarchical"]:
        m3 = checks.get(("hierarchical", r["name"]))
        m2r, m2 = by.get(("linear", r["name"])), checks.get(("linear", r["name"]))
        eq = by.get(("equal", r["name"]))
        past = knee is not None and r["load"] / max(machines, 1) > knee
        if m3:
            errors["hierarchical"].append(abs(m3["error"]))
        if m2:
            errors["linear"].append(abs(m2["error"]))
            if past:
                errors["linear_past"].append(abs(m2["error"]))
        if eq and past:
            errors["ratio_past"].append(eq["makespan"] / r["makespan"])
        rows.append((f"{r['load']:g}", str(r["rep"]), "/".join(f"{c:.1f}" for c in r["chunks"]),
                     f"{r['makespan']:.3f}", pct_or(m3, "predicted", "%.3f"), pct_or(m3, "error"),
                     f"{m2r['makespan']:.3f}" if m2r else "-", pct_or(m2, "predicted", "%.3f"),
                     pct_or(m2, "error"), f"{eq['makespan']:.3f}" if eq else "-",
                     f"{eq['makespan'] / r['makespan']:.3f}" if eq else "-"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    lines += ["  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in rows]
    lines += ["",
              f"two-level model (M3): mean |error| {mean(errors['hierarchical'], 100, '%.1f %%')} "
              f"over {len(errors['hierarchical'])} runs",
              f"linear DLT (M2): mean |error| {mean(errors['linear'], 100, '%.1f %%')} over "
              f"{len(errors['linear'])} runs; past the knee "
              f"{mean(errors['linear_past'], 100, '%.1f %%')} over {len(errors['linear_past'])}",
              f"past the knee, equal split's makespan / M3 split's: mean "
              f"{mean(errors['ratio_past'], 1, '%.3f')} over {len(errors['ratio_past'])} runs",
              drift(result), f"wall time of the loop: {wall:.0f} s", ""]
    return "\n".join(lines)


def drift(result):
    """How the runs' parts compared with the fit, a diagnosis of the error:
    each chunk's computing time over the fitted t(x), its link time (send
    start to ack) over S + C x, as means over every chunk of every run."""
    machines = (((result["fit"].get("report") or {}).get("calibration") or {}).get("machines")
                or [{}])
    fitted = machines[0]
    levels = fitted.get("levels") or []
    rate, latency = fitted.get("rate"), fitted.get("latency") or 0.0
    if not levels or rate is None:
        return "runs against the fit: n/a"
    compute, link = [], []
    for run in result["runs"]:
        for r in run["records"]:
            x = r["chunk_MB"]
            compute.append(r["compute_s"] / max(l["intercept"] + l["slope"] * x for l in levels))
            link.append((r["ack_s"] - r["send_start_s"]) / (latency + rate * x))
    return (f"runs against the fit: computing {mean(compute, 1, '%.3f')} x the fitted time, "
            f"link {mean(link, 1, '%.3f')} x (means over {len(compute)} chunks)")


def mean(values, scale, form):
    return form % (scale * sum(values) / len(values)) if values else "n/a"


def pct_or(check, key, form=None):
    if not check:
        return "-"
    if form:
        return form % check[key]
    return f"{check[key] * 100:+.1f}%"


# ---------------------------------------------------------------- main

def parser():
    p = argparse.ArgumentParser(prog="star.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)

    w = sub.add_parser("worker", help="serve chunks: pipe each into COMMAND, report times")
    w.add_argument("--listen", default="0.0.0.0:7000", help="HOST:PORT (port 0: any free one)")
    w.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND reading standard input")

    def common(q, budget=True):
        q.add_argument("--workers", help="HOST:PORT,... of running workers (default: local ones)")
        q.add_argument("--link-MBps", dest="link_MBps", type=float, default=None,
                       help="emulated link rate, enforced by the sender (default: none)")
        q.add_argument("--input", help="cut chunks from this file (default: random text lines)")
        q.add_argument("--seed", type=int, default=1, help="seed of the generated data")
        q.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
        if budget:
            app_options(q)
        q.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND for local workers")

    for name, about in (("link", "time messages of several sizes to a worker"),
                        ("compute", "time the command on one worker alone at several chunk sizes")):
        q = sub.add_parser(name, help=about)
        q.add_argument("--sizes", required=True, help="MB, comma separated")
        q.add_argument("--repeat", type=int, default=3, help="runs per size")
        q.add_argument("--each", action="store_true",
                       help="measure every worker in turn (adds a machine column)")
        q.add_argument("--out", default="-", help="the CSV file (default: standard output)")
        common(q)

    r = sub.add_parser("runs", help="run a model's split for real and write the runs tables")
    r.add_argument("--request", required=True, help="any model's request (JSON) with a schedule")
    r.add_argument("--loads", help="MB, comma separated: the request's load set to each")
    r.add_argument("--repeat", type=int, default=1, help="runs per load")
    r.add_argument("--equal", action="store_true", help="run the equal split instead of the model's")
    r.add_argument("--out", required=True, help="the output folder")
    r.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    common(r)

    lp = sub.add_parser("loop", help="calibrate, fit, predict and run on this machine; print the table")
    lp.add_argument("--smoke", action="store_true", help="tiny sizes: checks the pipeline in seconds")
    lp.add_argument("--out", help="the output folder (default: star-out/DATE)")
    lp.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    lp.add_argument("--machines", type=int, default=2, help="local workers (default 2)")
    lp.add_argument("--link-MBps", dest="link_MBps", type=float, default=None,
                    help="emulated link rate (default 100, smoke 200)")
    app_options(lp, smoke=True)
    lp.add_argument("--sizes", help="computing sizes in MB, comma separated (default: 1 to 64)")
    lp.add_argument("--input", help="cut chunks from this file (default: random text lines)")
    lp.add_argument("--seed", type=int, default=1, help="seed of the generated data")
    lp.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
    lp.add_argument("--noise", choices=["absolute", "relative", "auto"], default="auto",
                    help="the fit's noise model (default auto: the lower BIC; timings' "
                         "noise usually grows with the time)")
    lp.add_argument("--quiet", action="store_true", help="print the table only")
    lp.add_argument("command", nargs=argparse.REMAINDER,
                    help="-- COMMAND instead of the default application")
    return p


def app_options(q, smoke=False):
    """The default application and its memory (when no -- COMMAND is given)."""
    q.add_argument("--app", choices=APPS, default="sqlite",
                   help="sqlite (default): load the lines into an indexed table with a page "
                        "cache of --budget; sort: GNU sort -S --budget")
    q.add_argument("--budget", default=None,
                   help="the application's memory in sort's -S units: sqlite's page cache (default 8M), "
                        "sort's -S (default 16M)" + (" (smoke: 1M)" if smoke else ""))
    q.add_argument("--spill", default="gzip",
                   help="sort's --compress-program for spilled runs (default gzip; none: "
                        "uncompressed, which in the page cache shows no second level)")


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        handler = {"worker": cmd_worker, "link": cmd_link, "compute": cmd_compute,
                   "runs": cmd_runs, "loop": cmd_loop}[args.mode]
        return handler(args)
    except StarError as e:
        print(f"star: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
