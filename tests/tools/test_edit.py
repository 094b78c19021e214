"""edit: exact, indentation-only, ambiguous, multi-edit rollback, CRLF, trailing newline, ledger."""

from __future__ import annotations

from pathlib import Path

import pytest

from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.edit_match import EditError, apply_edit
from mrsmith_tui.tools.read_file import ReadFileTool

SRC = "def f():\n    if x:\n        return 1\n    return 2\n"


@pytest.mark.parametrize(
    ("buffer", "old", "new", "replace_all", "expected"),
    [
        ("a b c", "b", "B", False, "a B c"),
        ("a b b", "b", "B", True, "a B B"),
        # indentation differs: matched ignoring it, `new` re-indented to the file's
        (SRC, "if x:\n    return 1", "if y:\n    return 3", False, "def f():\n    if y:\n        return 3\n    return 2\n"),
        (SRC, "  return 1  ", "return 9", False, "def f():\n    if x:\n        return 9\n    return 2\n"),
        ("\tx = 1\n\ty = 2\n", "x = 1\ny = 2\n", "z = 3\n", False, "\tz = 3\n"),
        ("keep\ndrop\nkeep2\n", "drop\n", "", False, "keep\nkeep2\n"),
    ],
)
def test_apply_edit(buffer, old, new, replace_all, expected) -> None:
    assert apply_edit(buffer, old, new, replace_all) == expected


@pytest.mark.parametrize(
    ("buffer", "old", "fragment"),
    [
        ("x = 1\ny\nx = 1\n", "x = 1", "lines 1, 3"),
        ("  a\nb\n    a\n", "a", "lines 1, 3"),  # exact substring twice
        ("  foo()\n\tfoo()\n", "foo() ", "ignoring indentation (lines 1, 2)"),
        ("abc\n", "zzz", "not found"),
        ("abc\n", "", "empty"),
        ("abc\n", "abc", "nothing would change"),
    ],
)
def test_apply_edit_refusals(buffer, old, fragment) -> None:
    with pytest.raises(EditError) as info:
        apply_edit(buffer, old, "abc" if old == "abc" else "NEW")
    assert fragment in str(info.value)
    if "lines" in fragment:
        assert "replace_all" in str(info.value) and "surrounding lines" in str(info.value)


def test_edit_tool_exact_with_diff(ctx, root: Path) -> None:
    (root / "m.py").write_text(SRC)
    need = EditTool().approval({"path": "m.py", "old": "return 2", "new": "return 4"}, ctx)
    assert need.spec == "edit" and "+    return 4" in need.diff
    r = EditTool().run({"path": "m.py", "old": "return 2", "new": "return 4"}, ctx)
    assert r.ok and (root / "m.py").read_text().endswith("    return 4\n") and "-    return 2" in r.diff


def test_multi_edit_is_all_or_none(ctx, root: Path) -> None:
    f = root / "m.py"
    f.write_text(SRC)
    r = EditTool().run({"path": "m.py", "edits": [{"old": "return 1", "new": "return 5"},
                                                  {"old": "missing", "new": "x"}]}, ctx)
    assert not r.ok and "edits[2]" in r.content and "no edit was applied" in r.content
    assert f.read_text() == SRC
    r = EditTool().run({"path": "m.py", "edits": [{"old": "return 1", "new": "return 5"},
                                                  {"old": "return 5", "new": "return 6"}]}, ctx)
    assert r.ok and "return 6" in f.read_text() and "return 1" not in f.read_text()


def test_crlf_and_trailing_newline_kept(ctx, root: Path) -> None:
    f = root / "w.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    assert EditTool().run({"path": "w.txt", "old": "two\nthree\n", "new": "2\n3"}, ctx).ok
    assert f.read_bytes() == b"one\r\n2\r\n3\r\n"
    g = root / "n.txt"
    g.write_bytes(b"a\nb")
    assert EditTool().run({"path": "n.txt", "old": "b", "new": "c"}, ctx).ok
    assert g.read_bytes() == b"a\nc"


def test_edit_refuses_stale_file_and_creates_missing(ctx, root: Path) -> None:
    f = root / "s.txt"
    f.write_text("v1\n")
    ReadFileTool().run({"path": "s.txt"}, ctx)
    f.write_text("v2\n")
    r = EditTool().run({"path": "s.txt", "old": "v2", "new": "v3"}, ctx)
    assert not r.ok and "changed on disk" in r.content and f.read_text() == "v2\n"
    assert EditTool().run({"path": "new.txt", "old": "", "new": "hello\n"}, ctx).ok
    assert (root / "new.txt").read_text() == "hello\n"
    assert "does not exist" in EditTool().run({"path": "nope.txt", "old": "a", "new": "b"}, ctx).content


def test_edit_bad_arguments(ctx, root: Path) -> None:
    (root / "a.txt").write_text("a\n")
    assert "not both" in EditTool().run({"path": "a.txt", "old": "a", "new": "b", "edits": []}, ctx).content
    assert "required" in EditTool().run({"path": "a.txt"}, ctx).content
    assert not EditTool().run({"path": "/etc/hosts", "old": "a", "new": "b"}, ctx).ok
