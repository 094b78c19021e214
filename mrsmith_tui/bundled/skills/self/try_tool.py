#!/usr/bin/env python3
"""Try a drop-in tool file the way mrsmith loads and calls it:

    python3 try_tool.py .mrsmith/tools/shout.py '{"text": "hi"}' [--timeout SECONDS]

It hands the file to `mrsmith tools try`, which reads it as mrsmith does (bounded, not following a
link), checks its contract with the same reader (`ast`, never importing it) and the arguments against
PARAMETERS, then runs it through mrsmith's own runner: `python -I -B`, in this folder, with the
scrubbed environment, a timeout and bounded output. Prints `contract ok: NAME` and the result, or one
line per problem; exit 0 when the call returned a string, 1 otherwise, 2 for a usage mistake.

Standard library only: it finds mrsmith as `mrsmith` on PATH, else the Python of the environment
mrsmith is installed in (the nearest pyvenv.cfg or .venv above this file), else this Python.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def _mrsmith() -> list[str]:
    found = shutil.which("mrsmith")
    if found:
        return [found]
    here = Path(__file__).resolve()
    for folder in here.parents:
        for python in (folder / "bin" / "python", folder / ".venv" / "bin" / "python"):
            if python.is_file() and ((folder / "pyvenv.cfg").is_file() or python.parent.parent.name == ".venv"):
                return [str(python), "-m", "mrsmith_tui"]
    return [sys.executable, "-m", "mrsmith_tui"]


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        return subprocess.run([*_mrsmith(), "tools", "try", *argv], check=False).returncode
    except OSError as e:
        print(f"cannot start mrsmith: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
