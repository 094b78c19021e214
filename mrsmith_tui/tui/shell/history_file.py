"""The prompt history on disk: one JSON string a line, private (0600), redacted, capped."""

from __future__ import annotations

import json
import os
from pathlib import Path

from mrsmith_tui import paths
from mrsmith_tui.security.private_files import open_private, private_dir
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tui.model import HISTORY_CAP


def default_history_path() -> Path:
    return paths.config_dir() / "history"


def load_history(path: Path | None) -> tuple[str, ...]:
    if path is None or not path.is_file():
        return ()
    out: list[str] = []
    try:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                entry = line
            if isinstance(entry, str) and entry.strip():
                out.append(entry)
    except OSError:
        return ()
    return tuple(out[-HISTORY_CAP:])


def append_history(path: Path | None, entry: str, kept: tuple[str, ...]) -> None:
    """One JSON string a line; rewritten (whole, then renamed) when it grows past twice the cap."""
    if path is None:
        return
    try:
        private_dir(path.parent)  # ~/.config/mrsmith 0700, the history 0600: prompts can hold anything
        with os.fdopen(open_private(path, os.O_WRONLY | os.O_APPEND), "a", encoding="utf-8") as f:
            f.write(json.dumps(PROCESS.redact(entry)) + "\n")
        if path.stat().st_size > 400_000 or sum(1 for _ in path.open(encoding="utf-8")) > 2 * HISTORY_CAP:
            tmp = path.with_suffix(".tmp")
            with os.fdopen(open_private(tmp, os.O_WRONLY | os.O_TRUNC), "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(PROCESS.redact(e)) + "\n" for e in kept[-HISTORY_CAP:]))
            tmp.replace(path)
    except OSError:
        pass  # history is a convenience; never break the session for it
