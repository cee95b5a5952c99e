"""M5's optimal schedule run for real (the end of `installments`): its
machine start-up `S` fitted from the per-chunk fixed cost, the intercept
of a line with intercept through the computing table (each chunk starts
the application anew: a process, an empty database).

M5 counts that cost once per machine, where every chunk pays it here: the
runs say how much that leaves out. Its other parameters are the fit's
(`a1`, `a2`, `b2`, the link's `C`, its intercept as the per-message `O`).
"""

import os

from .dlt import dlt_json, split_of
from .originator import finish_times
from .protocol import StarError
from .tables import write_json

CHUNKS = 6  # at most this many chunks (M5 allows fewer): three rounds of two workers
MAX_SECONDS = 20  # the search's limit; the answer says its proven gap


def fixed_cost(dlt, out):
    """The intercept (s) of a line with intercept through compute.csv."""
    with open(os.path.join(out, "compute.csv")) as f:
        table = f.read()
    fit = dlt_json(dlt, "solve", request={"model": "fit", "computation": {"csv": table},
                                          "shape": "line-intercept"})
    machines = ((fit.get("report") or {}).get("calibration") or {}).get("machines") or []
    levels = machines[0].get("levels") if machines else None
    if not levels:
        raise StarError("the line-intercept fit of the computing table gave no line")
    write_json(os.path.join(out, "fit-intercept.json"), fit)
    return max(0.0, levels[0]["intercept"])


def startup_runs(star, source, dlt, s, fit, machines, loads, out, say):
    """Rows [V, None, chunks, measured, predicted, "M5"], one run per load."""
    m5 = dict(fit["report"]["requests"]["startup"])
    m5.update(machines=machines, chunks=CHUNKS, exactly=False, max_seconds=MAX_SECONDS,
              startup=fixed_cost(dlt, out))
    say(f"M5: start-up S = {m5['startup'] * 1e3:.1f} ms (the per-chunk fixed cost)")
    rows = []
    for load in loads:
        request = dict(m5, load=load)
        write_json(os.path.join(out, "requests", f"startup-V{load:g}.json"), request)
        chunks, _, predicted = split_of(dlt_json(dlt, "solve", request=request))
        # The machines are up when the run starts: M5's start-up is the first
        # chunk's fixed cost, which the run pays as it computes.
        records = star.run(f"startup-V{load:g}", "M5", load, chunks, source, s["rate"])
        if records:
            makespan = finish_times(records, machines)[1]
            rows.append([load, None, len(chunks), makespan, predicted, "M5"])
            say(f"  M5 V={load:g}: {len(chunks)} chunks, {makespan:.3f} s "
                f"(predicted {predicted:.3f} s)")
    return rows
