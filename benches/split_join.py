#!/usr/bin/env python3
"""`dlt split` and `dlt join` on the reference isoefficiency map, against
`dlt solve` of the whole map in one process (which uses every core).

    cargo build --release --bin dlt
    python3 benches/split_join.py [--runs 5] [--workers 2] [--example isoefficiency]

Each figure is the median of --runs runs (whole processes, start-up
included; CPU = user + system of every process of the run, from the
kernel's accounting of reaped children). Prints a Markdown table:

- solve: `dlt solve map.json`, the whole map in one process;
- split, join: the two commands alone (what they add to a sweep);
- parts: `dlt split map.json | xargs -P W` running one `dlt solve` per
  part, then `dlt join` (the sweep on one host of W cores).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DLT = os.path.join(ROOT, "target", "release", "dlt")


def timed(command):
    """Wall and CPU seconds of one run of a shell command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(["sh", "-c", command], check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def medians(command, runs):
    """Median wall and CPU seconds of `runs` runs (after one warm-up)."""
    timed(command)
    results = [timed(command) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--example", default="isoefficiency")
    args = parser.parse_args()
    if not os.access(DLT, os.X_OK):
        sys.exit("build it first: cargo build --release --bin dlt")
    work = tempfile.mkdtemp(prefix="dlt-split-join-")
    request = os.path.join(work, "map.json")
    parts = os.path.join(work, "parts.jsonl")
    answers = os.path.join(work, "answers.jsonl")
    subprocess.run(f"{DLT} example {args.example} > {request}", shell=True, check=True)
    subprocess.run(f"{DLT} split {request} > {parts}", shell=True, check=True)
    solve_parts = (
        f"xargs -d '\\n' -n 1 -P {args.workers} sh -c 'printf \"%s\" \"$1\" | {DLT} solve --compact' _"
    )
    subprocess.run(f"{solve_parts} < {parts} > {answers}", shell=True, check=True)
    rows = [
        ("solve (one process, every core)", f"{DLT} solve {request}"),
        ("split", f"{DLT} split {request}"),
        ("join", f"{DLT} join {request} {answers}"),
        (
            f"split, xargs -P {args.workers} solve, join",
            f"{DLT} split {request} | {solve_parts} > {answers}.new && {DLT} join {request} {answers}.new",
        ),
    ]
    figures = [(name, *medians(command, args.runs)) for name, command in rows]
    whole_wall, whole_cpu = figures[0][1], figures[0][2]
    print(f"| {args.example}, medians of {args.runs} runs | wall s | CPU s | wall / solve | CPU / solve |")
    print("|---|---:|---:|---:|---:|")
    for name, wall, cpu in figures:
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {wall / whole_wall:.3f} | {cpu / whole_cpu:.3f} |")
    same = subprocess.run(
        f"cmp -s <({DLT} solve {request}) <({DLT} join {request} {answers})",
        shell=True, executable="/bin/bash",
    ).returncode == 0
    print(f"\njoin equals solve byte for byte: {same}")


if __name__ == "__main__":
    main()
