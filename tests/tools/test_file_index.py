"""`@path` completion's names (tools.file_index): .gitignore at every level, no secrets, no links
that lead out, bounded (issue #25)."""

from __future__ import annotations

import os

from mrsmith_tui.tools import file_index
from mrsmith_tui.tools.file_index import index_files


def test_gitignore_secrets_git_and_links_are_left_out(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    (root / "src" / "gen").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("x")
    (root / "build").mkdir()
    (root / "build" / "out.o").write_text("x")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "src" / ".gitignore").write_text("gen/\n")
    (root / "src" / "gen" / "made.py").write_text("x")
    (root / "src" / "app.py").write_text("x")
    (root / "debug.log").write_text("x")
    (root / ".env").write_text("x")
    (root / "id_rsa").write_text("x")
    (root / ".ssh").mkdir()
    (root / ".ssh" / "config").write_text("x")
    (root / "README.md").write_text("x")
    os.symlink(outside, root / "out_link")
    os.symlink(root / ".env", root / "env_alias")
    os.symlink(root / "README.md", root / "readme_link")
    names = index_files(root)
    assert names == (".gitignore", "README.md", "readme_link", "src/", "src/.gitignore", "src/app.py")


def test_the_walk_is_bounded(tmp_path, monkeypatch):
    for i in range(50):
        (tmp_path / f"f{i:02}").touch()
    monkeypatch.setattr(file_index, "MAX_ENTRIES", 10)
    assert len(index_files(tmp_path)) == 10
