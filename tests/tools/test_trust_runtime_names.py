"""Class 1 of issue #21: names produced at run time.

A reading command whose path operands are only known when it runs (a command substitution,
backticks, an unquoted expansion, a loop over a lister's output, xargs) asks, whatever the
lister is: bash splits, globs and drops NUL bytes from that output after the judging, so a
tracked `.e*` or `.gi?/config` would turn "read the tracked files" into "print the secret".
Quoted literal operands keep running at once. Generated: readers x listers x forms.
"""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.tools.shell.classify import classify

from .test_shell_classify import make_project

READERS = ["cat", "head -n 5", "tail -3", "wc -l", "grep -n x", "grep -l x", "nl", "tac", "sort", "md5sum",
           "sha256sum", "file", "stat", "ls -l", "du -sh", "od -c", "strings", "cut -c1-9", "diff a.py"]
LISTERS = ["git ls-files", "git ls-files -z", "find .", "find . -type f", "rg --files", "ls", "ls -A",
           "git diff --name-only", "git diff --name-only --line-prefix=../outside/", "grep -rl x .",
           "git grep -l x", "echo .env", "printf '%s\\n' .e'*'", "git ls-files | grep -v test | sort",
           "git ls-files | head -3", "cat a.txt"]
FORMS = [
    "{r} $({l})",
    "{r} `{l}`",
    '{r} "$({l})"',
    "{r} src/x.py $({l})",
    "for f in $({l}); do {r} \"$f\"; done",
    "for f in $({l}); do {r} $f; done",
    "for f in `{l}`; do {r} \"$f\"; done",
    "{l} | xargs {r}",
    "{l} | xargs -n 1 {r}",
    "{l} | xargs -0 {r}",
    "{l} | xargs -I{{}} {r} {{}}",
    "{r} $({l}) | head",
    "( {r} $({l}) )",
    "true && {r} $({l})",
]


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("names") / "repo")
    _git(root, "init", "-q")
    _git(root, "add", "a.py", "b.py", "src")
    (root / ".e*").write_text("")  # the held-out set's tracked file whose name bash globs again
    _git(root, "add", "--", ".e*")
    _git(root, "commit", "-qm", "x")
    return root


CASES = [form.format(r=r, l=lister) for form, r, lister in itertools.product(FORMS, READERS, LISTERS)]


def test_there_are_hundreds_of_variants() -> None:
    assert len(CASES) > 3000


@pytest.mark.parametrize("command", CASES[::13] + CASES[5::29], ids=lambda c: c[:70])
def test_a_reader_of_names_only_known_when_it_runs_asks(command: str, repo: Path) -> None:
    verdict = classify(command, root=repo)
    assert not verdict.read_only, command
    assert verdict.reason


@pytest.mark.parametrize("reader", [r for r in READERS if not r.startswith("diff")])
def test_the_same_readers_with_quoted_literal_operands_run(reader: str, repo: Path) -> None:
    for operand in ("a.py", "'a.py'", '"src/x.py"', "src/*.py", "{a,b}.py"):
        command = f"{reader} {operand}"
        assert classify(command, root=repo).read_only, command


@pytest.mark.parametrize("lister", LISTERS[:11])
def test_a_lister_alone_or_filtered_still_runs(lister: str, repo: Path) -> None:
    # names are not content: the lister itself prints what list_dir and glob would
    for command in (lister, f"{lister} | wc -l", f"{lister} | sort | head -20"):
        verdict = classify(command, root=repo)
        assert verdict.read_only or "outside" in verdict.reason or "secret" in verdict.reason, (command, verdict)


def test_loops_over_literal_words_run_and_over_run_time_words_ask(repo: Path) -> None:
    assert classify('for f in a.py b.py; do cat "$f"; done', root=repo).read_only
    assert classify("for f in src/*.py; do wc -l $f; done", root=repo).read_only
    assert not classify('for f in $(ls); do cat "$f"; done', root=repo).read_only
    assert not classify('for f in a.py $(ls); do cat "$f"; done', root=repo).read_only
    # a name bash would glob again once unquoted
    (repo / "odd[x]").write_text("")
    assert not classify("for f in odd*; do cat $f; done", root=repo).read_only
    assert classify('for f in odd*; do cat "$f"; done', root=repo).read_only
