"""Run under `mpirun -n 3` by test_mpi.py: CASE's runs on ranks 1 and 2,
whose command behaves as CASE says on rank 2; rank 0 writes the timings
and the failures to OUT (timings.csv, failures.json).

    mpirun -n 3 /usr/bin/python3 -m harness.tests.mpi_driver CASE OUT
"""

import contextlib
import io
import json
import os
import sys

from harness import mpi
from harness.mpi_originator import finish, ranks
from harness.data import Source
from harness.mpi_worker import serve
from harness.originator import Star

# Each case's command; Open MPI gives every rank its number in the environment.
ON_RANK_2 = 'cat > /dev/null; [ "$OMPI_COMM_WORLD_RANK" != 2 ] || {}'
CASES = {
    "fails": ON_RANK_2.format("{ echo boom >&2; exit 3; }"),
    "dies": ON_RANK_2.format("kill -9 $PPID"),
}
TIMEOUT = 3.0


def main(case, out):
    command = ["sh", "-c", CASES[case]]
    if mpi.this_rank() > 0:
        return serve(command, TIMEOUT)
    star = Star([], TIMEOUT, os.path.join(out, "timings.csv"), workers=ranks(TIMEOUT))
    source = Source(None, 1.0)
    plans = [("a", [(0, 0.1)]), ("b", [(0, 0.1), (1, 0.1)]), ("c", [(0, 0.1)]), ("d", [(1, 0.1)])]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        ok = [star.run(name, "model", 0.2, chunks, source, None) is not None
              for name, chunks in plans]
    star.close()
    with open(os.path.join(out, "failures.json"), "w") as f:
        json.dump({"ok": ok, "failures": star.failures, "stderr": err.getvalue()}, f)
    return finish(1 if star.failures else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
