"""Ctrl-G: the prompt in the person's own editor ($VISUAL, else $EDITOR; `code --wait` works: the
value is split like a shell would). The app is suspended while the editor has the terminal; the
text comes back as an EditorClosed Msg. The file is private (mkstemp: 0600) and removed after.
A missing or failing editor is one line above the prompt; the prompt is then unchanged.

Where the app cannot give the terminal away (tests, a web driver), the editor runs without it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from typing import TYPE_CHECKING, Any

from mrsmith_tui.tui import model as ui

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost

MAX_BYTES = 1024 * 1024  # of the edited text taken back
UNATTENDED_SECONDS = 120  # an editor run without the terminal (no person can reach it) is stopped after this


def _editor() -> tuple[list[str], str] | str:
    """(argv, the variable it came from), or the line saying what is wrong."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                argv = shlex.split(value)
            except ValueError as e:
                return f"${name} ({value!r}) cannot be split into a command: {e}"
            return (argv, name) if argv else f"${name} is empty"
    return "Ctrl-G: set $VISUAL or $EDITOR to edit the prompt in your editor"


def open_editor(app: AppHost, text: str) -> None:
    found = _editor()
    if isinstance(found, str):
        app.ui(ui.EditorClosed, problem=found)
        return
    argv, name = found
    fd, path = tempfile.mkstemp(prefix="mrsmith-prompt-", suffix=".md")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        problem = _run(app, [*argv, path], name)
        if problem:
            app.ui(ui.EditorClosed, problem=problem)
            return
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            app.ui(ui.EditorClosed, problem=f"the edited prompt is over {MAX_BYTES // 1024} KiB; the prompt is unchanged")
            return
        edited = data.decode("utf-8", "replace")
        app.ui(ui.EditorClosed, text=edited[:-1] if edited.endswith("\n") else edited)  # editors end the last line
    except OSError as e:
        app.ui(ui.EditorClosed, problem=f"Ctrl-G: {e.strerror or e}; the prompt is unchanged")
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def _run(app: AppHost, argv: list[str], name: str) -> str:
    """Run the editor to its end; "" when it succeeded, else the line to show."""
    from textual.app import SuspendNotSupported

    not_found = f"editor {argv[0]!r} (${name}) was not found; the prompt is unchanged"
    if shutil.which(argv[0]) is None:  # found out before the terminal is given away
        return not_found
    failed = ""
    code = 0

    def run(**unattended: Any) -> None:
        nonlocal code, failed
        try:
            code = subprocess.run(argv, check=False, **unattended).returncode
        except FileNotFoundError:
            failed = not_found
        except (OSError, subprocess.SubprocessError) as e:
            failed = f"editor {argv[0]!r} (${name}) did not run: {e}; the prompt is unchanged"
        except KeyboardInterrupt:  # Ctrl-C in the terminal while suspended is a real SIGINT
            failed = f"editor {argv[0]!r} (${name}) was interrupted; the prompt is unchanged"

    try:
        # Textual's suspend resumes only when its block ends without raising: nothing may escape it
        with app.suspend():
            run()
    except SuspendNotSupported:
        run(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=UNATTENDED_SECONDS)
    if failed:
        return failed
    if code != 0:
        return f"editor {argv[0]!r} exited with {code}; the prompt is unchanged"
    return ""
