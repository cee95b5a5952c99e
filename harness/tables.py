"""The files the harness writes: the CSV tables `dlt fit` reads, JSON files
and machine.json."""

import csv
import datetime
import io
import json
import os
import sys

from .host import describe_host
from .protocol import StarError


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


def fmt(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") if value else "0"
    return str(value)


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


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2, sort_keys=True)
        f.write("\n")


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
        "transport": "mpi" if star.workers and hasattr(star.workers[0], "rank") else "tcp",
        "units": {"size": "MB = 10^6 bytes", "time": "s"},
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    if extra:
        about.update(extra)
    return about
