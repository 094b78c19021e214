"""The one-way dependency rule of DESIGN.md, read from the imports."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "mrsmith_tui"

# layer -> the layers it may import (besides itself and the base modules)
BASE = {"msgs", "history", "errors", "cancel", "paths", "__init__", "__main__"}
ALLOWED = {
    "security": set(),
    "bundled": set(),  # data (skills, themes); its scripts import nothing of the package
    "config": set(),
    "provider": {"config", "security"},
    "session": {"config", "security"},
    "skills": {"config", "security"},
    "tools": {"config", "security"},
    "mcp": {"security", "config", "tools"},
    "core": {"security", "config", "provider", "session", "skills", "tools", "mcp"},
    "agents": {"security", "config", "provider", "session", "skills", "tools", "core", "mcp"},
    "headless": {"security", "config", "provider", "session", "skills", "tools", "core", "agents", "mcp"},
    "tui": {"security", "config", "provider", "session", "skills", "tools", "core", "agents", "mcp"},
    "cli": {"security", "config", "provider", "session", "skills", "tools", "core", "agents", "mcp", "headless", "tui"},
}


def layer_of(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def imported_layers(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "mrsmith_tui" and len(parts) > 1:
                found.add(parts[1])
    return found


def test_no_upward_imports():
    bad = []
    for path in PKG.rglob("*.py"):
        layer = layer_of(path)
        if layer in BASE:
            allowed_for_base = set()
            extra = imported_layers(path) - BASE - allowed_for_base
            if layer in {"__main__"}:
                extra -= {"cli"}
            if extra:
                bad.append(f"{path.relative_to(PKG)} imports {sorted(extra)}")
            continue
        allowed = ALLOWED.get(layer)
        assert allowed is not None, f"unknown layer {layer!r}: add it to ALLOWED"
        extra = imported_layers(path) - BASE - allowed - {layer}
        if extra:
            bad.append(f"{path.relative_to(PKG)} ({layer}) imports {sorted(extra)}")
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_core_never_imports_textual():
    for path in PKG.rglob("*.py"):
        if layer_of(path) in {"tui", "cli"}:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "textual" for a in node.names), path
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "textual", path
