"""Workers started on this machine, each a process of its own."""

import os
import shutil
import subprocess
import sys

from .applications import program_of
from .protocol import StarError

# This package's folder: `python3 FOLDER worker ...` runs its __main__.py.
PACKAGE = os.path.dirname(os.path.abspath(__file__))


class LocalWorkers:
    """Workers started on this machine, stopped on exit."""

    def __init__(self, count, command, timeout):
        self.procs = []
        self.addresses = []
        program = program_of(command)
        if not program or not shutil.which(program):
            raise StarError(f"command not found: {program or ' '.join(command)}")
        for _ in range(count):
            proc = subprocess.Popen(
                [sys.executable, PACKAGE, "worker", "--listen",
                 "127.0.0.1:0", "--", *command],
                stdout=subprocess.PIPE, text=True,
                # A session of its own: Linux's autogroup scheduler then shares
                # the cores between the workers as between separate hosts, not
                # one share among all of them (which halves each worker's speed
                # in a run against its speed when measured alone).
                start_new_session=True)
            self.procs.append(proc)
            line = proc.stdout.readline()
            if not line.startswith("star worker listening on "):
                self.stop()
                raise StarError("a local worker did not start")
            self.addresses.append(line.rsplit(" ", 1)[1].strip())

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            if proc.stdout:
                proc.stdout.close()
        self.procs = []
