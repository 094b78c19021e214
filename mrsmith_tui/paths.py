"""Where things live on disk: the bundled data, the person's config folder and mrsmith's own state."""

from __future__ import annotations

import os
from pathlib import Path

# The bundled themes and skills are package data (mrsmith_tui/bundled/), so a wheel carries them
# and an editable install from a clone (`make run`) finds them in the same place.
BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"
BUNDLED_THEMES_DIR = BUNDLED_DIR / "themes"
BUNDLED_SKILLS_DIR = BUNDLED_DIR / "skills"


def config_dir() -> Path:
    """`~/.config/mrsmith` (XDG_CONFIG_HOME honoured)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mrsmith"


def default_sessions_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mrsmith" / "sessions"


def state_dir() -> Path:
    """`~/.local/state/mrsmith` (XDG_STATE_HOME honoured): what mrsmith learns and keeps for itself and the
    person (the context sizes the servers told, which project servers they trusted (security.trust_store),
    the MCP servers' stderr logs), never anything the person wrote."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mrsmith"
