#!/usr/bin/env python3
"""The M5 reference instance of [3] (n = 20) for m = 2..20 at Table 1's Vmax:
our search (the `dlt` CLI) beside the paper's MIP (2)-(11) solved by HiGHS.

    python3 benches/reference.py [--highs-seconds 60] [--max-lps 20000] [--m 2,3,4]

Installs highspy (a development-only dependency) into target/bench-venv on
first use and re-runs itself there. Prints a Markdown table.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "bench-venv")
HIGHSPY = "highspy==1.15.1"

# [3] Table 1: m -> (Emax, Vmax [MB]).
TABLE_1 = {
    2: (34.2, 134485), 3: (34.0, 120827), 4: (33.7, 123329), 5: (33.4, 105097),
    6: (33.2, 119663), 7: (32.8, 95748), 8: (32.4, 106921), 9: (31.5, 115514),
    10: (30.9, 75048), 11: (30.4, 81394), 12: (29.6, 86545), 13: (28.7, 90457),
    14: (27.7, 94532), 15: (26.7, 98591), 16: (25.7, 99460), 17: (24.8, 100506),
    18: (23.8, 100354), 19: (22.9, 99708), 20: (22.1, 102240),
}
A1, A2, B2, C, O, S, N = 0.109, 4.132, -27109.0, 0.005, 0.075, 25.4, 20


def ensure_highspy():
    try:
        import highspy  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python3")
    if sys.executable != python:
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", HIGHSPY], check=True)
        os.execv(python, [python] + sys.argv)
    raise SystemExit("highspy is not importable even in " + VENV)


def single(v):
    return S + O + C * v + max(A1 * v, A2 * v + B2)


def ours(m, v, max_lps):
    request = {"model": "startup", "a1": A1, "a2": A2, "b2": B2, "rate": C, "overhead": O,
               "startup": S, "machines": m, "chunks": N, "load": v, "max_lps": max_lps}
    dlt = os.path.join(ROOT, "target", "release", "dlt")
    start = time.perf_counter()
    out = subprocess.run([dlt, "solve", "--compact"], input=json.dumps(request),
                         capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    return json.loads(out.stdout)["report"], seconds


def highs(m, v, seconds):
    """The paper's MIP (2)-(11): exactly n chunks, big-M linearisation."""
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(seconds))
    h.setOptionValue("threads", 1)
    z = 2 * (S + N * O + C * v + max(A1 * v, A2 * v + B2))  # big M: longer than any schedule
    inf = highspy.kHighsInf
    var = lambda lb, ub, integer=False: h.addVariable(  # noqa: E731
        lb=lb, ub=ub, type=highspy.HighsVarType.kInteger if integer else highspy.HighsVarType.kContinuous)
    T = var(0, inf)
    t = [var(0, inf) for _ in range(N)]
    x = [[var(0, 1, True) for _ in range(N)] for _ in range(m)]
    u = [[var(0, 1, True) for _ in range(N)] for _ in range(m)]
    a = [[var(0, v) for _ in range(N)] for _ in range(m)]
    q = [[var(0, inf) for _ in range(N)] for _ in range(m)]
    tau = [[var(0, inf) for _ in range(N)] for _ in range(m)]
    for j in range(N - 1):                                                   # (3)
        h.addConstr(t[j] + C * sum(a[i][j] for i in range(m)) + O <= t[j + 1])
    for i in range(m):
        for j in range(N):
            done = q[i][j] + C * a[i][j] + O * x[i][j] + tau[i][j]
            h.addConstr(done <= T)                                           # (4)
            for l in range(j + 1, N):                                        # (5)
                h.addConstr(done - q[i][l] + z * x[i][l] <= z)
            h.addConstr(a[i][j] - v * x[i][j] <= 0)                         # (8)
            h.addConstr(q[i][j] - z * x[i][j] <= 0)                         # (10)
            h.addConstr(q[i][j] - t[j] <= 0)
            h.addConstr(q[i][j] - t[j] - z * x[i][j] >= -z)
            h.addConstr(tau[i][j] - A1 * a[i][j] >= 0)                      # (11)
            h.addConstr(tau[i][j] - A1 * a[i][j] - z * u[i][j] <= 0)
            h.addConstr(tau[i][j] - A2 * a[i][j] >= B2)
            h.addConstr(tau[i][j] - A2 * a[i][j] + z * u[i][j] <= B2 + z)
    for j in range(N):
        h.addConstr(S * sum(x[i][j] for i in range(m)) - t[j] <= 0)         # (6)
        h.addConstr(sum(x[i][j] for i in range(m)) == 1)                    # (9)
    h.addConstr(sum(a[i][j] for i in range(m) for j in range(N)) >= v)      # (7)
    start = time.perf_counter()
    h.minimize(T)
    seconds_used = time.perf_counter() - start
    info = h.getInfo()
    value = h.getObjectiveValue() if info.primal_solution_status == 2 else float("nan")
    return value, info.mip_dual_bound, seconds_used


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--highs-seconds", type=float, default=60)
    parser.add_argument("--max-lps", type=int, default=20000)
    parser.add_argument("--m", default=",".join(str(m) for m in TABLE_1))
    parser.add_argument("--no-highs", action="store_true")
    args = parser.parse_args()
    if not args.no_highs:
        ensure_highspy()
    print("| m | paper Emax | our E | our E bound | gap | status | LPs | nodes | our time [s] |"
          " our time to final T [s] | HiGHS T | HiGHS time [s] | HiGHS T / our T |"
          " HiGHS time / our time to final T |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in (int(k) for k in args.m.split(",")):
        emax, vmax = TABLE_1[m]
        r, t_ours = ours(m, vmax, args.max_lps)
        # Time to the final incumbent, as the search measured it.
        t_final = r["incumbent_seconds"]
        row = [m, emax, f"{r['efficiency']:.3f}", f"{r['efficiency_bound']:.3f}",
               f"{100 * r['gap']:.2f} %", r["status"], r["lps"], r["nodes"], f"{t_ours:.2f}", f"{t_final:.3f}"]
        if args.no_highs:
            row += ["", "", "", ""]
        else:
            value, bound, t_highs = highs(m, vmax, args.highs_seconds)
            row += [f"{value:.1f}", f"{t_highs:.1f}", f"{value / r['makespan']:.4f}",
                    f"{t_highs / t_final:.0f}×"]
        print("| " + " | ".join(str(c) for c in row) + " |", flush=True)


if __name__ == "__main__":
    main()
