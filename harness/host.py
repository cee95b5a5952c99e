"""A host's description, as machine.json keeps it for the originator and
every worker."""

import os
import platform
import socket

from .applications import app_version
from .protocol import MB


def describe_host(command):
    return {
        "host": socket.gethostname(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "memory_MB": memory_mb(),
        "command": list(command),
        "command_version": app_version(command),
    }


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) * 1024 / MB)
    except (OSError, ValueError, IndexError):
        pass
    return None
