"""The loop's runs checked by `dlt fit --as runs`, and the table it prints."""

import json
import os
import subprocess

from .applications import shown
from .calibration import fitted_noise
from .protocol import StarError
from .tables import link_comment, runs_rows, write_table


def check_runs(dlt, out, runs, loads, rate):
    """Writes each model's runs tables and checks them with `dlt fit --as runs`;
    returns {(split, run name): dlt's check of that run}."""
    checks = {}
    everything = []
    for split in ("hierarchical", "linear", "equal"):
        mine = [r for r in runs if r["split"] == split]
        rows = [row for r in mine for row in runs_rows(r["name"], r["makespan"], r["finishes"], r["load"])]
        everything += [[split] + row for row in rows]
        if split == "equal":
            continue
        for load in loads:
            at = [r for r in mine if r["load"] == load]
            if not at:
                continue
            path = os.path.join(out, "runs", f"{split}-V{load:g}.csv")
            write_table(path, ["run", "machine", "time_s"],
                        [row for r in at for row in runs_rows(r["name"], r["makespan"], r["finishes"])],
                        [link_comment(rate),
                         f"check: dlt fit runs/{split}-V{load:g}.csv --as runs "
                         f"--request requests/{split}-V{load:g}.json"])
            answer = subprocess.run(
                [dlt, "fit", path, "--as", "runs", "--request",
                 os.path.join(out, "requests", f"{split}-V{load:g}.json"), "--compact"],
                capture_output=True, text=True)
            if answer.returncode != 0:
                raise StarError(f"dlt fit {path} --as runs: {answer.stderr.strip()}")
            validity = json.loads(answer.stdout)["report"]["validity"]
            for run in validity["runs"]:
                checks[(split, run["name"])] = run
    write_table(os.path.join(out, "runs.csv"), ["split", "run", "machine", "time_s", "load_MB"],
                everything, [link_comment(rate), "makespan (machine all) and each machine's finish, s"])
    return checks


def loop_table(result, rate, command, wall):
    runs, checks, knee = result["runs"], result["checks"], result["knee"]
    machines = max((len(r["finishes"] or []) for r in runs), default=0)
    lines = [f"application: {shown(command)}",
             link_comment(rate),
             f"fitted knee r = {knee:.1f} MB per worker" if knee else
             "fitted knee: none (the data support one line)",
             fitted_noise(result["fit"]), ""]
    head = ("load_MB", "rep", "M3_split_MB", "measured_s", "M3_pred_s", "M3_err",
            "M2_measured_s", "M2_pred_s", "M2_err", "equal_s", "equal/M3")
    rows = []
    errors = {"hierarchical": [], "linear": [], "linear_past": [], "ratio_past": [],
              "ratio_predicted": []}
    by = {(r["split"], r["name"]): r for r in runs}
    for r in [r for r in runs if r["split"] == "hierarchical"]:
        m3 = checks.get(("hierarchical", r["name"]))
        m2r, m2 = by.get(("linear", r["name"])), checks.get(("linear", r["name"]))
        eq = by.get(("equal", r["name"]))
        past = knee is not None and r["load"] / max(machines, 1) > knee
        if m3:
            errors["hierarchical"].append(abs(m3["error"]))
        if m2:
            errors["linear"].append(abs(m2["error"]))
            if past:
                errors["linear_past"].append(abs(m2["error"]))
        if eq and past:
            errors["ratio_past"].append(eq["makespan"] / r["makespan"])
            if eq.get("predicted") and r.get("predicted"):
                errors["ratio_predicted"].append(eq["predicted"] / r["predicted"])
        rows.append((f"{r['load']:g}", str(r["rep"]), "/".join(f"{c:.1f}" for c in r["chunks"]),
                     f"{r['makespan']:.3f}", pct_or(m3, "predicted", "%.3f"), pct_or(m3, "error"),
                     f"{m2r['makespan']:.3f}" if m2r else "-", pct_or(m2, "predicted", "%.3f"),
                     pct_or(m2, "error"), f"{eq['makespan']:.3f}" if eq else "-",
                     f"{eq['makespan'] / r['makespan']:.3f}" if eq else "-"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    lines += ["  ".join(v.rjust(w) for v, w in zip(row, widths)) for row in rows]
    lines += ["",
              f"two-level model (M3): mean |error| {mean(errors['hierarchical'], 100, '%.1f %%')} "
              f"over {len(errors['hierarchical'])} runs",
              f"linear DLT (M2): mean |error| {mean(errors['linear'], 100, '%.1f %%')} over "
              f"{len(errors['linear'])} runs; past the knee "
              f"{mean(errors['linear_past'], 100, '%.1f %%')} over {len(errors['linear_past'])}",
              f"past the knee, equal split's makespan / M3 split's: mean "
              f"{mean(errors['ratio_past'], 1, '%.3f')} over {len(errors['ratio_past'])} runs; "
              f"M3 predicts {mean(errors['ratio_predicted'], 1, '%.3f')}",
              drift(result), f"wall time of the loop: {wall:.0f} s", ""]
    return "\n".join(lines)


def drift(result):
    """How the runs' parts compared with the fit, a diagnosis of the error:
    each chunk's computing time over its machine's fitted t(x), its link time
    (send start to ack) over S + C x, as means over every chunk of every run."""
    machines = (((result["fit"].get("report") or {}).get("calibration") or {}).get("machines")
                or [{}])
    if not machines[0].get("levels") or machines[0].get("rate") is None:
        return "runs against the fit: n/a"
    compute, link = [], []
    for run in result["runs"]:
        for r in run["records"]:
            k = int(r["machine"][1:]) - 1
            fitted = machines[k] if len(machines) > k and machines[k].get("levels") else machines[0]
            rate, latency = fitted.get("rate") or machines[0]["rate"], fitted.get("latency") or 0.0
            x = r["chunk_MB"]
            compute.append(r["compute_s"] / max(l["intercept"] + l["slope"] * x
                                                for l in fitted["levels"]))
            link.append((r["ack_s"] - r["send_start_s"]) / (latency + rate * x))
    return (f"runs against the fit: computing {mean(compute, 1, '%.3f')} x the fitted time, "
            f"link {mean(link, 1, '%.3f')} x (means over {len(compute)} chunks)")


def mean(values, scale, form):
    return form % (scale * sum(values) / len(values)) if values else "n/a"


def pct_or(check, key, form=None):
    if not check:
        return "-"
    if form:
        return form % check[key]
    return f"{check[key] * 100:+.1f}%"
