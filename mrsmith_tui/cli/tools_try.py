"""`mrsmith tools try FILE [JSON]`: a tool file checked and called as mrsmith would, before it is loaded.

The same bounded read (not following a link), the same contract reader, the same argument check and
the same runner (child `python -I -B` in this folder, the scrubbed environment, the timeout, bounded
output) as a loaded drop-in tool's call. The person typed it (or approved the shell command that ran
it), so it does not ask. Exit 0 when the call returned text, 1 when the file is no tool or the call
failed, 2 for arguments mrsmith would refuse.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mrsmith_tui.cli.args import UsageError

__all__ = ["try_file"]


def try_file(file: Path, arguments: str, *, timeout: float) -> int:
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.core.argcheck import check_arguments, parse_arguments
    from mrsmith_tui.security.environment import child_environment
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.security.terminal_text import clean
    from mrsmith_tui.tools.dropin.contract import ContractError, read_contract
    from mrsmith_tui.tools.dropin.files import FileProblem, read_file
    from mrsmith_tui.tools.dropin.runner import run_code

    path = file.absolute()
    try:
        tool_file = read_file(path.parent, (), path.name)
        contract = read_contract(tool_file.data)
    except (FileProblem, ContractError) as e:
        print(clean(f"not a tool: {path.name}: {e}"), file=sys.stderr)
        return 1
    print(f"contract ok: {contract.name}", flush=True)
    values, problem = parse_arguments(arguments)
    if values is None:
        raise UsageError(f"tools try {contract.name}: {problem}")
    problem = check_arguments(values, contract.parameters)
    if problem:
        raise UsageError(f"tools try {contract.name}: mrsmith would refuse these arguments: {problem}")
    root = Path.cwd()
    cancel = CancelToken()
    outcome = run_code(contract.name, tool_file.path, tool_file.data.decode("utf-8"), values, cwd=root,
                       env=child_environment(root=root), timeout=timeout, on_cancel=cancel.on_cancel)
    print(clean(PROCESS.redact(outcome.text)), file=sys.stdout if outcome.ok else sys.stderr)
    return 0 if outcome.ok else 1
