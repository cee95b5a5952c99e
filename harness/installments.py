"""`installments`: multi-installment against one installment out of core,
in the form of [2] Fig. 11 (docs/real-run.md, *Multi-installment*).

    python3 -m harness installments              # SQLite on 2 local workers
    python3 -m harness installments --smoke      # tiny sizes, in seconds

The loop's calibration and fit; then, at per-worker loads V/m set from the
fitted knee, equal chunks of size β sent round robin (M4: a worker keeps
the chunks it receives while it computes, `buffered`) for β over three
decades below the knee, and M3's one-installment split; each run against
its model's makespan (M4's for a β, M3's for one installment), and a
figure: the measured points beside the models' lines over V/m.
"""

import math
import os
import sys

from .applications import default_command
from .calibration import calibrate, fitted_knee
from .data import Source
from .dlt import dlt_json, find_dlt, split_of, with_load
from .figure import loglog_svg
from .local import LocalWorkers
from .loop import loop_requests
from .originator import Star, finish_times
from .protocol import now
from .startup import CHUNKS, startup_runs
from .tables import description, write_json, write_table

# Per-worker loads as multiples of the knee; β as fractions of it.
PER_WORKER = [0.5, 1, 2, 4]
BETAS = [0.001, 0.01, 0.1, 1]


def settings(args):
    if args.smoke:
        return dict(budget="1M", compute=[0.05, 0.1, 0.2, 0.4, 0.7, 1, 1.5, 2, 3],
                    link=[0.01, 0.05, 0.2, 0.5, 1], repeat=2, rate=200.0, noise="auto",
                    max_chunks=60)
    return dict(budget="8M", compute=[1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64],
                link=[0.1, 0.5, 1, 2, 4, 8, 16, 32, 64], repeat=3, rate=100.0, noise="auto",
                max_chunks=args.max_chunks)


def round_robin(load, beta, machines):
    """M4's chunks: size β (the last one smaller), P1..Pm, P1..Pm, ..."""
    n = max(1, math.ceil(load / beta - 1e-9))
    sizes = [beta] * (n - 1) + [load - beta * (n - 1)]
    return [(j % machines, size) for j, size in enumerate(sizes)]


def plan(knee, sizes, machines, max_chunks):
    """[(V, β or None)]: every β at every load, as long as it makes at most
    `max_chunks` chunks; None: one installment. Loads within the sizes measured."""
    if knee is None or not min(sizes) < knee < max(sizes):
        knee = (min(sizes) * max(sizes)) ** 0.5  # no knee: the middle of the range
    loads = sorted({round(machines * min(f * knee, max(sizes) / 1.2), 4) for f in PER_WORKER})
    runs = []
    for load in loads:
        runs.append((load, None))
        runs += [(load, round(f * knee, 6)) for f in BETAS if load / (f * knee) <= max_chunks]
    return knee, loads, runs


def cmd_installments(args):
    started = now()
    dlt = find_dlt(args.dlt)
    s = settings(args)
    out = args.out or os.path.join("star-out", "installments-" + str(int(started)))
    os.makedirs(os.path.join(out, "requests"), exist_ok=True)
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    command = default_command(s["budget"])
    local = LocalWorkers(args.machines, command, args.timeout)
    star = Star(local.addresses, args.timeout, os.path.join(out, "timings.csv"))
    try:
        star.connect()
        source = Source(None, max(s["compute"] + s["link"]) * 2.2, args.seed)
        about = description(star, s["rate"], command, {"installments": {"smoke": args.smoke}})
        fit = calibrate(star, source, dlt, s, out, s["rate"], command, say)
        rows, lines = measure(star, source, dlt, s, fit, args.machines, out, say)
        about.update(failed_runs=len(star.failures), wall_s=round(now() - started, 1),
                     load_average_end=list(os.getloadavg()))
        write_json(os.path.join(out, "machine.json"), about)
    finally:
        star.close()
        local.stop()
    write_table(os.path.join(out, "runs.csv"),
                ["load_MB", "beta_MB", "chunks", "measured_s", "predicted_s", "model"], rows,
                ["model M3: one installment, M3's split; M4: equal chunks of beta round "
                 "robin, buffered; M5: M5's optimal schedule (start-up from the per-chunk cost)"])
    with open(os.path.join(out, "figure.svg"), "w") as f:
        f.write(loglog_svg("Makespan against V/m: measured (points), models (lines)",
                           "V/m (MB)", "makespan (s)", lines,
                           [(r[0] / args.machines, r[3], key(r[1])) for r in rows
                            if r[5] != "M5"]))
    table = render(rows, fit, args.machines, now() - started)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    print(table, end="")
    return 1 if star.failures else 0


