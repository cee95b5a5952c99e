"""`real-runs` (`make real-runs`): every experiment of the harness, one after
the other, each in a folder of its own, and one report of them all.

An experiment is a list of the harness's own arguments, run as a process
of its own (`python3 -m harness ARGS --out FOLDER/NAME --quiet`), so that
one that fails leaves the others and the report; its folder keeps what
its command writes (tables, requests, raw timings). A new experiment is
one more entry of `experiments()`.
"""

import datetime
import json
import os
import subprocess
import sys

from . import cgroup, netns
from .dlt import find_dlt
from .local import PACKAGE
from .protocol import now
from .tables import write_json

# The memory experiment's page caches (smoke: smaller, for its smaller
# chunks) and, as root, its workers' shares of a core: the smallest memory
# on the fastest worker, so that neither speed nor memory alone decides.
MEMORIES = {False: ["2M", "8M", "32M"], True: ["256K", "1M", "2M"]}
QUOTAS = "1,0.6,0.4"

DEFAULT_LAUNCHER = "mpirun -n {n} --oversubscribe --enable-recovery"


def experiments(args):
    """[(name, what it measures, the harness's arguments)], in the order run;
    those with --mpi run under the launcher (--launcher)."""
    smoke = ["--smoke"] if args.smoke else []
    quotas = ["--cpu-quota", QUOTAS] if cgroup.available() else []
    chosen = [
        ("loop", "the default loop: SQLite on two local workers over TCP, the link "
                 "emulated (M3 and M2 against the equal split)", ["loop", *smoke]),
        ("apps", "[1] section 2's three applications under linear DLT (M2): LZW compress, "
                 "a SQLite join, grep -c, each calibrated alone, four loads over a decade",
         ["apps", *smoke]),
        ("memory", "heterogeneous memory (M3): three local workers whose SQLite page caches "
                   f"are {', '.join(MEMORIES[bool(args.smoke)])}" + (
                       f", CPU quotas {QUOTAS} of a core" if quotas else
                       " (no CPU quotas: not root or no cgroup CPU controller)")
                   + ", each calibrated alone (--each); M3's split, linear DLT's and the "
                     "equal split", ["loop", "--budgets", ",".join(MEMORIES[bool(args.smoke)]),
                                     *quotas, *smoke]),
        ("installments", "multi-installment (M4): equal chunks round robin, buffered by the "
                         "workers, over three decades of beta, against one installment out of "
                         "core (M3), as [2] Fig. 11 (figure.svg); then M5's optimal schedule, "
                         "its start-up the per-chunk fixed cost", ["installments", *smoke]),
        ("together", "the loop calibrated with both workers computing at once (--together), "
                     "to set beside `loop`'s calibration with one worker alone",
         ["loop", "--together", *smoke]),
    ]
    if netns.available():
        chosen.append(("kernel-link", "the loop with the link shaped by the kernel: the "
                       "originator and each worker in a network namespace of its own, veth "
                       "pairs, tc tbf at the loop's rate, the sender's pacing off",
                       ["loop", "--kernel-link", *smoke]))
    if args.mpi:
        chosen += [
            ("loop-mpi", "the same loop over MPI: rank 0 the originator, ranks 1 and 2 the "
                         "workers, the link emulated as over TCP", ["loop", "--mpi", *smoke]),
            ("loop-mpi-link", "the same loop over MPI with the emulated rate off: the link "
                              "fitted is MPI's own", ["loop", "--mpi", "--link-MBps", "0", *smoke]),
        ]
    return chosen


def launcher(args, workers=2):
    """The command that starts an MPI experiment's ranks, before its Python."""
    words = args.launcher.replace("{n}", str(workers + 1)).split()
    if args.launcher == DEFAULT_LAUNCHER and os.geteuid() == 0:
        words.append("--allow-run-as-root")  # Open MPI refuses root without it
    return words + [args.mpi_python]


