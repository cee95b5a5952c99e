"""The command line: `python3 -m harness MODE ...` (the package's docstring
says each mode)."""

import argparse
import sys

from . import __doc__ as ABOUT
from .applications import APPS
from .apps import apps_parser, cmd_apps
from .installments import cmd_installments, installments_parser
from .experiments import cmd_real_runs, real_runs_parser
from .loop import cmd_loop
from .measure import cmd_measure, measure_parser
from .modes import cmd_compute, cmd_link, cmd_runs
from .protocol import StarError
from .worker import cmd_worker


def parser():
    p = argparse.ArgumentParser(prog="python3 -m harness", description=ABOUT.split("\n")[0])
    p.set_defaults(mpi=False)
    sub = p.add_subparsers(dest="mode", required=True)

    w = sub.add_parser("worker", help="serve chunks: pipe each into COMMAND, report times")
    w.add_argument("--listen", default="0.0.0.0:7000", help="HOST:PORT (port 0: any free one)")
    w.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND reading standard input")

    def common(q, budget=True):
        q.add_argument("--workers", help="HOST:PORT,... of running workers (default: local ones)")
        q.add_argument("--link-MBps", dest="link_MBps", type=float, default=None,
                       help="emulated link rate, enforced by the sender (default: none)")
        q.add_argument("--input", help="cut chunks from this file (default: random text lines)")
        q.add_argument("--seed", type=int, default=1, help="seed of the generated data")
        q.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
        mpi_option(q)
        if budget:
            app_options(q)
        q.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND for local workers")

    for name, about in (("link", "time messages of several sizes to a worker"),
                        ("compute", "time the command on one worker alone at several chunk sizes")):
        q = sub.add_parser(name, help=about)
        q.add_argument("--sizes", required=True, help="MB, comma separated")
        q.add_argument("--repeat", type=int, default=3, help="runs per size")
        q.add_argument("--each", action="store_true",
                       help="measure every worker in turn (adds a machine column)")
        q.add_argument("--out", default="-", help="the CSV file (default: standard output)")
        common(q)

    r = sub.add_parser("runs", help="run a model's split for real and write the runs tables")
    r.add_argument("--request", required=True, help="any model's request (JSON) with a schedule")
    r.add_argument("--loads", help="MB, comma separated: the request's load set to each")
    r.add_argument("--repeat", type=int, default=1, help="runs per load")
    r.add_argument("--equal", action="store_true", help="run the equal split instead of the model's")
    r.add_argument("--out", required=True, help="the output folder")
    r.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    common(r)

    loop_parser(sub)
    measure_parser(sub)
    real_runs_parser(sub)
    apps_parser(sub)
    installments_parser(sub)
    return p


def loop_parser(sub):
    lp = sub.add_parser("loop", help="calibrate, fit, predict and run on this machine; print the table")
    lp.add_argument("--smoke", action="store_true", help="tiny sizes: checks the pipeline in seconds")
    lp.add_argument("--out", help="the output folder (default: star-out/DATE)")
    lp.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    lp.add_argument("--machines", type=int, default=None,
                    help="local workers (default 2; with --mpi the job's ranks less one)")
    lp.add_argument("--link-MBps", dest="link_MBps", type=float, default=None,
                    help="emulated link rate (default 100, smoke 200)")
    app_options(lp, smoke=True)
    lp.add_argument("--sizes", help="computing sizes in MB, comma separated (default: 1 to 64)")
    lp.add_argument("--input", help="cut chunks from this file (default: random text lines)")
    lp.add_argument("--seed", type=int, default=1, help="seed of the generated data")
    lp.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
    lp.add_argument("--noise", choices=["absolute", "relative", "auto"], default="auto",
                    help="the fit's noise model (default auto: the lower BIC; timings' "
                         "noise usually grows with the time)")
    lp.add_argument("--quiet", action="store_true", help="print the table only")
    lp.add_argument("--budgets", help="one local worker per budget, each with its own memory "
                                      "(e.g. 2M,8M,32M: SQLite page caches); implies --each")
    lp.add_argument("--cpu-quota", dest="cpu_quota",
                    help="each local worker's share of a core (e.g. 1,0.6,0.4; root: the "
                         "cgroup CPU controller); implies --each")
    lp.add_argument("--each", action="store_true",
                    help="calibrate every worker alone, one after the other (a fit per worker)")
    lp.add_argument("--kernel-link", dest="kernel_link", action="store_true",
                    help="root: each worker and the originator in a network namespace of its "
                         "own, joined by veth pairs shaped by tc tbf at --link-MBps (no pacing)")
    lp.add_argument("--together", action="store_true",
                    help="calibrate with every worker computing at once (cores shared as in a run)")
    mpi_option(lp)
    lp.add_argument("command", nargs=argparse.REMAINDER,
                    help="-- COMMAND instead of the default application")


def mpi_option(q):
    q.add_argument("--mpi", action="store_true",
                   help="run under mpirun or srun: rank 0 the originator, ranks 1..m the "
                        "workers (mpi4py; docs/real-run.md)")


def app_options(q, smoke=False):
    """The default application and its memory (when no -- COMMAND is given)."""
    q.add_argument("--app", choices=APPS, default="sqlite",
                   help="sqlite (default): load the lines into an indexed table with a page "
                        "cache of --budget; sort: GNU sort -S --budget")
    q.add_argument("--budget", default=None,
                   help="the application's memory in sort's -S units: sqlite's page cache (default 8M), "
                        "sort's -S (default 16M)" + (" (smoke: 1M)" if smoke else ""))
    q.add_argument("--spill", default="gzip",
                   help="sort's --compress-program for spilled runs (default gzip; none: "
                        "uncompressed, which in the page cache shows no second level)")


def main(argv=None):
    args = parser().parse_args(argv)
    if args.mpi and args.mode in ("link", "compute", "runs", "loop"):
        return main_mpi(args)  # (real-runs' --mpi starts such processes)
    return run(args)


def run(args):
    try:
        handler = {"worker": cmd_worker, "link": cmd_link, "compute": cmd_compute,
                   "runs": cmd_runs, "loop": cmd_loop, "measure": cmd_measure,
                   "real-runs": cmd_real_runs, "apps": cmd_apps,
                   "installments": cmd_installments}[args.mode]
        return handler(args)
    except StarError as e:
        print(f"star: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def main_mpi(args):
    """Under MPI every rank runs this command: rank 0 the mode, the others
    the worker, with the command the mode gives its workers."""
    try:
        from . import mpi
        if mpi.this_rank() > 0:
            from .loop import loop_command, loop_settings
            from .mpi_worker import serve
            from .modes import worker_command
            command = (loop_command(args, loop_settings(args)) if args.mode == "loop"
                       else worker_command(args))
            return serve(command, args.timeout)
    except StarError as e:
        print(f"star: {e}", file=sys.stderr)
        return 2
    from .mpi_originator import finish
    return finish(run(args))