def key(beta):
    return "one installment" if beta is None else f"beta {beta:.3g} MB"


def measure(star, source, dlt, s, fit, machines, out, say):
    """Runs every (V, β) of the plan; returns the rows and the models' lines."""
    knee, loads, runs = plan(fitted_knee(fit), s["compute"], machines, s["max_chunks"])
    m3, _ = loop_requests(fit, machines)
    m4 = dict(fit["report"]["requests"]["installments"])
    m4["processors"] = list(m3["processors"])
    say(f"knee {knee:.3g} MB; loads {', '.join('%g' % v for v in loads)} MB; {len(runs)} runs")
    rows = []
    for load, beta in runs:
        if beta is None:
            request = with_load(m3, load)
            chunks, _, predicted = split_of(dlt_json(dlt, "solve", request=request))
        else:
            request = dict(with_load(m4, load), chunk=beta)
            predicted = dlt_json(dlt, "solve", request=request)["report"]["makespan"]
            chunks = round_robin(load, beta, machines)
        name = f"{'one' if beta is None else 'beta%g' % beta}-V{load:g}"
        write_json(os.path.join(out, "requests", name + ".json"), request)
        records = star.run(name, key(beta), load, chunks, source, s["rate"],
                           buffered=beta is not None)
        if records:
            makespan = finish_times(records, machines)[1]
            rows.append([load, beta, len(chunks), makespan, predicted,
                         "M3" if beta is None else "M4"])
            say(f"  {name}: {len(chunks)} chunks, {makespan:.3f} s (predicted {predicted:.3f} s)")
    rows += startup_runs(star, source, dlt, s, fit, machines, loads, out, say)
    return rows, model_lines(dlt, m4, loads, machines, sorted({b for _, b in runs if b}))


def model_lines(dlt, m4, loads, machines, betas):
    """Each β's M4 makespan and one installment's (M3's LP) over the loads, from
    M4's own series: {name: [(V/m, s)]}."""
    lines = {key(None): []}  # first: drawn in black
    series = {"from": min(loads), "to": max(loads), "points": 16}
    for beta in betas:
        answer = dlt_json(dlt, "solve", request=dict(m4, load=max(loads), chunk=beta,
                                                     series=series))
        points = answer["report"].get("series") or []
        lines[key(beta)] = [(p["load"] / machines, p["given"]) for p in points
                            if p.get("given") is not None]
        lines[key(None)] = [(p["load"] / machines, p["single"]) for p in points]
    return lines


def render(rows, fit, machines, wall):
    head = ("V_MB", "V/m_MB", "beta_MB", "chunks", "measured_s", "predicted_s", "error")
    body, errors = [], {"M4": [], "M3": [], "M5": []}
    for load, beta, n, measured, predicted, model in rows:
        error = (measured - predicted) / predicted if predicted else None
        if error is not None:
            errors[model].append(abs(error))
        label = {"M3": "one", "M5": "M5"}.get(model) or f"{beta:g}"
        body.append((f"{load:g}", f"{load / machines:g}", label,
                     str(n), f"{measured:.3f}", f"{predicted:.3f}",
                     f"{error * 100:+.1f} %" if error is not None else "-"))
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h)
              for i, h in enumerate(head)]
    knee = fitted_knee(fit)
    mean = {k: (f"{100 * sum(v) / len(v):.1f} % over {len(v)} runs" if v else "n/a")
            for k, v in errors.items()}
    return "\n".join([
        "multi-installment (M4, equal chunks round robin, buffered) against one "
        "installment (M3's split), then M5's schedule, SQLite on local workers",
        f"fitted knee r = {knee:.3g} MB per worker" if knee else "fitted knee: none",
        "", "  ".join(h.rjust(w) for h, w in zip(head, widths)),
        *["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in body], "",
        f"multi-installment (M4): mean |error| {mean['M4']}",
        f"two-level model (M3): mean |error| {mean['M3']} (one installment)",
        f"start-up model (M5): mean |error| {mean['M5']} (its optimal schedule, at most "
        f"{CHUNKS} chunks)",
        f"wall time: {wall:.0f} s", ""])


def installments_parser(sub):
    p = sub.add_parser("installments", help="equal chunks round robin over decades of beta "
                                            "against one installment out of core (M4, M3)")
    p.add_argument("--smoke", action="store_true", help="tiny sizes: checks the pipeline")
    p.add_argument("--out", help="the output folder")
    p.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    p.add_argument("--machines", type=int, default=2, help="local workers (default 2)")
    p.add_argument("--max-chunks", dest="max_chunks", type=int, default=1000,
                   help="leave out a (V, beta) of more chunks than this (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the generated data")
    p.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
    p.add_argument("--quiet", action="store_true", help="print the table only")
