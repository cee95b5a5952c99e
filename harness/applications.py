"""The applications a worker runs: the loop's defaults (SQLite, GNU sort)
and what is said about any command (its program, its version, as a shell
shows it)."""

import os
import shlex
import shutil
import subprocess

from .protocol import StarError


APPS = ("sqlite", "sort")


# Each application's memory when --budget is not given.
DEFAULT_BUDGET = {"sqlite": "8M", "sort": "16M"}


def default_command(budget=None, spill="gzip", app="sqlite"):
    """The default application, with `budget` (`16M`, `512K`; None: its
    default) as its memory.

    `sqlite`: SQLite loads every line into an indexed table of a temporary
    on-disk database whose page cache holds `budget`. While the table and
    its index fit in the cache, an insert is a search in memory; past it,
    the index pages a random insert needs are evicted and read back from
    the file, so only the part beyond the cache is slow: the cost grows
    with the excess, as `[3]`'s swapping does.

    `sort`: GNU sort with `-S budget`: past it, sort spills sorted runs to
    temporary files and merges them, so its time jumps at the budget (the
    whole input goes through the spill). With `spill` (a compressor,
    default gzip) the spilled runs are compressed: where temporary files
    sit in the page cache, as on a machine with RAM to spare, an
    uncompressed spill costs next to nothing and no second level shows."""
    if budget is None:
        budget = DEFAULT_BUDGET[app]
    if app == "sqlite":
        kib = max(1, round(parse_bytes(budget) / 1024))
        return ["sqlite3", "-batch", "",  # "": a temporary database on disk
                f"PRAGMA cache_size=-{kib};",  # negative: KiB
                "CREATE TABLE t(line TEXT);", "CREATE INDEX t_line ON t(line);",
                # One line a row, whatever it holds (no quoting, no columns).
                ".mode ascii", '.separator "\\037" "\\n"', ".import /dev/stdin t"]
    parse_bytes(budget, percent=True)  # refused here rather than by every run
    command = ["env", "LC_ALL=C", "sort", "--parallel=1", "-S", budget]
    if spill and spill != "none":
        command.append(f"--compress-program={spill}")
    return command


def parse_bytes(text, percent=False):
    """A budget in sort's -S units: `16M`, `512K`, `1G`, `100b` (bytes) or a
    bare number (KiB, as sort takes it); `10%` of the memory when `percent`
    (sort only). Returns bytes, or None for a percentage."""
    units = {"B": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}
    text = text.strip()
    suffix = text[-1:].upper()
    number, unit = (text[:-1], suffix) if suffix in units or suffix == "%" else (text, "K")
    try:
        value = float(number)
    except ValueError:
        value = 0.0
    if unit == "%" and percent and 0 < value <= 100:
        return None
    if unit == "%" or not 0 < value < float("inf"):
        forms = "16M, 512K or 10%" if percent else "16M or 512K"
        raise StarError(f"budget {text!r}: expected a size such as {forms}")
    return value * units[unit]


def shown(command):
    """A command as a shell would take it (an empty argument shown as '')."""
    return shlex.join(command)


def strip_dashes(words):
    return list(words[1:] if words[:1] == ["--"] else words)


def program_of(command):
    """The program a command runs, skipping `env` and its VAR=value words."""
    words = list(command)
    if words and os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if "=" not in w or w.startswith("-")]
        words = [w for w in words if not w.startswith("-")]
    return words[0] if words else None


def app_version(command):
    """The first line of `PROGRAM --version`, else of `PROGRAM -V` (ncompress
    knows only that one), if it has either."""
    program = program_of(command)
    if not program or not shutil.which(program):
        return None
    for flag in ("--version", "-V"):
        try:
            out = subprocess.run([program, flag], capture_output=True, timeout=10,
                                 stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return None
        lines = (out.stdout or out.stderr).decode(errors="replace").splitlines()
        if out.returncode == 0 and lines:
            return lines[0].strip()
    return None