def cmd_real_runs(args):
    dlt = find_dlt(args.dlt)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = args.out or os.path.join("real-runs", ("smoke-" if args.smoke else "") + stamp)
    os.makedirs(out, exist_ok=True)
    chosen = [e for e in experiments(args) if not args.only or e[0] in args.only.split(",")]
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    done = []
    for name, about, argv in chosen:
        folder = os.path.join(out, name)
        python = launcher(args) if "--mpi" in argv else [sys.executable]
        command = [*python, PACKAGE, *argv, "--out", folder, "--quiet", "--dlt", dlt]
        say(f"real-runs: {name}: {' '.join(argv)} (output in {folder})")
        started = now()
        answer = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        done.append(dict(name=name, about=about, argv=argv, status=status(answer, folder),
                         wall_s=round(now() - started, 1), table=answer.stdout,
                         summary=summary(folder)))
        say(f"real-runs: {name}: exit status {answer.returncode}, {done[-1]['wall_s']:.0f} s")
    write_json(os.path.join(out, "experiments.json"), done)
    report = render(done, out)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(report)
    print(report, end="")
    return 0 if all(d["status"] == 0 for d in done) else 1


def status(answer, folder):
    """The experiment's exit status; 1 also when its folder says runs failed or
    has no table (`mpirun --enable-recovery` exits 0 whatever its ranks did)."""
    try:
        with open(os.path.join(folder, "machine.json")) as f:
            failed = json.load(f).get("failed_runs", 0)
        table = os.path.isfile(os.path.join(folder, "table.txt"))
    except (OSError, ValueError):
        failed, table = 0, False
    return answer.returncode or (1 if failed or not table else 0)


def summary(folder):
    """An experiment's figures read from its folder: the models' mean |error|
    (the table's last lines) and the link's fitted rate and latency."""
    found = {}
    try:
        with open(os.path.join(folder, "table.txt")) as f:
            for line in f:
                for key, start in (("M3", "two-level model (M3)"), ("M2", "linear DLT (M2)"),
                                   ("M4", "multi-installment (M4)"),
                                   ("M5", "start-up model (M5)"),
                                   ("equal/M3", "past the knee, equal split")):
                    if line.startswith(start):
                        found[key] = line.split(": ", 1)[1].strip()
        with open(os.path.join(folder, "fit.json")) as f:
            fit = json.load(f)
        machine = (fit["report"]["calibration"]["machines"] or [{}])[0]
        if machine.get("rate") is not None:
            found["link"] = (f"C = {machine['rate']:.5g} s/MB, "
                             f"S = {(machine.get('latency') or 0) * 1e3:.3g} ms")
    except (OSError, ValueError, KeyError, TypeError):
        pass  # a failed experiment: its status says so
    return found


def render(done, out):
    lines = ["# Real runs", "",
             f"{datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}, "
             f"{len(done)} experiments; each one's folder under `{out}` keeps its tables, "
             "requests, raw timings and `machine.json` (CPU, cores, OS, application and version).",
             "", "| experiment | status | wall | M3 | M2 | M4 | M5 | equal / M3 past the "
                 "knee | link fitted |",
             "|---|---|---|---|---|---|---|---|---|"]
    for d in done:
        s = {k: v.replace("|", "\\|") for k, v in d["summary"].items()}  # |error|: not a cell
        lines.append(f"| {d['name']} | {'ok' if d['status'] == 0 else 'failed (%d)' % d['status']} "
                     f"| {d['wall_s']:.0f} s | {s.get('M3', '-')} | {s.get('M2', '-')} "
                     f"| {s.get('M4', '-')} | {s.get('M5', '-')} "
                     f"| {s.get('equal/M3', '-')} | {s.get('link', '-')} |")
    for d in done:
        lines += ["", f"## {d['name']}", "", d["about"] + ":", "",
                  f"    python3 -m harness {' '.join(d['argv'])} --out {d['name']}", "",
                  "```", d["table"].rstrip("\n") or "(no table: the experiment failed)", "```"]
    return "\n".join(lines) + "\n"


def real_runs_parser(sub):
    r = sub.add_parser("real-runs", help="every experiment, one after the other, and one report")
    r.add_argument("--smoke", action="store_true", help="each experiment with tiny sizes")
    r.add_argument("--only", help="the experiments to run, comma separated (default: all)")
    r.add_argument("--out", help="the output folder (default: real-runs/DATE)")
    r.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    r.add_argument("--quiet", action="store_true", help="print the report only")
    r.add_argument("--mpi", action="store_true",
                   help="also the loop over MPI, emulated link and MPI's own (after the TCP one)")
    r.add_argument("--launcher", default=DEFAULT_LAUNCHER,
                   help="what starts the MPI ranks ({n}: their number; default: "
                        f"{DEFAULT_LAUNCHER}, --allow-run-as-root added as root)")
    r.add_argument("--mpi-python", default="/usr/bin/python3",
                   help="the Python with mpi4py that the ranks run (default Debian's, "
                        "/usr/bin/python3)")
