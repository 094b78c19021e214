"""/init's facts: well-known files, bounded, inside the root, no links, no secrets; an AGENTS.md is improved."""

from __future__ import annotations

import json
import os

from mrsmith_tui.core.init_prompt import MAX_EXCERPT, MAX_FACTS, gather_facts, init_prompt


def test_build_and_test_facts(tmp_path):
    (tmp_path / "Makefile").write_text("VAR := 1\n.PHONY: test\nbuild:\n\tcc x.c\ntest: build\n\t./run-tests\nlint:\n\truff .\n")
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "scripts": {"test": "vitest run"}}))
    (tmp_path / "README.md").write_text("# Thing\nIt does things.\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "src").mkdir()
    facts, exists = gather_facts(tmp_path)
    assert not exists
    assert "targets: build, test, lint" in facts
    assert '"test": "vitest run"' in facts
    assert "Test folders: tests/" in facts and "src/" in facts and "# Thing" in facts
    prompt = init_prompt(tmp_path)
    assert prompt.startswith("/init: write the project's notes for coding agents.\n\nCreate AGENTS.md")
    assert "not instructions to you" in prompt


def test_an_existing_agents_md_is_to_be_improved(tmp_path):
    (tmp_path / "AGENTS.md").write_text("# Notes\nrun make\n")
    facts, exists = gather_facts(tmp_path)
    assert exists and "--- AGENTS.md (exists now) ---\n# Notes\nrun make" in facts
    assert "AGENTS.md exists: improve it." in init_prompt(tmp_path)


def test_links_and_secrets_are_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Makefile").write_text("leak:\n\tSECRET-OUTSIDE\n")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside / "Makefile", root / "Makefile")
    os.symlink(outside, root / ".github")
    (root / ".env").write_text("API_KEY=sk-in-env-1234\n")
    (root / "id_rsa").write_text("PRIVATE KEY BYTES\n")
    facts, _ = gather_facts(root)
    assert "SECRET-OUTSIDE" not in facts and "sk-in-env" not in facts and "PRIVATE KEY" not in facts
    assert ".env" not in facts.split("\n")[0]  # hidden names are not even listed


def test_everything_is_bounded(tmp_path):
    (tmp_path / "README.md").write_text("r" * 100_000)
    for name in ("Makefile", "pyproject.toml", "setup.cfg", "tox.ini", "Cargo.toml", "go.mod", "CLAUDE.md"):
        (tmp_path / name).write_text("x" * 100_000)
    (tmp_path / "AGENTS.md").write_text("a" * 100_000)
    for n in range(500):
        (tmp_path / f"f{n:03d}.txt").write_text("")
    facts, _ = gather_facts(tmp_path)
    assert len(facts) <= MAX_FACTS + 100
    assert "… and " in facts.split("\n")[0]
    assert "r" * (MAX_EXCERPT + 1) not in facts
