"""The child side of one drop-in tool call: `python -I -B child.py`, the request as JSON on stdin.

Standard library only, and never imported by mrsmith: it runs in the child process. The request is
{"path": ..., "code": ..., "args": {...}}: the code is the exact text mrsmith read and checked (the
file is not read again here). The tool's own prints go to stderr (fd 1 is pointed there), so stdout
carries one JSON object only: {"result": "..."} or {"error": "...", "trace": "..."}.
"""
from __future__ import annotations

import json
import os
import sys
import traceback
import types


def _said(e: BaseException) -> str:
    try:
        text = str(e)
    except Exception:  # a value too big to print (int digits), a broken __str__
        text = ""
    text = text[:2000]
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def main() -> int:
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="backslashreplace")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        request = json.loads(sys.stdin.buffer.read())
        path, code, args = request["path"], request["code"], request["args"]
    except Exception as e:
        out.write(json.dumps({"error": f"mrsmith sent a bad request: {_said(e)}", "trace": ""}))
        return 2
    sys.stdin = open(os.devnull)  # noqa: SIM115 - the tool reads nothing from mrsmith
    module = types.ModuleType("dropin_tool")  # a module of its own: dataclasses, pickle and typing find it
    module.__file__ = path
    sys.modules[module.__name__] = module
    try:
        exec(compile(code, path, "exec"), module.__dict__)  # the file's code, as trusted
        result = module.run(args)
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: every end is reported
        try:
            e.__traceback__ = e.__traceback__.tb_next if e.__traceback__ is not None else None  # not this file's frame
            trace = "".join(traceback.format_exception(e, limit=-8))[-4000:]
        except Exception:
            trace = ""
        out.write(json.dumps({"error": _said(e), "trace": trace}))
        out.flush()
        return 1
    if not isinstance(result, str):
        out.write(json.dumps({"error": f"run() returned {type(result).__name__}, not str", "trace": ""}))
        out.flush()
        return 1
    out.write(json.dumps({"result": result}))
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
