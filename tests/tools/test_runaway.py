"""Runaway work found in review stays bounded: counts, bounded outputs and cancellation, never clocks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui.cancel import Cancelled
from mrsmith_tui.tools import edit as edit_mod
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.edit_match import MAX_LISTED, apply_edit
from mrsmith_tui.tools.read_file import ReadFileTool


def test_an_old_matching_a_million_places_names_the_first_twenty(ctx, root: Path) -> None:
    (root / "f.txt").write_text("a\n" * 1_000_000)
    ReadFileTool().run({"path": "f.txt"}, ctx)
    r = EditTool().run({"path": "f.txt", "old": "a", "new": "b"}, ctx)
    assert not r.ok and "matches 1000000 places" in r.content
    assert f"first {MAX_LISTED} at lines 1, 2, 3," in r.content and ", 21," not in r.content
    assert len(r.content) < 500


def test_a_loose_match_lists_a_bounded_number_of_lines() -> None:
    with pytest.raises(Exception) as info:
        apply_edit("  a\n  b\n" * 50_000, "a\nb", "c")
    assert "matches 50000 places ignoring indentation" in str(info.value) and len(str(info.value)) < 500


def test_a_loose_match_honours_cancel() -> None:
    with pytest.raises(Cancelled):
        apply_edit("  a\n  b\n" * 50_000, "a\nb", "c", replace_all=True, cancelled=lambda: True)


def test_loose_replace_all_rebuilds_every_window() -> None:
    assert apply_edit(" a\n b\n" * 3 + "x\n", "a\nb", "c", replace_all=True) == " c\n" * 3 + "x\n"
    # windows that would overlap are taken one after the other
    assert apply_edit(" a\n a\n a\n a\n", "a\na", "c", replace_all=True) == " c\n c\n"


def test_an_approved_edit_is_planned_once(ctx, root: Path, monkeypatch) -> None:
    (root / "m.py").write_text("x = 1\ny = 2\n")
    calls = []
    real = edit_mod.apply_edit
    monkeypatch.setattr(edit_mod, "apply_edit", lambda *a, **k: calls.append(1) or real(*a, **k))
    args = {"path": "m.py", "old": "y = 2", "new": "y = 3"}
    tool = EditTool()
    assert tool.approval(args, ctx) is not None
    r = tool.run(args, ctx)
    assert r.ok and (root / "m.py").read_text() == "x = 1\ny = 3\n" and len(calls) == 1
    # a file changed between approval and run is planned again, from what is there now
    (root / "m.py").write_text("y = 2\n")
    ReadFileTool().run({"path": "m.py"}, ctx)
    tool.approval(args, ctx)
    (root / "m.py").write_text("y = 2\nz\n")
    ReadFileTool().run({"path": "m.py"}, ctx)
    assert tool.run(args, ctx).ok and (root / "m.py").read_text() == "y = 3\nz\n" and len(calls) == 3


def test_a_line_that_never_ends_stops_the_read(ctx, root: Path) -> None:
    with open(root / "sparse.txt", "wb") as f:
        f.write(b"a" * 9000)
        f.truncate(1 << 40)  # 1 TiB, sparse: NULs after a prefix with none
    r = ReadFileTool().run({"path": "sparse.txt"}, ctx)
    assert r.ok and r.content.startswith("1\t" + "a" * 100)
    assert "line 1 does not end within" in r.content and "continue with" not in r.content
    assert len(r.content) < 3000


def test_skipping_an_overlong_line_honours_cancel(ctx, root: Path) -> None:
    from mrsmith_tui.tools.read_file import _read_line

    (root / "long.txt").write_bytes(b"b" * 500_000 + b"\n")
    ctx.cancel.cancel()
    with open(root / "long.txt", "rb") as f, pytest.raises(Cancelled):
        _read_line(f, ctx)


def test_nul_bytes_after_the_prefix_are_replaced(ctx, root: Path) -> None:
    (root / "late.txt").write_bytes(b"x\n" * 5000 + b"a\x00b\n")
    r = ReadFileTool().run({"path": "late.txt", "offset": 5001}, ctx)
    assert r.ok and "a\ufffdb" in r.content and "\x00" not in r.content


def test_counting_the_rest_stops_at_the_size_seen_at_open(ctx, root: Path) -> None:
    from mrsmith_tui.tools.read_file import _count_rest

    p = root / "grow.log"
    p.write_bytes(b"a\nb\n")
    with open(p, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        with open(p, "ab") as w:
            w.write(b"more\n" * 1000)  # a writer appends after the open
        assert _count_rest(f, 0, ctx, size) == 2


def test_glob_checks_cancel_at_every_entry(ctx, root: Path, monkeypatch) -> None:
    from mrsmith_tui.tools import glob_tool

    real = glob_tool.entries
    seen = []

    def entries(fd):
        for i, e in enumerate(real(fd)):
            seen.append(e.name)
            if i == 4:
                ctx.cancel.cancel()
            yield e

    for i in range(50):
        (root / f"f{i}.py").write_text("")
    monkeypatch.setattr(glob_tool, "entries", entries)
    with pytest.raises(Cancelled):
        glob_tool.GlobTool().run({"pattern": "**/*.py"}, ctx)
    assert len(seen) == 5


def test_a_hostile_gitignore_is_capped_and_its_compilation_cancellable(ctx, root: Path) -> None:
    from mrsmith_tui.tools.glob_tool import GlobTool
    from mrsmith_tui.tools.globmatch import MAX_IGNORE_WEIGHT, gitignore_rules

    line = "{a,b,c,d,e,f,g,h}{a,b,c,d,e,f,g,h}/**/q*w*e*r*t*y/**/z"
    lines = [line + str(i) for i in range(4000)] + ["*.log"]
    found = gitignore_rules(lines)
    assert found.cut and found.weight <= MAX_IGNORE_WEIGHT and len(found.rules) < 100
    with pytest.raises(Cancelled):
        gitignore_rules(lines, cancelled=lambda: True)
    (root / ".gitignore").write_text("\n".join(lines) + "\n")
    (root / "a.py").write_text("")
    r = GlobTool().run({"pattern": "*.py"}, ctx)
    assert r.ok and r.content.startswith("a.py") and ".gitignore: too many rules" in r.content


def test_ignore_rules_follow_the_walk(ctx, root: Path) -> None:
    from mrsmith_tui.tools.glob_tool import _walk
    from mrsmith_tui.tools.globmatch import Glob

    for d in ("a", "b", "a/c"):
        (root / d).mkdir()
        (root / d / "x.py").write_text("")
    (root / "a" / ".gitignore").write_text("x.py\n")
    walk = _walk(str(root), Glob("**/*.py"), ctx)
    assert sorted(walk.matches) == ["b/x.py"]
    assert walk.ignores.weight == 0 and not walk.ignores._rules  # a/'s rules left with a/


def test_backwards_ranges_and_looping_links_are_one_line_answers(ctx, root: Path) -> None:
    from mrsmith_tui.tools.glob_tool import GlobTool

    r = GlobTool().run({"pattern": "[z-a].py"}, ctx)
    assert not r.ok and "bad character class" in r.content
    (root / ".gitignore").write_text("[z-a]\n*.log\n")
    (root / "a.py").write_text("")
    (root / "b.log").write_text("")
    os.symlink("loop", root / "loop")
    os.symlink("x" * 250 + "/" + "y" * 250, root / "long")
    r = GlobTool().run({"pattern": "*"}, ctx)
    assert r.ok and r.content.splitlines()[:4] == [".gitignore", "a.py", "long", "loop"]


def test_a_root_moved_and_replaced_by_a_link_is_refused(ctx, root: Path, tmp_path: Path) -> None:
    from mrsmith_tui.tools.glob_tool import GlobTool
    from mrsmith_tui.tools.write_file import WriteFileTool

    (root / "a.txt").write_text("inside\n")
    assert ReadFileTool().run({"path": "a.txt"}, ctx).ok
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text("outside\n")
    root.rename(tmp_path / "root.old")
    root.symlink_to(outside)
    for r in (ReadFileTool().run({"path": "a.txt"}, ctx), GlobTool().run({"pattern": "*"}, ctx),
              WriteFileTool().run({"path": "b.txt", "content": "x"}, ctx)):
        assert not r.ok and "was moved or replaced" in r.content and "outside\n" not in r.content
    assert not (outside / "b.txt").exists()


def test_writes_refuse_read_only_files_and_drop_setuid(ctx, root: Path) -> None:
    from mrsmith_tui.tools.write_file import WriteFileTool

    ro = root / "ro.txt"
    ro.write_text("keep\n")
    ro.chmod(0o444)
    ReadFileTool().run({"path": "ro.txt"}, ctx)
    r = WriteFileTool().run({"path": "ro.txt", "content": "new\n"}, ctx)
    assert not r.ok and "is read-only (mode 0444)" in r.content and ro.read_text() == "keep\n"
    su = root / "su.sh"
    su.write_text("echo\n")
    su.chmod(0o6755)
    ReadFileTool().run({"path": "su.sh"}, ctx)
    assert WriteFileTool().run({"path": "su.sh", "content": "echo 2\n"}, ctx).ok
    assert (su.stat().st_mode & 0o7777) == 0o755


def test_long_names_are_written_and_failed_writes_leave_no_directories(ctx, root: Path, monkeypatch) -> None:
    from mrsmith_tui.tools import dirfd
    from mrsmith_tui.tools.write_file import WriteFileTool

    name = "n" * 250 + ".txt"
    assert WriteFileTool().run({"path": name, "content": "x\n"}, ctx).ok and (root / name).read_text() == "x\n"

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dirfd.os, "fsync", broken)
    r = WriteFileTool().run({"path": "a/b/c/new.txt", "content": "x\n"}, ctx)
    assert not r.ok and "No space left" in r.content
    assert not (root / "a").exists() and sorted(p.name for p in root.iterdir()) == [name]
