"""The loop: calibrate, fit, predict and run on this machine, then the table
(docs/real-run.md, *The loop*)."""

import datetime
import os
import sys

from .applications import default_command, shown, strip_dashes
from .calibration import calibrate, fitted_knee
from .data import Source
from .dlt import dlt_json, equal_split, find_dlt, split_of, with_load
from .local import LocalWorkers
from .originator import Star, finish_times
from .protocol import StarError, now
from .reports import check_runs, loop_table
from .tables import description, link_comment, parse_sizes, write_json


LOOP = {
    # Per-worker loads as multiples of the fitted knee r: two under it, three past it.
    "factors": [0.35, 0.7, 1.5, 2.5, 3.5],
}


def loop_settings(args):
    settings = loop_defaults(args)
    if args.sizes:
        settings["compute"] = parse_sizes(args.sizes)
    settings["noise"] = args.noise
    settings["each"] = bool(args.each or args.budgets or args.cpu_quota)
    settings["together"] = args.together
    settings["kernel_rate"] = None
    if args.kernel_link:  # the kernel shapes the link at the rate; the sender does not pace
        settings["kernel_rate"], settings["rate"] = settings["rate"], None
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


def loop_requests(fit, machines):
    """The M3 and M2 requests of the fit: for `machines` workers alike when it
    fitted one machine, else as fitted, one processor per worker (--each)."""
    report = fit.get("report") or {}
    requests = report.get("requests") or {}
    if "hierarchical" not in requests or "linear" not in requests:
        raise StarError("dlt fit filled no hierarchical or linear request")
    m3, m2 = dict(requests["hierarchical"]), dict(requests["linear"])
    fitted = len((report.get("calibration") or {}).get("machines") or [])
    if fitted == machines > 1:
        if len(m3["processors"]) != machines:
            raise StarError(f"the fit's M3 request has {len(m3['processors'])} processors "
                            f"for {machines} workers")
        return m3, {"model": "linear", "load": m2["load"], "machines": m2["machines"]}
    if fitted > 1:
        raise StarError(f"the fit has {fitted} machines for {machines} workers")
    m3["processors"] = [m3["processors"][0]] * machines
    machine = dict(m2["machines"][0], count=machines)
    return m3, {"model": "linear", "load": m2["load"], "machines": [machine]}


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
    command = loop_command(args, s)
    rate = s["rate"]
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    star, local = loop_star(args, s, os.path.join(out, "timings.csv"))
    machines = len(star.workers)
    say(f"star loop: {machines} {'MPI worker ranks' if args.mpi else 'local workers'} running "
        f"`{shown(command)}`, " + (f"link emulated at {rate:g} MB/s" if rate else "link not emulated")
        + f"; output in {out}")
    try:
        star.connect()
        source = Source(args.input, max(s["compute"] + s["link"]) * 2.2, args.seed)
        about = description(star, rate, command, {"loop": {
            "smoke": args.smoke, "seed": args.seed, "budgets": args.budgets,
            "cpu_quota": args.cpu_quota, "each": s["each"], "together": s["together"]}})
        if local and local.links:
            about["link"] = local.links.describe()
        write_json(os.path.join(out, "machine.json"), about)
        result = loop_body(star, source, dlt, s, out, machines, rate, command, say)
        about["load_average_end"] = list(os.getloadavg())
        about["wall_s"] = round(now() - started, 1)
        about["failed_runs"] = len(star.failures)
        write_json(os.path.join(out, "machine.json"), about)
    finally:
        star.close()
        if local:
            local.stop()
    table = loop_table(result, rate, command, now() - started)
    if s["kernel_rate"]:
        table = table.replace(link_comment(None), f"link: shaped by the kernel (tc tbf) at "
                              f"{s['kernel_rate']:g} MB/s between network namespaces", 1)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    print(table, end="")
    if star.failures:
        print(f"star: {len(star.failures)} runs failed (see {out}/timings.csv)", file=sys.stderr)
        return 1
    return 0


def loop_command(args, s):
    """What the loop's workers run: the command after --, else --app's (with
    --budgets, the first worker's)."""
    return loop_commands(args, s)[0]


def loop_commands(args, s):
    """Each local worker's command: --app's with its own memory, one per
    budget of --budgets; else [the one command every worker runs]."""
    budgets = [b.strip() for b in (args.budgets or "").split(",") if b.strip()]
    if budgets and strip_dashes(args.command):
        raise StarError("--budgets sets the application's memory: give no -- COMMAND")
    if budgets and args.mpi:
        raise StarError("--budgets starts local workers: it takes no --mpi")
    if budgets:
        return [default_command(b, args.spill, args.app) for b in budgets]
    return [strip_dashes(args.command) or default_command(s["budget"], args.spill, args.app)]


def quotas_of(args, count):
    """--cpu-quota: each worker's share of a core (`1,0.5,1`), or None."""
    if not args.cpu_quota:
        return None
    from . import cgroup
    shares = parse_sizes(args.cpu_quota, "CPU quota")
    if len(shares) != count:
        raise StarError(f"--cpu-quota gives {len(shares)} shares for {count} workers")
    if not cgroup.available():
        raise StarError("--cpu-quota needs root and the kernel's cgroup CPU controller")
    return shares


def loop_star(args, s, timings):
    """The loop's workers: --machines local ones (default 2; with --budgets one
    per budget), or the MPI job's ranks 1..m with --mpi; and the local ones
    to stop, if any."""
    if args.mpi:
        if args.cpu_quota or args.kernel_link:
            raise StarError("--cpu-quota and --kernel-link act on local workers: no --mpi")
        from .mpi_originator import ranks
        return Star([], args.timeout, timings, workers=ranks(args.timeout, args.machines)), None
    commands = loop_commands(args, s)
    count = len(commands) if args.budgets else args.machines or 2
    quotas, links = quotas_of(args, count), None
    if s["kernel_rate"]:
        from . import netns
        if not netns.available():
            raise StarError("--kernel-link needs root, ip netns and tc")
        links = netns.Links(count, s["kernel_rate"])
    local = LocalWorkers(count, commands[0], args.timeout, links=links, quotas=quotas,
                         commands=commands if args.budgets else None)
    if links:
        try:
            links.enter()  # the originator's sockets in its namespace
        except StarError:
            local.stop()
            raise
    return Star(local.addresses, args.timeout, timings), local


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
        plans["equal"] = (equal_split(load, machines), equal_predicted(dlt, m3, load, out))
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


def equal_predicted(dlt, m3, load, out):
    """M3's makespan for the equal split: its request with every worker's
    memory capped at V/m (a hair more, for rounding), whose only feasible
    split is the equal one; None when M3 refuses it."""
    request = with_load(m3, load)
    share = load / len(request["processors"]) * (1 + 1e-9)
    request["processors"] = [dict(p, cap=share) for p in request["processors"]]
    write_json(os.path.join(out, "requests", f"equal-V{load:g}.json"), request)
    try:
        return split_of(dlt_json(dlt, "solve", request=request))[2]
    except StarError:
        return None


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
