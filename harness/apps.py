"""`apps`: [1] §2's verification framework on its three applications, under
linear DLT (M2): measure the link and each application's computing time,
split by the formulas, run, compare (docs/real-run.md, *Three applications*).

    python3 -m harness apps                      # compress, join and grep, 2 local workers
    python3 -m harness apps --apps join --smoke  # one of them, tiny sizes

For each application the workers run its command alone (no other
application on them); its calibration is fitted with one line (linear
DLT's model of computing), and the loads span a decade, set from the
calibrated range before any run: a model is not asked to extrapolate, and
nothing is chosen from the runs. Every load is run --repeat times; the
table gives each load's mean |error|, as [1]'s slides give error by V.
"""

import os
import sys

from .calibration import calibrate
from .data import Source
from .dlt import dlt_json, find_dlt, split_of, with_load
from .local import LocalWorkers
from .loop import run_split
from .originator import Star
from .protocol import StarError, now
from .reports import check_runs
from .tables import description, write_json

# The key of a chunk's row: its first two characters as one integer. The
# fixed table holds one row per pair of printable ASCII characters from `0`
# to `z` (5625 keys, built in milliseconds), so every generated line finds
# one match; a line of an --input file that starts otherwise finds none.
JOIN_KEY = "unicode(substr(c.line, 1, 1)) * 256 + unicode(substr(c.line, 2, 1))"

APPLICATIONS = {
    # LZW, as [1]'s compression: ncompress's `compress`, output to the worker's sink.
    "compress": ("LZW compression", ["compress", "-c", "-f"], "9-13 %"),
    # A database join: each chunk's rows (one a line) joined with a fixed
    # table through its primary key (an index lookup a row).
    "join": ("database join", [
        "sqlite3", "-batch", "",
        "CREATE TABLE k(key INTEGER PRIMARY KEY, v INTEGER);",
        "WITH RECURSIVE n(i) AS (SELECT 48 UNION ALL SELECT i + 1 FROM n WHERE i < 122) "
        "INSERT INTO k SELECT a.i * 256 + b.i, (a.i * 256 + b.i) % 97 FROM n a, n b;",
        "CREATE TABLE c(line TEXT);", ".mode ascii", '.separator "\\037" "\\n"',
        ".import /dev/stdin c",
        f"SELECT count(*), sum(k.v) FROM c JOIN k ON k.key = {JOIN_KEY};"], "< 10 %"),
    # A pattern search in text: the lines holding an `a` then a digit
    # (about a quarter of the generated lines).
    "grep": ("pattern search", ["env", "LC_ALL=C", "grep", "-c", "a[0-9]"], "< 5 %"),
}

# Per-worker loads as fractions of the largest calibrated chunk over 1.7
# (linear DLT gives the first worker up to ~1.7 times the mean): a decade.
FACTORS = [10 ** (-3 / 3), 10 ** (-2 / 3), 10 ** (-1 / 3), 1.0]


def apps_settings(args):
    if args.smoke:
        s = dict(compute=[0.05, 0.1, 0.2, 0.4, 0.8], link=[0.01, 0.05, 0.2, 0.5, 1],
                 repeat=3, run_repeat=2, rate=200.0)
    else:
        s = dict(compute=[0.5, 1, 2, 4, 8, 16, 32], link=[0.1, 0.5, 1, 2, 4, 8, 16, 32],
                 repeat=3, run_repeat=3, rate=100.0)
    if args.link_MBps is not None:
        s["rate"] = args.link_MBps or None
    if args.repeat is not None:
        s["run_repeat"] = args.repeat
    s["noise"] = args.noise
    return s


def app_loads(sizes, machines):
    """Total loads over a decade, from the calibrated sizes alone."""
    top = max(sizes) / 1.7
    return [round(machines * top * f, 3) for f in FACTORS]


def linear_request(fit, machines):
    """The fit's linear DLT request, for `machines` workers alike."""
    m2 = ((fit.get("report") or {}).get("requests") or {}).get("linear")
    if not m2:
        raise StarError("dlt fit filled no linear request")
    return {"model": "linear", "load": m2["load"],
            "machines": [dict(m2["machines"][0], count=machines)]}


def cmd_apps(args):
    started = now()
    dlt = find_dlt(args.dlt)
    s = apps_settings(args)
    names = [n.strip() for n in args.apps.split(",") if n.strip()]
    for name in names:
        if name not in APPLICATIONS:
            raise StarError(f"application {name!r}: expected one of {', '.join(APPLICATIONS)}")
    out = args.out or os.path.join("star-out", "apps-" + str(int(started)))
    os.makedirs(out, exist_ok=True)
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    results = []
    for name in names:
        try:
            results.append(run_app(args, name, dlt, s, os.path.join(out, name), say))
        except StarError as e:  # the others still run; the table says which failed
            print(f"star: {name}: {e}", file=sys.stderr)
            results.append(dict(name=name, error=str(e), runs=[], checks={}, loads=[]))
    failed = sum(r.get("failed", 0) for r in results) + sum(1 for r in results if "error" in r)
    write_json(os.path.join(out, "machine.json"),
               {"apps": names, "failed_runs": failed, "wall_s": round(now() - started, 1),
                "settings": s, "load_average_end": list(os.getloadavg())})
    table = apps_table(results, s, now() - started)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    print(table, end="")
    return 1 if failed else 0


