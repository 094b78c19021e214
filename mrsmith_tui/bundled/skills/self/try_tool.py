#!/usr/bin/env python3
"""Try a drop-in tool file the way mrsmith loads and calls it:

    python3 try_tool.py .mrsmith/tools/shout.py '{"text": "hi"}' [--timeout SECONDS]

Reads the file as mrsmith does (bounded, not following a link), checks its contract with the same
reader (`ast`, never importing it), checks the arguments against PARAMETERS, then runs it through
mrsmith's own runner: `python -I -B`, in this folder, with this environment, a timeout and bounded
output. Prints `contract ok: NAME` and the result, or one line per problem; exit 0 when the call
returned a string, 1 otherwise, 2 for a usage mistake.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3].parent))  # the folder holding mrsmith_tui

from mrsmith_tui.tools.dropin.contract import ContractError, read_contract
from mrsmith_tui.tools.dropin.files import FileProblem, read_file
from mrsmith_tui.tools.dropin.runner import run_code

KINDS: dict[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
                                      "array": (list,), "object": (dict,)}


def _type_ok(value: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """The top-level checks mrsmith makes before a call: required names and the properties' types."""
    for key in schema.get("required") or []:
        if key not in value:
            return f"'{key}' is required"
    for key, sub in (schema.get("properties") or {}).items():
        kind = sub.get("type") if isinstance(sub, dict) else None
        if key in value and isinstance(kind, str) and kind in KINDS:
            got = value[key]
            if not isinstance(got, KINDS[kind]) or (kind in ("integer", "number") and isinstance(got, bool)):
                return f"'{key}' must be {kind}, got {type(got).__name__}"
    return None


def main(argv: list[str]) -> int:
    timeout = 60.0
    if "--timeout" in argv:
        at = argv.index("--timeout")
        try:
            timeout = float(argv[at + 1])
        except (IndexError, ValueError):
            print("usage: --timeout SECONDS", file=sys.stderr)
            return 2
        del argv[at:at + 2]
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path = Path(argv[0]).absolute()
    try:
        tool_file = read_file(path.parent, (), path.name)
        contract = read_contract(tool_file.data)
    except (FileProblem, ContractError) as e:
        print(f"not a tool: {path.name}: {e}", file=sys.stderr)
        return 1
    print(f"contract ok: {contract.name}")
    try:
        args = json.loads(argv[1]) if len(argv) == 2 else {}
    except ValueError as e:
        print(f"the arguments are not JSON: {e}", file=sys.stderr)
        return 2
    if not isinstance(args, dict):
        print("the arguments must be a JSON object", file=sys.stderr)
        return 2
    problem = _type_ok(args, contract.parameters)
    if problem:
        print(f"mrsmith would refuse these arguments: {problem}", file=sys.stderr)
        return 1
    outcome = run_code(contract.name, tool_file.path, tool_file.data.decode("utf-8"), args, cwd=Path.cwd(),
                       env=dict(os.environ), timeout=timeout)
    print(outcome.text, file=sys.stdout if outcome.ok else sys.stderr)
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
