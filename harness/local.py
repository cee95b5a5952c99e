"""Workers started on this machine, each a process of its own."""

import os
import shutil
import subprocess
import sys

from . import cgroup
from .applications import program_of
from .protocol import StarError

# This package's folder: `python3 FOLDER worker ...` runs its __main__.py.
PACKAGE = os.path.dirname(os.path.abspath(__file__))


class LocalWorkers:
    """Workers started on this machine, stopped on exit. `commands` gives
    each worker a command of its own (e.g. its own memory), `quotas` each a
    share of one core (cgroup.py; None: no limit); `links` (netns.Links)
    puts each worker in its network namespace, listening on its address."""

    def __init__(self, count, command, timeout, commands=None, quotas=None, links=None):
        self.procs = []
        self.addresses = []
        self.cgroups = []
        self.links = links  # removed by stop()
        commands = commands or [command] * count
        for command in commands:
            program = program_of(command)
            if not program or not shutil.which(program):
                self.stop()  # the links, if any, go
                raise StarError(f"command not found: {program or ' '.join(command)}")
        for k, command in enumerate(commands):
            prefix, listen = (links.prefix(k), links.addresses[k]) if links else ([], "127.0.0.1")
            proc = subprocess.Popen(
                [*prefix, sys.executable, PACKAGE, "worker", "--listen",
                 f"{listen}:0", "--", *command],
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
            if quotas and quotas[k] is not None:
                try:
                    self.cgroups.append(cgroup.limit(proc.pid, quotas[k],
                                                     f"dlt-worker-{os.getpid()}-{k + 1}"))
                except StarError:
                    self.stop()
                    raise

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
        for folder in self.cgroups:
            cgroup.release(folder)
        self.cgroups = []
        if self.links:
            self.links.remove()
            self.links = None
