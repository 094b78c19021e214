"""mrsmith_tui: a full-screen terminal coding agent for any OpenAI-compatible endpoint."""
from __future__ import annotations

__version__ = "0.1.0"

from mrsmith_tui import lean_imports  # before anything imports httpx or builds a model

lean_imports.trim()
