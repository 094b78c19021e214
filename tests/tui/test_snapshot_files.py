"""Every stored snapshot belongs to a snapshot test that still exists. In one process syrupy fails the
run on a snapshot no test used; under pytest-xdist (`make test`) it cannot see the whole run and
says nothing, so a renamed or removed test would leave its picture behind for good."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SNAPSHOTS = Path(__file__).with_name("__snapshots__")


def _snapshot_tests(module: Path) -> set[str]:
    """The test functions of a module that take `snap_compare`."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
            and any(arg.arg == "snap_compare" for arg in node.args.args)}


def test_every_snapshot_file_has_its_test():
    files = sorted(SNAPSHOTS.glob("*/*.svg"))
    assert files, f"no snapshot under {SNAPSHOTS}"
    orphans = []
    for svg in files:
        module = SNAPSHOTS.parent / f"{svg.parent.name}.py"
        test = re.sub(r"\[.*\]$", "", svg.stem)  # a parametrized test's pictures are test_name[id].svg
        if not module.is_file() or test not in _snapshot_tests(module):
            orphans.append(str(svg.relative_to(SNAPSHOTS)))
    assert orphans == [], "snapshots of no test (delete them, or run the test with --snapshot-update)"
