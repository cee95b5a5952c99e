"""`measure`: time any command at several sizes, no workers, and print the
CSV `dlt fit` reads (what `docs/measure.py` did).

    python3 -m harness measure --machine node1 --sizes 250,500,1000,2000,4000,8000 \\
        --repeat 3 -- ./kernel --input data.bin --megabytes {size}

Runs the command once per size and repetition, with every `{size}` in its
arguments replaced by the size (in MB), and prints one row per run:
`machine,size_MB,time_s` (no `machine` column without --machine). Where
`compute` pipes chunks into a command through a worker, this runs the
command as it is, on this host, its input its own: a kernel that reads
its data from disk, an MPI ping for the link (`--as transfers`).
"""

import argparse
import subprocess
import sys
import time

from .applications import shown, strip_dashes
from .protocol import StarError


def cmd_measure(args):
    command = strip_dashes(args.command)
    if not command:
        raise StarError("measure: give the command to time after --")
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    for s in sizes:
        try:
            above = float(s) > 0
        except ValueError:
            raise StarError(f"size {s!r} is not a number") from None
        if not above:
            raise StarError(f"size {s} is not above 0")
    out = sys.stdout
    out.write("machine,size_MB,time_s\n" if args.machine else "size_MB,time_s\n")
    for _ in range(args.repeat):
        for size in sizes:
            argv = [a.replace("{size}", size) for a in command]
            start = time.perf_counter()
            done = subprocess.run(argv, stdout=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                print(f"measure: {shown(argv)} failed with status {done.returncode}",
                      file=sys.stderr)
                return 1
            prefix = f"{args.machine}," if args.machine else ""
            out.write(f"{prefix}{size},{seconds:.6f}\n")
            out.flush()
    return 0


def measure_parser(sub):
    m = sub.add_parser("measure", help="time any command at several sizes ({size} in its "
                                       "arguments), no workers")
    m.add_argument("--machine", default="", help="the machine's name (a column)")
    m.add_argument("--sizes", required=True, help="sizes in MB, comma separated")
    m.add_argument("--repeat", type=int, default=3, help="runs per size")
    m.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND with {size}")
