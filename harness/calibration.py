"""The loop's calibration (the link and the computation, each measured
apart from any run) and what its fit says."""

import os

from .applications import shown
from .dlt import dlt_json
from .modes import measure_compute, measure_link
from .protocol import StarError
from .tables import link_comment, write_json, write_table


def calibrate(star, source, dlt, s, out, rate, command, say, shape="auto"):
    """The link and computing tables, measured apart from any run, and their
    fit (`shape` "line": one level, for an application with no memory spill)."""
    say(f"measuring the link ({len(s['link'])} sizes x {s['repeat']})")
    link = measure_link(star, source, s["link"], s["repeat"], rate, 1)
    each, together = s.get("each", False), s.get("together", False)
    say(f"measuring the computation ({len(s['compute'])} sizes x {s['repeat']}, "
        + ("every worker at once)" if together else "each worker alone)" if each
           else "one worker alone)"))
    comp = measure_compute(star, source, s["compute"], s["repeat"], 2, each, together)
    if len(link) < 3 or len(comp) < 3:
        raise StarError("too few measurements survived to fit (see timings.csv)")
    link_csv = write_table(os.path.join(out, "link.csv"), ["size_MB", "time_s"], link,
                           [link_comment(rate),
                            "time: from the send's start to the arrival of the receiver's ack"])
    comp_csv = write_table(os.path.join(out, "compute.csv"),
                           (["machine"] if each else []) + ["size_MB", "time_s"], comp,
                           [f"command: {shown(command)}" + (" (P1's; see machine.json)" if each else ""),
                            "time: the command's run, input piped from memory, "
                            + ("every worker computing at once" if together
                               else "the worker alone"),
                            link_comment(rate) + "; chunks here are sent unpaced and not timed"])
    fit_request = {"model": "fit", "transfers": {"csv": link_csv},
                   "computation": {"csv": comp_csv}, "shape": shape,
                   "noise": s["noise"]}
    fit = dlt_json(dlt, "solve", request=fit_request)
    if shape == "auto" and not convex(fit):
        # M3 needs every level slower than the one above; a knee whose second
        # line is flatter is no memory spill, so M3 gets the one line.
        say("the two-level fit is not convex (no memory spill seen): M3 gets one line")
        write_json(os.path.join(out, "fit-auto.json"), fit)
        fit_request["shape"] = "line"
        fit = dlt_json(dlt, "solve", request=fit_request)
    write_json(os.path.join(out, "fit-request.json"), fit_request)
    write_json(os.path.join(out, "fit.json"), fit)
    return fit


def convex(fit):
    """False when the fit kept two levels whose second line is not steeper."""
    for entry in (fit.get("report") or {}).get("computation") or []:
        if entry.get("shape") == "two-level" and not (entry.get("knee") or {}).get("convex"):
            return False
    return True


def fitted_knee(fit):
    """The knee r (MB) of the computing fit when it kept two levels (with a
    fit per machine, the mean of their knees), else None."""
    knees = []
    for entry in (fit.get("report") or {}).get("computation") or []:
        r = ((entry.get("knee") or {}).get("r") or {}).get("value")
        if entry.get("shape") == "two-level" and r:
            knees.append(r)
    return sum(knees) / len(knees) if knees else None


def fitted_noise(fit):
    """The noise model the computing and link fits assumed, in words."""
    report = fit.get("report") or {}
    words = [f"{what} {entries[0].get('noise', 'absolute')}"
             for what, entries in (("computing", report.get("computation")),
                                   ("link", report.get("transfers"))) if entries]
    return "noise fitted: " + (", ".join(words) or "n/a")
