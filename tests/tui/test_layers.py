"""The TUI's own floors. Which room may import which (the model, update, views, the shell) are
import-linter contracts in pyproject.toml (`tui-*`), run by `make lint` and tests/test_architecture.py.

Two rules import-linter cannot express stay here: it sees an import inside a function the same as
one at the top of a module, so "loading the commands brings in no Textual" (a command's `run` may
import its screen when called) is read from the modules' top level; and the module size budget."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "mrsmith_tui" / "tui"


def top_level_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def tui_parts(names: set[str]) -> set[str]:
    """mrsmith_tui.tui.update.stream -> "update"; mrsmith_tui.tui.app -> "app"."""
    return {n.split(".")[2] for n in names if n.startswith("mrsmith_tui.tui.")}


def test_commands_load_without_textual_or_the_shell():
    """Their run methods may reach screens and the session's modules when called; loading them (which
    update does) brings in the model and the registry only."""
    found = sorted((TUI / "commands").glob("*.py"))
    assert found
    for path in found:
        names = top_level_imports(path)
        assert tui_parts(names) <= {"model", "commands"}, path
        assert not any(n.split(".")[0] == "textual" for n in names), path


def test_no_tui_module_is_over_400_lines():
    long = [f"{p.relative_to(TUI)}: {n}" for p in TUI.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400]
    assert not long, long
