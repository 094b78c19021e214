"""The theme the person chose with /theme, kept for the next start: one name in a private file
beside the prompt history. A `--theme` flag or the config's `theme` wins over it."""

from __future__ import annotations

import os
import re
from pathlib import Path

from mrsmith_tui import paths
from mrsmith_tui.security.private_files import open_private, private_dir

_NAME = re.compile(r"[\w.+-]{1,64}")


def default_theme_path() -> Path:
    return paths.config_dir() / "theme"


def load_theme(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        name = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    return name if _NAME.fullmatch(name) else None


def save_theme(path: Path | None, name: str) -> None:
    if path is None or not _NAME.fullmatch(name):
        return
    try:
        private_dir(path.parent)
        tmp = path.with_suffix(".tmp")
        with os.fdopen(open_private(tmp, os.O_WRONLY | os.O_TRUNC), "w", encoding="utf-8") as f:
            f.write(name + "\n")
        tmp.replace(path)
    except OSError:
        pass  # a convenience: never break the session for it
