"""The TUI's own floors: model, then update (and the command registry it reads), then views, screens
and the shell. The model and update import no Textual, views read the model only."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "mrsmith_tui" / "tui"


def imports(path: Path, *, top_level_only: bool = False) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def tui_parts(names: set[str]) -> set[str]:
    """mrsmith_tui.tui.update.stream -> "update"; mrsmith_tui.tui.app -> "app"."""
    return {n.split(".")[2] for n in names if n.startswith("mrsmith_tui.tui.")}


def modules(package: str) -> list[Path]:
    found = sorted((TUI / package).glob("*.py"))
    assert found, package
    return found


def test_the_model_imports_nothing_above_it_and_no_textual():
    for path in modules("model"):
        names = imports(path)
        assert tui_parts(names) <= {"model"}, path
        assert not any(n.split(".")[0] in ("textual", "rich") for n in names), path


def test_update_imports_the_model_and_the_registry_only_and_no_textual():
    for path in modules("update"):
        names = imports(path)
        assert tui_parts(names) <= {"model", "update", "commands"}, path
        assert not any(n.split(".")[0] in ("textual", "rich") for n in names), path


def test_commands_load_without_textual_or_the_shell():
    """Their run methods may reach screens and the session's modules when called; loading them (which
    update does) brings in the model and the registry only."""
    for path in modules("commands"):
        names = imports(path, top_level_only=True)
        assert tui_parts(names) <= {"model", "commands"}, path
        assert not any(n.split(".")[0] == "textual" for n in names), path


def test_views_read_the_model_only():
    for path in modules("view"):
        assert tui_parts(imports(path)) <= {"model", "view"}, path


def test_screens_and_views_never_reach_into_the_shell_or_the_app():
    for package in ("view", "screens", "model", "update", "commands"):
        for path in modules(package):
            assert not tui_parts(imports(path)) & {"shell", "app"}, path


def test_no_tui_module_is_over_400_lines():
    long = [f"{p.relative_to(TUI)}: {n}" for p in TUI.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400]
    assert not long, long
