"""The harness's tests: `python3 -m unittest discover -s harness/tests -t .`
from the project's root (standard library only; `DLT` names the `dlt` to
check tables with)."""
