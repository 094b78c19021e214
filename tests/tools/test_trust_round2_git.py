"""Adversary findings of round 2 on git: paths without `--`, objects by name, hard links, status -v."""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.tools.shell.classify import classify


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("round2")
    (base / "outside.txt").write_text("outside\n")
    root = base / "repo"
    (root / "src").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / "src" / "app.py").write_text("print('TODO')\n")
    (root / "README.md").write_text("# TODO\n")
    (root / ".docker").mkdir()
    (root / ".docker" / "config.json").write_text('{"auths": {"x": {"auth": "ZG9ja2VyOnNlY3JldA=="}}}\n')
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "one")
    (root / "old").mkdir()
    (root / "old" / ".env").write_text("OLD_SECRET=HISTORYsecret_0099aa\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "two")
    _git(root, "rm", "-qr", "old")
    _git(root, "commit", "-qm", "three")
    (root / ".env.local").write_text("STASH=STASHsecret_7766cc\n")
    _git(root, "stash", "push", "-q", "-u")
    _git(root, "tag", "envblob", "HEAD~1:old/.env")
    (root / "src" / "foo.txt").write_text("x\n")
    _git(root, "add", "src/foo.txt")
    _git(root, "commit", "-qm", "four")
    os.unlink(root / "src" / "foo.txt")
    os.link(base / "outside.txt", root / "src" / "foo.txt")
    return root


HISTORY_OPERANDS = [".", "old", "./", "src/..", "HEAD~4 HEAD~2 .", "HEAD~3 .", "--all ."]
HISTORY_FORMS = ["git log -p {o}", "git log -U1 {o}", "git log --stat -p {o}", "git diff {o}",
                 "git show HEAD~2 {o}", "git whatchanged -p {o}", "git log -p -n 5 {o}"]


@pytest.mark.parametrize(("form", "operand"), list(itertools.product(HISTORY_FORMS, HISTORY_OPERANDS)))
def test_paths_without_double_dash_never_skip_the_content_check(form: str, operand: str, repo: Path) -> None:
    command = form.format(o=operand)
    verdict = classify(command, root=repo)
    if verdict.read_only:  # it may run only if git really shows no secret for it
        out = subprocess.run(["bash", "-c", command], cwd=repo, capture_output=True, text=True).stdout
        assert "HISTORYsecret" not in out and "STASHsecret" not in out, command


@pytest.mark.parametrize("command", ["git log -p .", "git diff HEAD~3 HEAD~2 .", "git show 'stash@{0}^3' .",
                                     "git log --all -p ."])
def test_the_reported_history_leaks_ask(command: str, repo: Path) -> None:
    assert not classify(command, root=repo).read_only, command


@pytest.mark.parametrize("command", ["git show {b}^{{blob}}", "git cat-file -p {b}^{{}}", "git show '{b}^{{object}}'",
                                     "git diff {b}^{{blob}} HEAD:README.md", "git show envblob", "git cat-file -p envblob",
                                     "git show envblob^{{}}", "git cat-file blob envblob", "git show {b}",
                                     "git diff HEAD:src HEAD:.docker", "git grep -n auth HEAD:.docker",
                                     "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD:.docker",
                                     "git grep -n auth HEAD:.docker -- .", "git diff {t} HEAD:src"])
def test_objects_that_resolve_to_unjudged_content_ask(command: str, repo: Path) -> None:
    blob = _git(repo, "rev-parse", "envblob^{}").strip()[:9]
    tree = _git(repo, "rev-parse", "HEAD:.docker").strip()
    verdict = classify(command.format(b=blob, t=tree), root=repo)
    assert not verdict.read_only, (command, verdict)


@pytest.mark.parametrize("command", ["git show HEAD:README.md", "git show HEAD:src", "git diff HEAD~1 HEAD -- README.md",
                                     "git grep -n TODO HEAD~3:src", "git cat-file -p HEAD^{tree}", "git diff HEAD~3:src HEAD~2:src",
                                     "git log -p -2 README.md", "git log --oneline", "git show HEAD~1 -- README.md", "git show HEAD~1 README.md"])
def test_objects_named_by_a_harmless_path_run(command: str, repo: Path) -> None:
    assert classify(command, root=repo).read_only, command


@pytest.mark.parametrize("command", ["git blame src/foo.txt", "git diff src/foo.txt", "git log -p src/foo.txt",
                                     "git status -vv src/foo.txt", "git blame -- src/foo.txt", "git diff HEAD -- src/foo.txt"])
def test_git_reading_a_hard_link_to_outside_asks_as_cat(command: str, repo: Path) -> None:
    verdict = classify(command, root=repo)
    assert not verdict.read_only, command


def test_status_verbose_of_a_staged_secret_asks(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.txt").write_text("a\n")
    _git(tmp_path, "add", "a.txt")
    _git(tmp_path, "commit", "-qm", "a")
    assert classify("git status -v", root=tmp_path).read_only
    (tmp_path / ".env.production").write_text("TOKEN=STAGEDsecret_1\n")
    _git(tmp_path, "add", "-f", ".env.production")
    for command in ("git status -v", "git status -vv", "git status --verbose", "git status -v -- .", "git status -vv | rev"):
        assert not classify(command, root=tmp_path).read_only, command
    assert classify("git status", root=tmp_path).read_only
