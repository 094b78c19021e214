"""The full-screen UI stood in for, for tests of the CLI as composition root: `install(monkeypatch, run_tui)`
puts a module whose `run_tui` is the test's in the place of mrsmith_tui.tui.app, and makes the CLI
believe it runs in a terminal (stdin not piped)."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from mrsmith_tui.cli import command as cli


def install(monkeypatch: Any, run_tui: Callable[..., int]) -> None:
    module = types.ModuleType("mrsmith_tui.tui.app")
    module.run_tui = run_tui  # type: ignore[attr-defined]  # the one name the CLI takes from it
    monkeypatch.setitem(sys.modules, "mrsmith_tui.tui.app", module)
    monkeypatch.setattr(cli, "_stdin_is_piped", lambda: False)
    monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: True)
