"""The calculator: finding `dlt`, asking it, and reading a schedule from
its answer."""

import json
import os
import shutil
import subprocess

from .protocol import StarError


def find_dlt(given):
    """The `dlt` binary: --dlt, else PATH, else this checkout's release build."""
    if given:
        if not (shutil.which(given) or os.path.isfile(given)):
            raise StarError(f"--dlt {given}: no such program")
        return shutil.which(given) or os.path.abspath(given)
    found = shutil.which("dlt")
    if found:
        return found
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "dlt")
    if os.path.isfile(here):
        return os.path.abspath(here)
    raise StarError("dlt not found: build it (cargo build --release --bin dlt), "
                    "put it on PATH, or give --dlt PATH")


def dlt_json(dlt, *args, request=None):
    """Runs `dlt ARGS --compact` (with `request` on standard input) and reads its JSON."""
    argv = [dlt, *args, "--compact"]
    stdin = json.dumps(request) if request is not None else None
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        raise StarError(f"dlt {' '.join(args)}: {out.stderr.strip() or 'failed'}")
    return json.loads(out.stdout)


def split_of(answer):
    """The chunks of a solved request's schedule, [(machine, MB)] in the order
    sent, the machine count, and the predicted makespan."""
    schedule = (answer.get("report") or {}).get("schedule")
    if not schedule or not schedule.get("chunks"):
        raise StarError(f"the answer of model {answer.get('model')!r} has no schedule "
                        "of chunks to run: give a request that computes one schedule")
    chunks = [(int(c["machine"]), float(c["size"])) for c in schedule["chunks"]
              if float(c["size"]) > 0]
    return chunks, int(schedule["machines"]), float(schedule["makespan"])


def with_load(request, load):
    if "load" not in request:
        raise StarError(f"the {request.get('model')} request has no `load` to set: "
                        "give no --loads and solve it as it is")
    changed = dict(request)
    changed["load"] = load
    return changed


def equal_split(load, machines):
    return [(k, load / machines) for k in range(machines)]
