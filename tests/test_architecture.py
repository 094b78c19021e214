"""The one-way dependency rule of DESIGN.md, read from the imports.

The rule itself lives in one place, the import-linter contracts in pyproject.toml
(`[tool.importlinter]`); `make lint` runs them as `lint-imports`. This test runs the same
contracts, so that a plain `pytest` run catches an upward or sideways import too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "mrsmith_tui"


def test_the_import_contracts_hold():
    # The contracts' report (which import breaks which rule) is on stdout, shown when this fails.
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_bundled_scripts_import_nothing_of_the_package():
    # A skill's script runs on its own from the skill's folder; import-linter does not see it
    # (bundled/ is data, not a package), so it is checked here.
    for path in (PKG / "bundled").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["mrsmith_tui"]
            else:
                continue
            assert not any(name.split(".")[0] == "mrsmith_tui" for name in names), path


def test_no_module_of_the_tools_layer_imports_one_that_imports_it_back():
    # tools.base <-> tools.services was such a circle (hidden under TYPE_CHECKING); none may come back.
    import grimp

    graph = grimp.build_graph("mrsmith_tui", include_external_packages=False)
    tools = sorted(m for m in graph.modules if m.startswith("mrsmith_tui.tools"))
    circles = [(a, b) for a in tools for b in graph.find_modules_directly_imported_by(a)
               if b.startswith("mrsmith_tui.tools") and graph.find_shortest_chain(importer=b, imported=a) is not None]
    assert circles == []
