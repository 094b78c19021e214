"""Round 2's search scopes and everyday commands (adversary findings)."""

from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.tools.shell.classify import classify
from mrsmith_tui.tools.shell.gnu_glob import gnu_match


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always", *args],
                          cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scope2") / "r"
    (root / "src").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / ".gitignore").write_text(".env\n")
    (root / "src" / "app.py").write_text("# TODO foo\n")
    (root / "README.md").write_text("# TODO\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "one")
    (root / ".env").write_text("API_KEY=sk-c0ffee1234567890abcdef\n")
    (root / ".kube").mkdir()
    (root / ".kube" / "config").write_text("token: KUBECONFIGtoken123\n")
    (root / ".docker").mkdir()
    (root / ".docker" / "config.json").write_text('{"auth": "RE9DS0VSQ09ORklHc2VjcmV0"}\n')
    os.symlink(".kube", root / "kk")
    os.symlink(".docker", root / "dk")
    (root / "cfgs").mkdir()
    os.symlink("../.kube", root / "cfgs" / "k")
    return root


INCLUDES = [r"\.env", "[^x]env", "[!x]env", ".en[^x]", "[.]env", ".e[n]v", r"\.e*", "[[:punct:]]env", "?env", ".env*",
            "*env", r"[\.]env", ".[a-z]nv", ".[^[:upper:]]nv", "*", "[!.]*"]


def test_gnu_matching_agrees_with_glibc_on_generated_patterns() -> None:
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    rng = random.Random(21)
    names = [".env", "env", "xenv", "config", "a.c", "a.h", "]", "^", "!", "\\", "a-b", ".npmrc", "AB"]
    atoms = ["*", "?", "[^x]", "[!x]", "[]a]", "[a-c]", r"\.", "\\", "[[:alpha:]]", ".", "e", "n", "v", "c", "[", "-", "^"]
    for _ in range(3000):
        pattern = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 4)))
        for name in names:
            ours = gnu_match(name, pattern)
            theirs = libc.fnmatch(pattern.encode(), name.encode(), 0) == 0
            assert ours is None or ours == theirs, (pattern, name, ours, theirs)


@pytest.mark.parametrize(("include", "form"), list(itertools.product(
    INCLUDES, ["grep -rn KEY --include='{p}' .", "grep -rn KEY --include='{p}' . | rev", "grep -rn KEY --include '{p}'"])))
def test_grep_include_is_read_as_gnu_grep_reads_it(include: str, form: str, tree: Path) -> None:
    command = form.format(p=include)
    verdict = classify(command, root=tree)
    if verdict.read_only:
        out = subprocess.run(["bash", "-c", command], cwd=tree, capture_output=True, text=True).stdout
        assert "sk-c0ffee" not in out, command


@pytest.mark.parametrize("command", [
    "grep -rn token kk", "grep -rn token kk | rev", "rg -n token kk", "rg -n auth dk | base64", "grep -rn token k*",
    "for d in kk src; do grep -rn token \"$d\"; done", "grep -rn token cfgs/k", "grep -rn auth dk/", "rg auth ./dk"])
def test_a_linked_folder_in_a_recursive_search_is_judged_by_where_it_leads(command: str, tree: Path) -> None:
    if command.startswith("rg") and shutil.which("rg") is None:
        pytest.skip("rg is not installed")
    assert not classify(command, root=tree).read_only, command


@pytest.mark.parametrize("command", ["grep -rl 'API_KEY=sk-c' .", "grep -rc 'KEY=sk' .", "grep -rlq 'sk-c0' .",
                                     "grep -rl -e 'sk-c' .", "grep -rl 'sk.c' .", "git grep -l 'KEY=' --untracked --no-exclude-standard"])
def test_a_names_only_search_for_more_than_a_word_over_a_secret_asks(command: str, tree: Path) -> None:
    assert not classify(command, root=tree).read_only, command


@pytest.mark.parametrize("command", ["grep -rl TODO .", "grep -rc TODO .", "git grep -l TODO", "grep -rl -e TODO src"])
def test_a_names_only_search_for_a_word_runs(command: str, tree: Path) -> None:
    assert classify(command, root=tree).read_only, command


@pytest.mark.parametrize("command", ["cd src && rg TODO", "cd src && rg -n TODO", "cd src && ls", "git submodule status",
                                     "git grep --no-index -n TODO -- src", "git grep --no-index -n TODO src",
                                     "rg TODO", "rg -n TODO src", "grep -rn foo src", "cat README.md", "git log --oneline",
                                     "git log -p -2", "git show", "git diff HEAD", "ls -la", "find . -name '*.py'",
                                     "git grep -n TODO", "git blame src/app.py"])
def test_everyday_commands_run_at_once(command: str, tree: Path) -> None:
    if "rg " in command and shutil.which("rg") is None:
        pytest.skip("rg is not installed")
    assert classify(command, root=tree).read_only, command


def test_git_grep_no_index_still_asks_over_the_secret(tree: Path) -> None:
    for command in ("git grep --no-index -n KEY", "git grep --no-index -n KEY -- .", "git grep --no-index KEY -- '*'"):
        assert not classify(command, root=tree).read_only, command


@pytest.mark.skipif(shutil.which("rg") is None, reason="rg is not installed")
@pytest.mark.parametrize(("config", "command"), [("--no-ignore\n--hidden\n", "rg -n PASSWORD"),
                                                 ("--hidden\n--glob=!.git/*\n", "rg auth"),
                                                 ("--follow\n", "rg -n OUTSIDE")])
def test_the_person_s_ripgrep_config_widens_the_judged_scope(config: str, command: str, tree: Path, tmp_path: Path,
                                                            monkeypatch) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.txt").write_text("OUTSIDE_1\n")
    link = tree / "docs_shared"
    if not link.exists():
        os.symlink(outside, link)
    (tmp_path / "rgrc").write_text(config)
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(tmp_path / "rgrc"))
    try:
        assert not classify(command, root=tree).read_only, (config, command)
    finally:
        os.unlink(link)
    monkeypatch.delenv("RIPGREP_CONFIG_PATH")
    assert classify("rg -n TODO", root=tree).read_only


def test_cd_follows_the_cdpath_the_command_gets(tree: Path, tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.setenv("CDPATH", f".:{tmp_path}")
    assert classify("cd src && ls", root=tree).read_only
    assert not classify("cd elsewhere && ls", root=tree).read_only
    monkeypatch.setenv("CDPATH", "lib:.")  # a relative entry is taken out of the child's CDPATH
    assert classify("cd src && ls", root=tree).read_only


def test_a_global_git_config_inside_the_tree_is_judged(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "home"
    root.mkdir()
    _git(root, "init", "-q")
    assert classify("git status", root=root).read_only
    (root / ".gitconfig").write_text("[core]\n\tfsmonitor = ./pwn.sh\n")
    monkeypatch.setenv("HOME", str(root))
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    verdict = classify("git status", root=root)
    assert not verdict.read_only and "fsmonitor" in verdict.reason