def run_app(args, name, dlt, s, out, say):
    """Calibrates, fits one line, solves M2 at each load, runs and checks it."""
    for folder in (out, os.path.join(out, "requests"), os.path.join(out, "runs")):
        os.makedirs(folder, exist_ok=True)
    command = APPLICATIONS[name][1]
    local = LocalWorkers(args.machines, command, args.timeout)
    star = Star(local.addresses, args.timeout, os.path.join(out, "timings.csv"))
    try:
        star.connect()
        source = Source(args.input, max(s["compute"] + s["link"]) * 2.2, args.seed)
        about = description(star, s["rate"], command, {"apps": {"app": name, "smoke": args.smoke}})
        say(f"apps: {name} on {args.machines} local workers; output in {out}")
        fit = calibrate(star, source, dlt, s, out, s["rate"], command, say, shape="line")
        m2, loads, runs = linear_request(fit, args.machines), app_loads(s["compute"], args.machines), []
        for load in loads:
            request = with_load(m2, load)
            write_json(os.path.join(out, "requests", f"linear-V{load:g}.json"), request)
            plan = split_of(dlt_json(dlt, "solve", request=request))
            for rep in range(s["run_repeat"]):
                run = run_split(star, source, s["rate"], args.machines, "linear", load, rep + 1,
                                (plan[0], plan[2]))
                if run:
                    runs.append(run)
                    say(f"  {name} V={load:g} MB rep {rep + 1}: {run['makespan']:.3f} s "
                        f"(predicted {run['predicted']:.3f} s)")
        checks = check_runs(dlt, out, runs, loads, s["rate"])
        about.update(failed_runs=len(star.failures), load_average_end=list(os.getloadavg()))
        write_json(os.path.join(out, "machine.json"), about)
    finally:
        star.close()
        local.stop()
    machine = about["workers"][0] if about["workers"] else about["originator"]
    return dict(name=name, runs=runs, checks=checks, loads=loads, failed=len(star.failures),
                machine=f"{machine.get('cpu')}, {machine.get('cores')} cores",
                version=machine.get("command_version"))


def apps_table(results, s, wall):
    """[1]'s slides' form: application, machine, error by V; then, for each
    application, its error at the largest V and whether it fell with V."""
    head = ("application", "V_MB", "runs", "measured_s", "predicted_s", "mean_|error|", "[1]")
    rows, lines, every = [], [], []
    for r in results:
        if "error" in r:
            lines.append(f"{r['name']}: failed: {r['error']}")
            continue
        what, _, theirs = APPLICATIONS[r["name"]]
        by_load = []
        for load in r["loads"]:
            at = [(run, r["checks"].get(("linear", run["name"]))) for run in r["runs"]
                  if run["load"] == load]
            errors = [abs(c["error"]) for _, c in at if c]
            every += errors
            if not at:
                continue
            by_load.append((load, sum(errors) / len(errors) if errors else None))
            rows.append((r["name"], f"{load:g}", str(len(at)),
                         f"{sum(run['makespan'] for run, _ in at) / len(at):.3f}",
                         f"{at[0][0]['predicted']:.3f}",
                         f"{by_load[-1][1] * 100:.1f} %" if errors else "-", theirs))
        lines.append(trend(r, what, by_load))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    machines = sorted({f"{r['name']}: {r['machine']} ({r['version'] or 'version unknown'})"
                       for r in results if "machine" in r})
    return "\n".join(
        ["[1] section 2's three applications under linear DLT (M2), each calibrated alone",
         f"link: emulated at {s['rate']:g} MB/s" if s["rate"] else "link: not emulated",
         *[f"machine, {m}" for m in machines], "",
         "  ".join(h.rjust(w) for h, w in zip(head, widths)),
         *["  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in rows], "", *lines,
         f"linear DLT (M2): mean |error| "
         f"{'%.1f %%' % (100 * sum(every) / len(every)) if every else 'n/a'} over {len(every)} runs "
         f"of {len(results)} applications",
         f"wall time: {wall:.0f} s", ""])


def trend(result, what, by_load):
    """One line: the error at the largest V and whether it fell as V grew."""
    known = [(v, e) for v, e in by_load if e is not None]
    if not known:
        return f"{result['name']} ({what}): no run checked"
    (v0, e0), (v1, e1) = known[0], known[-1]
    change = "fell" if e1 < e0 else "did not fall"
    return (f"{result['name']} ({what}): mean |error| {e1 * 100:.1f} % at the largest V "
            f"({v1:g} MB); it {change} from {e0 * 100:.1f} % at V = {v0:g} MB")


def apps_parser(sub):
    a = sub.add_parser("apps", help="[1] section 2's three applications under linear DLT "
                                     "(compress, a SQLite join, grep -c)")
    a.add_argument("--apps", default=",".join(APPLICATIONS),
                   help=f"comma separated, of {', '.join(APPLICATIONS)} (default: all)")
    a.add_argument("--smoke", action="store_true", help="tiny sizes: checks the pipeline")
    a.add_argument("--out", help="the output folder (one sub-folder per application)")
    a.add_argument("--dlt", help="the dlt binary (default: dlt on PATH)")
    a.add_argument("--machines", type=int, default=2, help="local workers (default 2)")
    a.add_argument("--link-MBps", dest="link_MBps", type=float, default=None,
                   help="emulated link rate (default 100, smoke 200; 0: none)")
    a.add_argument("--repeat", type=int, default=None, help="runs per load (default 3, smoke 2)")
    a.add_argument("--input", help="cut chunks from this file (default: random text lines)")
    a.add_argument("--seed", type=int, default=1, help="seed of the generated data")
    a.add_argument("--timeout", type=float, default=3600, help="seconds a worker may stay silent")
    a.add_argument("--noise", choices=["absolute", "relative", "auto"], default="auto",
                   help="the fit's noise model (default auto)")
    a.add_argument("--quiet", action="store_true", help="print the table only")
