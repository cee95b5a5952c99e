"""`python3 -m harness ...` from the project's root, or `python3 PATH/harness ...`
from anywhere (the folder copied to a worker host runs the same way)."""

import os
import sys

if not __package__:
    # Run as a folder: its parent on the path makes it the package `harness`.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from harness.cli import main
else:
    from .cli import main

sys.exit(main())
