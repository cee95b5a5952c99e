"""The originator: it runs one schedule of chunks on a one-port star and
keeps every chunk's times; the workers' connections carry them (`tcp`)."""

import csv
import sys

from .data import chunk_bytes
from .protocol import MB, TIMING_COLUMNS, StarError, now
from .tables import fmt
from .tcp import Worker


def execute(workers, chunks, source, rate, compute=True, buffered=False):
    """Runs one schedule: `chunks` is [(machine, MB)] in the order sent.

    Chunk j goes out when the channel is free and its machine has finished
    its previous chunk; with `buffered` (M4's machines, TCP workers only),
    as soon as the channel is free: the worker keeps it until its previous
    chunks are computed (the wait is in its report). Returns one record per chunk; times are seconds
    from the run's start (the start of its first send) on the originator's
    clock. A worker's receive end is when its ack arrives (late by the
    ack's one-way trip, which is also when the channel is free for the
    next send); its compute end adds the durations the worker measured on
    its own clock after its receive ended, so no clocks need to agree.
    A failure raises RunFailed with the records so far.
    """
    records = []
    pending = {}  # machine: its chunks sent and not yet reported, oldest first
    for machine in sorted({m for m, _ in chunks}):
        if machine >= len(workers):
            raise RunFailed(f"the schedule sends to machine P{machine + 1}, "
                            f"but only {len(workers)} workers were given", [])
    if buffered and not all(hasattr(w, "early") for w in workers):
        raise RunFailed("buffered chunks need workers over TCP", [])
    try:
        for machine in sorted({m for m, _ in chunks}):
            workers[machine].connect()
    except StarError as e:
        raise RunFailed(str(e), []) from None
    start = now()

    def finish(record):
        finish_chunk(workers[record["_index"]], record, start)

    try:
        for j, (machine, size_mb) in enumerate(chunks):
            worker = workers[machine]
            while pending.get(machine) and not buffered:
                finish(pending[machine].pop(0))
            size = chunk_bytes(size_mb, source.lines)
            record = {"chunk": j + 1, "machine": f"P{machine + 1}", "worker": worker.address,
                      "chunk_MB": size / MB, "_index": machine, "status": "failed"}
            records.append(record)
            record["send_start_s"] = now() - start
            worker.send({"op": "chunk", "bytes": size, "compute": compute, "buffer": buffered})
            worker.send_data(source.chunk(size), rate)
            record["send_end_s"] = now() - start
            worker.expect("received")
            record["ack_s"] = now() - start
            record["recv_end_s"] = record["ack_s"]
            pending.setdefault(machine, []).append(record)
        for machine in sorted(pending):
            while pending[machine]:
                finish(pending[machine].pop(0))
    except StarError as e:
        for record in records:
            if record["status"] != "ok" and not record.get("error"):
                record["error"] = str(e)
        raise RunFailed(str(e), records) from None
    return records


def finish_chunk(worker, record, start):
    """Waits for a chunk's report and completes its record (its compute end
    anchored on its receive end); a command's failure raises."""
    done = worker.expect("done")
    record["done_s"] = done.pop("_arrived", None) or now()
    record["done_s"] -= start
    record["worker_recv_s"] = done["recv_s"]
    record["worker_wait_s"] = done["wait_s"]
    record["compute_s"] = done["compute_s"]
    record["compute_end_s"] = record["recv_end_s"] + done["wait_s"] + done["compute_s"]
    if done.get("error"):
        record["status"], record["error"] = "failed", done["error"]
        raise StarError(f"worker {worker.address}: {done['error']}")
    record["status"] = "ok"


class RunFailed(StarError):
    def __init__(self, message, records):
        super().__init__(message)
        self.records = records


class Star:
    """The workers of one session and the raw timings file."""

    def __init__(self, addresses, timeout, timings_path=None, workers=None):
        """TCP workers at `addresses`, or the given `workers` (MPI ranks)."""
        self.workers = workers if workers is not None else [Worker(a, timeout) for a in addresses]
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

    def run(self, name, split, load_mb, chunks, source, rate, compute=True, buffered=False):
        """One run; its records go to the timings file, failed or not.

        Returns the records, or None when the run failed (the message is
        printed and kept in `failures`; every connection is closed so that
        the next run starts afresh).
        """
        try:
            records = execute(self.workers, chunks, source, rate, compute, buffered)
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
