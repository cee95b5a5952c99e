#!/usr/bin/env python3
"""Long sequences on the M5 reference instance of [3]: n = 40 chunks at
Table 1's Vmax for each m, and m = 20 with n = 64, each searched until it is
proven optimal (a proven gap of at most 1e-6, the target's definition) or for
at most --seconds (the `dlt` CLI, release build).

    python3 benches/long_sequences.py [--seconds 60] [--m 2,3,4] [--no-64]

(DLT=path/to/dlt times another build of the CLI, e.g. an older commit's.)

Prints a Markdown table: the time to the proof (or the gap at the limit),
the LPs solved, and LPs per second.
"""
import argparse
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# [3] Table 1: m -> Vmax [MB].
VMAX = {
    2: 134485, 3: 120827, 4: 123329, 5: 105097, 6: 119663, 7: 95748, 8: 106921,
    9: 115514, 10: 75048, 11: 81394, 12: 86545, 13: 90457, 14: 94532, 15: 98591,
    16: 99460, 17: 100506, 18: 100354, 19: 99708, 20: 102240,
}


def search(m, n, v, seconds):
    request = {"model": "startup", "a1": 0.109, "a2": 4.132, "b2": -27109.0,
               "rate": 0.005, "overhead": 0.075, "startup": 25.4, "machines": m,
               "chunks": n, "load": v, "gap": 1e-6, "max_lps": 100_000_000,
               "max_seconds": seconds}
    dlt = os.environ.get("DLT", os.path.join(ROOT, "target", "release", "dlt"))
    start = time.perf_counter()
    out = subprocess.run([dlt, "solve", "--compact"], input=json.dumps(request),
                         capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    return json.loads(out.stdout)["report"], wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--m", default=",".join(str(m) for m in VMAX))
    parser.add_argument("--no-64", action="store_true")
    args = parser.parse_args()
    if "DLT" not in os.environ:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "dlt"], cwd=ROOT,
                       check=True)
    cases = [(int(m), 40, VMAX[int(m)]) for m in args.m.split(",")]
    if not args.no_64:
        cases.append((20, 64, VMAX[20]))
    print("| m | n | V | status | gap | LPs | time [s] | LPs per second |")
    print("|---|---|---|---|---|---|---|---|")
    for m, n, v in cases:
        r, wall = search(m, n, v, args.seconds)
        print(f"| {m} | {n} | {v} | {r['status']} | {100 * r['gap']:.4f} % | {r['lps']} "
              f"| {wall:.2f} | {r['lps'] / wall:.0f} |", flush=True)


if __name__ == "__main__":
    main()
