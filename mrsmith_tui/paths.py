"""Where things live on disk: the repository's bundled data and the person's config folder."""

from __future__ import annotations

import os
from pathlib import Path

# The bundled themes/ and skills/ folders sit beside the package in the source tree
# (DESIGN.md's layout); the program is installed editable from a clone (`make run`).
REPO_ROOT = Path(__file__).resolve().parent.parent
BUNDLED_THEMES_DIR = REPO_ROOT / "themes"
BUNDLED_SKILLS_DIR = REPO_ROOT / "skills"


def config_dir() -> Path:
    """`~/.config/mrsmith` (XDG_CONFIG_HOME honoured)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mrsmith"


def default_sessions_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mrsmith" / "sessions"
