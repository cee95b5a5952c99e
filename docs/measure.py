#!/usr/bin/env python3
"""Time a command at several sizes and print the CSV that `dlt fit` reads.

    python3 docs/measure.py --machine node1 --sizes 250,500,1000,2000,4000,8000 \
        --repeat 3 -- ./kernel --input data.bin --megabytes {size}

Runs the command once per size and repetition, with every `{size}` in its
arguments replaced by the size (in MB), and prints one row per run:

    machine,size_MB,time_s
    node1,250,2.731
    ...

Give sizes below and above the machine's RAM to see the knee; repeat each
size (3 to 5 times) so that the fit can estimate the noise. For transfers,
time a command that sends a message of `{size}` MB (e.g. `scp`, `iperf3 -n`,
an MPI ping) and fit with `dlt fit transfers.csv --as transfers`.
Python 3 standard library only.
"""

import argparse
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--machine", default="", help="the machine's name (a column)")
    parser.add_argument("--sizes", required=True, help="sizes in MB, comma separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND with {size}")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to time after --")
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    for s in sizes:
        if float(s) <= 0:
            parser.error(f"size {s} is not above 0")
    out = sys.stdout
    out.write("machine,size_MB,time_s\n" if args.machine else "size_MB,time_s\n")
    for _ in range(args.repeat):
        for size in sizes:
            argv = [a.replace("{size}", size) for a in command]
            start = time.perf_counter()
            done = subprocess.run(argv, stdout=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                sys.exit(f"measure: {' '.join(argv)} failed with status {done.returncode}")
            prefix = f"{args.machine}," if args.machine else ""
            out.write(f"{prefix}{size},{seconds:.6f}\n")
            out.flush()


if __name__ == "__main__":
    main()
