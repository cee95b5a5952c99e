"""The measuring modes: `link`, `compute` and `runs`, each against running
workers (--workers) or local ones."""

import json
import os
import random
import sys

from .applications import default_command, strip_dashes
from .data import Source
from .dlt import dlt_json, equal_split, find_dlt, split_of, with_load
from .local import LocalWorkers
from .originator import Star, finish_times
from .protocol import StarError
from .tables import description, link_comment, parse_sizes, runs_rows, write_json, write_table


def worker_command(args):
    """What local workers (and MPI's worker ranks) run: the command after --,
    else the application of --app."""
    return strip_dashes(args.command) or default_command(args.budget, args.spill, args.app)


def open_star(args, count, timings=None):
    """The workers of --workers, the MPI ranks of --mpi, or `count` local ones
    running the command after --."""
    local = None
    if args.mpi:
        if args.workers:
            raise StarError("--mpi takes no --workers: the workers are the job's ranks 1..m")
        from .mpi_originator import ranks
        return Star([], args.timeout, timings, workers=ranks(args.timeout)), None
    if args.workers:
        addresses = [a for a in args.workers.split(",") if a.strip()]
    else:
        local = LocalWorkers(count, worker_command(args), args.timeout)
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


def measure_compute(star, source, sizes, repeat, seed, each=False, together=False):
    """Rows (machine?, size_MB, time_s): the command's time on the worker alone
    (from its start to its exit, on the worker's clock); with `together`, every
    worker gets a chunk of the size at once and each one's time is a row (the
    machine's cores and memory shared as in a run). Sizes are shuffled within
    each repetition so that a drift of the machine is not a trend in size."""
    rows = []
    order = random.Random(seed)
    everyone = list(range(len(star.workers)))
    rounds = [everyone] if together else [[k] for k in (everyone if each else [0])]
    for group in rounds:
        for rep in range(repeat):
            shuffled = list(sizes)
            order.shuffle(shuffled)
            for size in shuffled:
                name = "all" if together else group[0] + 1
                records = star.run(f"compute-{name}-{rep + 1}-{size:g}", "compute",
                                   size * len(group), [(k, size) for k in group], source, None)
                for r in sorted(records or [], key=lambda r: int(r["machine"][1:])):
                    rows.append(([r["machine"]] if each else [])
                                + [r["chunk_MB"], r["compute_s"]])
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
