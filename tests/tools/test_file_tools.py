"""read_file, list_dir, glob and write_file against a real temporary tree."""

from __future__ import annotations

import os
from pathlib import Path

from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.tools.builtin import builtin_tools
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.globmatch import Glob
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.read_file import MAX_BYTES, ReadFileTool
from mrsmith_tui.tools.registry import OPT_IN, ToolRegistry
from mrsmith_tui.tools.write_file import WriteFileTool


def test_read_numbers_lines_and_pages(ctx, root: Path) -> None:
    (root / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    whole = ReadFileTool().run({"path": "a.txt"}, ctx)
    assert whole.ok and whole.content.splitlines()[0] == " 1\tline 1" and "truncated" not in whole.content
    part = ReadFileTool().run({"path": "a.txt", "offset": 3, "limit": 2}, ctx)
    assert part.content.splitlines()[:2] == ["3\tline 3", "4\tline 4"]
    assert "lines 3-4 of 10" in part.content and "offset=5" in part.content


def test_read_refuses_binary_dirs_missing_and_escapes(ctx, root: Path) -> None:
    (root / "b.bin").write_bytes(b"\x7fELF\x00\x01\x02")
    (root / "d").mkdir()
    tool = ReadFileTool()
    assert "binary" in tool.run({"path": "b.bin"}, ctx).content
    assert "directory" in tool.run({"path": "d"}, ctx).content
    assert "does not exist" in tool.run({"path": "nope.txt"}, ctx).content
    r = tool.run({"path": "/etc/passwd"}, ctx)
    assert not r.ok and "outside the working directory" in r.content
    (root / "a.txt").write_text("x\n")
    assert "past the end" in tool.run({"path": "a.txt", "offset": 5}, ctx).content
    assert not tool.run({"path": "a.txt", "offset": 0}, ctx).ok


def test_read_caps_at_one_mebibyte(ctx, root: Path) -> None:
    (root / "big.txt").write_text(("x" * 99 + "\n") * (MAX_BYTES // 100 + 500))
    r = ReadFileTool().run({"path": "big.txt", "limit": 100_000}, ctx)
    assert r.ok and "only the first" in r.content and str(MAX_BYTES) in r.content


def test_list_dir(ctx, root: Path) -> None:
    (root / "z.txt").write_text("")
    (root / "adir").mkdir()
    os.symlink("z.txt", root / "link")
    r = ListDirTool().run({"path": "."}, ctx)
    assert r.content.splitlines() == ["adir/", "link -> z.txt", "z.txt"]
    assert not ListDirTool().run({"path": ".."}, ctx).ok
    assert "not a directory" in ListDirTool().run({"path": "z.txt"}, ctx).content


def test_glob_recursive_sorted_and_gitignored(ctx, root: Path) -> None:
    for rel in ["b.txt", "src/a.txt", "src/deep/c.txt", "build/out.txt", "src/skip.log", "src/keep.py",
                ".git/HEAD.txt", "pkg/.gitignore", "pkg/gen.txt", "pkg/mine.txt"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "pkg" / ".gitignore").write_text("gen.txt\n")
    r = GlobTool().run({"pattern": "**/*.txt"}, ctx)
    assert r.content.splitlines() == ["b.txt", "pkg/mine.txt", "src/a.txt", "src/deep/c.txt"]
    assert GlobTool().run({"pattern": "src/*.{py,log}"}, ctx).content == "src/keep.py"
    assert "no files match" in GlobTool().run({"pattern": "*.rs"}, ctx).content
    assert not GlobTool().run({"pattern": "../*"}, ctx).ok
    assert not GlobTool().run({"pattern": "/etc/*"}, ctx).ok


def test_glob_caps_results(ctx, root: Path) -> None:
    for i in range(510):
        (root / f"f{i:03}.txt").write_text("")
    r = GlobTool().run({"pattern": "*.txt"}, ctx)
    assert len(r.content.splitlines()) == 501 and "510 files match" in r.content


def test_glob_pattern_semantics() -> None:
    assert Glob("**/*.py").match("a.py") and Glob("**/*.py").match("x/y/a.py")
    assert not Glob("*.py").match("x/a.py")
    assert Glob("src/**").match("src/a/b") and Glob("f?[0-9].txt").match("fa1.txt")


def test_write_creates_parents_atomically_with_diff(ctx, root: Path) -> None:
    tool = WriteFileTool()
    need = tool.approval({"path": "n/e/w.txt", "content": "hi\n"}, ctx)
    assert need is not None and need.spec == "write_file" and "+hi" in need.diff
    r = tool.run({"path": "n/e/w.txt", "content": "hi\n"}, ctx)
    assert r.ok and (root / "n/e/w.txt").read_text() == "hi\n" and r.content.startswith("Created n/e/w.txt (1 line, 3 bytes)")
    assert tool.run({"path": "one.txt", "content": "x"}, ctx).content.startswith("Created one.txt (1 line, 1 byte)")
    r = tool.run({"path": "n/e/w.txt", "content": "bye\n"}, ctx)
    assert "-hi" in r.content and "+bye" in r.diff
    assert [p.name for p in (root / "n/e").iterdir()] == ["w.txt"]  # no temp file left


def test_write_refuses_escape_and_symlink_out(ctx, root: Path, tmp_path: Path) -> None:
    target = tmp_path / "victim.txt"
    target.write_text("keep")
    os.symlink(target, root / "link.txt")
    r = WriteFileTool().run({"path": "link.txt", "content": "owned"}, ctx)
    assert not r.ok and target.read_text() == "keep"
    assert WriteFileTool().approval({"path": "../x", "content": ""}, ctx) is None  # nothing to ask: refused


def test_stale_write_is_refused(ctx, root: Path) -> None:
    f = root / "s.txt"
    f.write_text("one\n")
    ReadFileTool().run({"path": "s.txt"}, ctx)
    f.write_text("changed by the person\n")
    r = WriteFileTool().run({"path": "s.txt", "content": "mine\n"}, ctx)
    assert not r.ok and "read it again" in r.content and f.read_text() == "changed by the person\n"
    ReadFileTool().run({"path": "s.txt"}, ctx)
    assert WriteFileTool().run({"path": "s.txt", "content": "mine\n"}, ctx).ok


def test_builtin_tools_and_opt_in() -> None:
    agent = AgentConfig(name="a", provider="p", model="m", tools=["read_file"])
    names = ToolRegistry(builtin_tools(agent)).select(agent.tools).names()
    assert "read_file" in names and "edit" in names and "write_file" not in names
    for tool in builtin_tools(agent):
        assert tool.parameters["type"] == "object" and tool.description
    assert {t.name for t in builtin_tools(agent)} - OPT_IN <= {"edit", "todowrite", "question"}
