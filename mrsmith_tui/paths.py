"""Where things live on disk: the bundled data, the person's config folder and mrsmith's own state."""

from __future__ import annotations

import os
from pathlib import Path

# The bundled themes and skills are package data (mrsmith_tui/bundled/), so a wheel carries them
# and an editable install from a clone (`make run`) finds them in the same place.
BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"
BUNDLED_THEMES_DIR = BUNDLED_DIR / "themes"
BUNDLED_SKILLS_DIR = BUNDLED_DIR / "skills"


def _xdg(name: str, *default: str) -> Path:
    """$name when it is an absolute path, else ~/default…. The XDG spec says a relative one is invalid and
    ignored: honoured, XDG_CONFIG_HOME=.config made a cloned repository's .config/mrsmith the person's own
    config, tools (run without a trust prompt) and commands."""
    value = os.environ.get(name) or ""
    return Path(value) if os.path.isabs(value) else Path.home().joinpath(*default)


def config_dir() -> Path:
    """`~/.config/mrsmith` (XDG_CONFIG_HOME honoured)."""
    return _xdg("XDG_CONFIG_HOME", ".config") / "mrsmith"


def default_sessions_dir() -> Path:
    return _xdg("XDG_DATA_HOME", ".local", "share") / "mrsmith" / "sessions"


def state_dir() -> Path:
    """`~/.local/state/mrsmith` (XDG_STATE_HOME honoured): what mrsmith learns and keeps for itself and the
    person (the context sizes the servers told, which project servers they trusted (security.trust_store),
    the MCP servers' stderr logs), never anything the person wrote."""
    return _xdg("XDG_STATE_HOME", ".local", "state") / "mrsmith"
