"""The shell classifier: the table of commands in shell_cases.tsv, specs, rules and configuration."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.shell.classify import classify

CASES = Path(__file__).with_name("shell_cases.tsv")
FILES = ["a", "f", "a.py", "b.py", "a.txt", "notes.txt", "src/x.py", "src/y.py", ".env", "id_rsa", "cert.pem"]


def load_cases() -> list[tuple[str, str]]:
    rows = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        verdict, command = line.split("\t", 1)
        rows.append((verdict, command.replace("⏎", "\n")))
    return rows


ROWS = load_cases()


def make_project(root: Path) -> Path:
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"{name}\n")
    (root / "package.json").write_text('{"name": "demo"}\n')
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("project"))


def test_the_table_is_big_enough() -> None:
    asks = [c for v, c in ROWS if v.startswith("ask")]
    oks = [c for v, c in ROWS if v.startswith("ok")]
    assert len(asks) >= 200 and len(oks) >= 60
    assert len(set(asks + oks)) == len(asks) + len(oks), "a command is in the table twice"


@pytest.mark.parametrize(("verdict", "command"), ROWS, ids=[c[:60] for _, c in ROWS])
def test_case(verdict: str, command: str, project: Path) -> None:
    v = classify(command, root=project)
    if verdict == "ok:rg":
        # rg's filters (-g, --type) are applied by asking rg itself for its file list; without rg on
        # PATH mrsmith reads them as "every file", more than rg reads, so the secret in the folder asks
        verdict = "ok" if shutil.which("rg") else "ask:secret"
    if verdict == "ok":
        assert v.read_only, v
        return
    assert not v.read_only, f"{command!r} ran without asking"
    assert v.spec.startswith("shell:") and v.reason
    _, _, rule = verdict.partition(":")
    if rule:
        assert v.rule == rule, v


@pytest.mark.parametrize(
    ("command", "spec"),
    [
        ("git commit -m x", "shell:git commit"),
        ("ls && git commit -m x", "shell:git commit"),
        ("git commit -m x; rm y", "shell:git commit, shell:rm"),
        ("rm -rf build", "shell:rm"),
        ("timeout 5 rm x", "shell:rm"),
        ("npm install left-pad", "shell:npm install"),
        ("sort -o out f", "shell:sort -o out f"),  # sort is read-only: an "always" covers this use only
        ("git stash show --output=x", "shell:git stash show --output=x"),
        ("git log --output=x", "shell:git log --output=x"),
        ("git stash -m list", "shell:git stash"),  # a stash push, not a read-only form
        ("echo hi > notes.txt", "shell:echo hi > notes.txt"),
        ("cat ~/.ssh/id_rsa", "shell:cat ~/.ssh/id_rsa"),
        ("FOO=1 ls", "shell:FOO=1 ls"),
        ("git -c core.pager=x log", "shell:git -c core.pager=x log"),  # not all of git
        ("env -S 'touch x'", "shell:env -S 'touch x'"),
        ("git status > out", "shell:git status > out"),
    ],
)
def test_approval_spec(command: str, spec: str, project: Path) -> None:
    assert classify(command, root=project).spec == spec


@pytest.mark.parametrize(
    ("command", "word"),
    [
        ("sort --out=x f", "--out"),
        ("env -iS 'touch x'", "-S"),
        ("git grep -O./prog foo", "-O"),
        ("cat .env", ".env"),
        ("head id_rsa", "id_rsa"),
        ("grep -r API_KEY ~", "~"),
        ("find . -fprint out", "-fprint"),
        ("sed 's/a/b/w out' f", "w"),
        ("touch x", "touch"),
    ],
)
def test_reason_names_the_offending_word(command: str, word: str, project: Path) -> None:
    assert word in classify(command, root=project).reason


def test_configured_harmless_and_dangerous(project: Path) -> None:
    assert classify("cargo check", harmless=["cargo check"], root=project).read_only
    assert not classify("cargo build", harmless=["cargo check"], root=project).read_only
    assert classify("make -j4 all", harmless=["make"], root=project).read_only
    assert classify("ls | pytest -q", harmless=["pytest"], root=project).read_only
    assert not classify("timeout 5 rm x", harmless=["timeout"], root=project).read_only  # a wrapper's command is judged
    assert not classify("xargs rm", harmless=["xargs"], root=project).read_only
    assert classify("timeout 5 pytest", harmless=["pytest"], root=project).read_only
    # dangerous wins, over built-ins and over harmless
    assert not classify("cat a", dangerous=["cat"], root=project).read_only
    v = classify("git log", harmless=["git"], dangerous=["git log"], root=project)
    assert not v.read_only and v.spec == "shell:git log" and "dangerous" in v.reason
    assert classify("git status", dangerous=["git log"], root=project).read_only


def test_extra_sensitive_patterns(project: Path) -> None:
    assert classify("cat notes.txt", root=project).read_only
    v = classify("cat notes.txt", root=project, sensitive=SensitivePaths(["notes.txt"]))
    assert not v.read_only and v.rule == "secret" and "notes.txt" in v.reason


def test_a_link_inside_the_root_to_a_secret_asks(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("x")
    (project / "innocent.txt").symlink_to(secret)
    try:
        assert not classify("cat innocent.txt", root=project).read_only
    finally:
        (project / "innocent.txt").unlink()


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_repository_config_that_runs_programs_asks(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo")
    _git(root, "init", "-q")
    assert classify("git status", root=root).read_only
    _git(root, "config", "core.fsmonitor", "./hook.sh")
    v = classify("git status", root=root)
    assert not v.read_only and "core.fsmonitor" in v.reason
    assert classify("ls", root=root).read_only  # only git is affected
    _git(root, "config", "--unset", "core.fsmonitor")
    _git(root, "config", "diff.pdf.textconv", "./conv.sh")
    assert "textconv" in classify("git log -p", root=root).reason


def test_a_nested_repository_reached_with_cd_is_checked_too(tmp_path: Path) -> None:
    root = make_project(tmp_path / "outer")
    inner = root / "vendor"
    inner.mkdir()
    _git(inner, "init", "-q")
    _git(inner, "config", "core.fsmonitor", "./hook.sh")
    assert classify("git status", root=root).read_only
    assert not classify("cd vendor && git status", root=root).read_only


def test_a_submodule_config_that_runs_programs_asks(tmp_path: Path) -> None:
    root = make_project(tmp_path / "super")
    _git(root, "init", "-q")
    (root / ".git" / "modules" / "lib").mkdir(parents=True)
    subprocess.run(["git", "config", "--file", str(root / ".git/modules/lib/config"), "core.fsmonitor", "./x"], check=True)
    assert "core.fsmonitor" in classify("git status", root=root).reason


def test_a_repository_above_the_root_asks(tmp_path: Path) -> None:
    # a dotfiles repository in $HOME: `git log -p` from ~/proj would show files above the root
    outer = tmp_path / "home"
    outer.mkdir()
    _git(outer, "init", "-q")
    root = make_project(outer / "proj")
    v = classify("git log -p", root=root)
    assert not v.read_only and "above the working directory" in v.reason
    assert classify("git status", root=outer).read_only
    assert classify("ls", root=root).read_only


def test_an_embedded_repository_committed_as_a_gitlink_is_checked_too(tmp_path: Path) -> None:
    # `git add sub` of a repository keeps sub/.git a directory; `git status` runs git in there
    root = make_project(tmp_path / "super")
    _git(root, "init", "-q")
    sub = root / "sub"
    sub.mkdir()
    _git(sub, "init", "-q")
    (sub / "s").write_text("s\n")
    _git(sub, "add", "s")
    _git(sub, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "s")
    _git(root, "add", "sub")
    assert classify("git status", root=root).read_only
    _git(sub, "config", "core.fsmonitor", "./hook.sh")
    v = classify("git status", root=root)
    assert not v.read_only and "sub: core.fsmonitor" in v.reason


@pytest.mark.parametrize("command", ["ls\rrm x", "ls\x1b[2J", "cat\x00/etc/passwd", "ls\x0bx"])
def test_control_characters_ask(command: str, project: Path) -> None:
    assert not classify(command, root=project).read_only


def test_readme_lists_the_read_only_set_as_the_tables_say() -> None:
    from mrsmith_tui.tools.shell.allowlist import markdown

    readme = (Path(__file__).resolve().parents[2] / "docs" / "tools.md").read_text(encoding="utf-8")
    shown = readme.split("<!-- shell-allowlist:start -->\n", 1)[1].split("\n<!-- shell-allowlist:end -->", 1)[0]
    assert shown == markdown(), "docs/tools.md's read-only table is stale: paste allowlist.markdown() between the markers"


def test_a_hook_git_status_fires_asks_but_a_husky_hooks_path_alone_does_not(tmp_path: Path) -> None:
    root = make_project(tmp_path / "hooks")
    _git(root, "init", "-q")
    husky = root / ".husky"
    husky.mkdir()
    (husky / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (husky / "pre-commit").chmod(0o755)
    _git(root, "config", "core.hooksPath", ".husky")
    assert classify("git status", root=root).read_only  # pre-commit never runs on a read
    (husky / "post-index-change").write_text("#!/bin/sh\ntouch ran\n")
    (husky / "post-index-change").chmod(0o755)
    v = classify("git status", root=root)
    assert not v.read_only and "post-index-change" in v.reason
    _git(root, "config", "--unset", "core.hooksPath")
    hook = root / ".git" / "hooks" / "post-index-change"
    hook.write_text("#!/bin/sh\ntouch ran\n")
    hook.chmod(0o755)
    assert "post-index-change" in classify("git diff", root=root).reason


def test_diff_of_two_directories_checks_the_files_it_would_compare(tmp_path: Path) -> None:
    root = make_project(tmp_path / "root")
    (tmp_path / "outside.txt").write_text("not yours\n")
    (root / "d1").mkdir()
    (root / "d2").mkdir()
    (root / "d2" / "x").write_text("x\n")
    assert classify("diff d1 d2", root=root).read_only
    (root / "d1" / "x").symlink_to(tmp_path / "outside.txt")  # diff follows it and prints the file
    v = classify("diff -q d1 d2", root=root)
    assert not v.read_only and "d1" in v.reason
    assert not classify("diff src/x.py d1", root=root).read_only


def test_a_repository_include_path_makes_git_ask(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo")
    _git(root, "init", "-q")
    (tmp_path / "pypirc").write_text("[pypi]\n\tpassword = pypi-secret\n")
    assert classify("git config --get pypi.user", root=root).read_only
    _git(root, "config", "include.path", str(tmp_path / "pypirc"))  # `git config --get pypi.password` prints it
    for command in ("git config --get pypi.user", "git status", "git log"):
        assert "include.path" in classify(command, root=root).reason


def test_names_a_lister_prints_ask_even_when_every_listed_name_is_harmless(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo")
    _git(root, "init", "-q")
    _git(root, "add", "a.py")
    # they are only known when it runs: bash splits, globs and drops NULs from them after the judging
    for command in ("wc -l $(git ls-files)", "git ls-files | xargs wc -l", "cat `git ls-files`",
                    "for f in $(git ls-files); do cat \"$f\"; done"):
        verdict = classify(command, root=root)
        assert not verdict.read_only and verdict.rule == "secret", command
    assert classify("git ls-files", root=root).read_only
    assert classify("wc -l a.py", root=root).read_only


def test_an_always_for_one_odd_use_of_a_read_only_program_covers_no_other(project: Path) -> None:
    from mrsmith_tui.tools.approval import Permission

    granted = Permission(classify("git log --ext-diff", root=project).spec, "answer")
    for other in ("git log --output=x", "git log --ext-diff --output=x", "git log -c core.pager=sh"):
        assert not granted.covers(classify(other, root=project).spec), other
    assert granted.covers(classify("git log --ext-diff", root=project).spec)


def test_git_commands_that_print_a_token_in_the_repository_config_ask(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo")
    _git(root, "init", "-q")
    _git(root, "remote", "add", "origin", "https://github.com/o/r.git")
    for command in ("git remote -v", "git config --local --list", "git remote get-url origin"):
        assert classify(command, root=root).read_only, command
    # what CI checkouts leave behind: a token in the URL, an extra header
    _git(root, "remote", "set-url", "origin", "https://x-access-token:ghp_0123456789@github.com/o/r.git")
    for command in ("git remote -v", "git config --local --list", "git remote get-url origin"):
        v = classify(command, root=root)
        assert not v.read_only and v.rule == "secret" and "remote.origin.url" in v.reason, command
    _git(root, "remote", "set-url", "origin", "https://github.com/o/r.git")
    _git(root, "config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic dG9rZW4=")
    assert "extraheader" in classify("git config --local --get-regexp .", root=root).reason
    assert classify("git log --oneline", root=root).read_only


def test_a_program_path_finds_inside_the_root_asks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path / "repo")
    (root / "bin").mkdir()
    (root / "bin" / "ls").write_text("#!/bin/sh\ntouch pwned\n")
    (root / "bin" / "ls").chmod(0o755)
    assert classify("ls", root=root).read_only
    system_path = os.environ["PATH"]
    for path in (f"{root / 'bin'}:{system_path}",):
        monkeypatch.setenv("PATH", path)
        for command in ("ls", "timeout 5 ls", "cat a.py | xargs ls"):
            v = classify(command, root=root)
            assert not v.read_only and "bin/ls" in v.reason, (path, command)
        assert classify("echo hi && cat a.py", root=root).read_only  # builtins, and cat found elsewhere
        assert classify("ls", harmless=["ls"], root=root).read_only  # configured: the person's choice
    # a relative entry never reaches the child (security.tree_paths): ls is the system's again
    monkeypatch.setenv("PATH", f"bin:{system_path}")
    assert classify("ls", root=root).read_only
