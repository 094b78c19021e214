"""How a headless run started from the command line ends: at once, without the interpreter's
teardown (start-up and exit time, issue #26).

Once a one-shot has printed its answer and closed its transcript, CPython's own exit still
takes every module apart and frees its objects one by one: ~40-50 ms of CPU when pydantic was
loaded beside httpx (it no longer is), a fifth of a short one-shot. `end(code)` does what that exit has to do — runs
the atexit handlers (the background jobs are stopped there, tools.jobs), flushes stdout and
stderr — and then ends the process with `os._exit(code)`.

Only where that is safe: the program's own run (`main()` with no argv, as the `mrsmith` script
and `python -m mrsmith_tui` call it: a test calling `main([...])` keeps its process), a headless
run that got to its end (`allow()`, after the session closed), and no other non-daemon thread
still running (the ordinary exit would wait for it, so that case takes the ordinary exit).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

_allowed = False


def allow() -> None:
    """The run is over and everything it wrote is closed: the process may end without its teardown."""
    global _allowed
    _allowed = True


def flush_stdout() -> None:
    """Flush stdout while mrsmith still handles the error: a reader that went away (`mrsmith --list |
    head -1`, output still in the buffer) is quiet, as docs/headless.md says. Left to the interpreter's
    exit, the same flush prints "Exception ignored ... BrokenPipeError" and exits 120."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        try:  # point stdout at /dev/null: what is still buffered has nowhere to go, and says nothing
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass
    except (OSError, ValueError, AttributeError):  # a closed or odd stdout: the interpreter's exit copes
        pass


def end(code: int) -> None:
    """End the process now with `code` when allowed (see the module's text); else return."""
    if not _allowed:
        return
    me = threading.current_thread()
    if me is not threading.main_thread() or any(
            t.is_alive() and not t.daemon and t is not me for t in threading.enumerate()):
        return
    atexit._run_exitfuncs()  # what the ordinary exit runs first: the jobs' stop, logging's flush
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a reader gone or a closed stream: nothing more can be said there
            pass
    os._exit(code)
