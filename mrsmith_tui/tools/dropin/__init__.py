"""Drop-in tools: a Python file defining NAME, DESCRIPTION, PARAMETERS and `run(args) -> str` becomes a tool.

    files.py     bounded, race-free reads of the tool folders (O_NOFOLLOW, regular files only)
    contract.py  the contract read with `ast`, never by importing the file (one line for any problem)
    child.py     the child side of a call (stdlib only; `python -I -B child.py`)
    runner.py    one call in a subprocess: scrubbed environment, timeout, bounded output
    tool.py      the Tool adapter (always asks unless allowed; spec: the tool's name)
    trust.py     the trust prompt for a project tool (the whole code, or no prompt)
    service.py   the session's drop-in tools: found lazily, trusted, reloaded, listed

Nothing is imported here. files, contract, runner and child use the standard library only (`mrsmith
tools try`, which the bundled `self` skill's try_tool.py calls, runs a file not loaded yet through them).
"""
