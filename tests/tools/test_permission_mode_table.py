"""The adversarial table under the modes: plan refuses every shell command the classifier would ask for
(the whole of shell_cases.tsv, and writes generated through redirections, tee, sed -i, find -delete, git,
subshells and wrappers), even with `--allow shell` and an "always" answer in force, and never asks;
accept-edits asks for every one of them, as ask mode does."""

from __future__ import annotations

from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, Permission
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.permission_mode import PermissionMode
from mrsmith_tui.tools.shell.classify import classify
from mrsmith_tui.tools.shell.tool import ShellTool
from tests.tools.test_shell_classify import ROWS, make_project

# What a model would write with: each writes or runs something no allowlist lets through.
WRITES = [
    "echo x > notes.txt", "echo x >> notes.txt", "printf x >| a.txt", ": > a", ">a", "cat a.py > b.py",
    "ls 2> err.log", "ls &> out.log", "exec 3> f", "echo x | tee notes.txt", "echo x | tee -a a.txt",
    "sed -i s/a/b/ a.py", "sed -i.bak s/a/b/ a.py", "sed --in-place s/a/b/ a.py", "perl -i -pe s/a/b/ a.py",
    "find . -delete", "find . -name '*.py' -delete", "find . -exec rm {} +", "find src -execdir touch x \\;",
    "find . -fprint out", "rm a", "rm -rf src", "mv a b", "cp a.py c.py", "touch new", "mkdir d", "rmdir src",
    "chmod +x a.py", "ln -s a b", "truncate -s 0 a", "dd if=a of=b", "sort -o a.txt a.txt", "uniq a.txt out.txt",
    "install a.py bin/a", "tar xf x.tar", "unzip x.zip", "patch -p1 < d.diff", "python3 -c 'open(\"x\",\"w\")'",
    "pip install requests", "npm install", "make", "curl -o x http://127.0.0.1/", "wget http://127.0.0.1/x",
    "git add .", "git commit -m x", "git checkout -- a.py", "git restore a.py", "git stash", "git reset --hard",
    "git clean -fdx", "git config user.name x", "git tag v1", "git branch b", "git gc", "git apply d.diff",
    "git push", "git pull", "git fetch", "git rm a", "git mv a b", "git init", "git worktree add w",
    "git diff --output=x", "git log --output=x", "awk '{print > \"x\"}' a.txt", "xargs rm < a.txt",
]
WRAPPERS = [
    "{c}", "( {c} )", "{{ {c}; }}", "bash -c '{c}'", "sh -c '{c}'", "env {c}", "env -i {c}", "env A=1 {c}",
    "A=1 {c}", "timeout 5 {c}", "nice {c}", "nohup {c}", "command {c}", "builtin {c}", "exec {c}", "time {c}",
    "true && {c}", "false || {c}", "ls; {c}", "ls | {c}", "echo $({c})", "echo `{c}`", "cat <({c})",
    "if true; then {c}; fi", "for i in 1; do {c}; done", "while false; do :; done; {c}", "cd src && {c}",
    "eval '{c}'", "echo a | xargs {c}", "xargs -I{{}} {c} < a.txt", "sudo {c}", "stdbuf -o0 {c}",
]
GENERATED = sorted({w.format(c=c) for w in WRAPPERS for c in WRITES if "'" not in c or "'" not in w})
ASKING = [command for verdict, command in ROWS if verdict.startswith("ask")]
READ_ONLY = [command for verdict, command in ROWS if verdict == "ok"]


class Answers:
    def __init__(self, decision: str) -> None:
        self.decision = decision
        self.asked: list[str] = []

    def approve(self, query):
        self.asked.append(query.spec)
        return self.decision


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("modes"))


def test_the_table_is_wide() -> None:
    assert len(GENERATED) >= 1500 and len(ASKING) >= 200 and len(READ_ONLY) >= 60


def _refused_in_plan(commands: list[str], project: Path) -> list[str]:
    """The commands plan mode did not refuse (or asked about), with --allow shell and an "always" in force."""
    shell = ShellTool()
    wrong = []
    for command in commands:
        verdict = classify(command, root=project)
        answers = Answers("yes")
        allowed = [Permission("shell", "--allow"), Permission("shell", "config")]
        allowed += [Permission(spec.strip(), "answer") for spec in verdict.spec.split(", ") if spec.strip()]
        gate = ApprovalGate(answers, allowed, PermissionMode("plan"))
        ctx = ToolContext(root=project, cancel=CancelToken(), approver=answers)
        refusal = gate.authorize(shell, {"command": command}, command, ctx)
        if refusal is None or not refusal.startswith("plan mode: shell was not run") or answers.asked:
            wrong.append(command)
    return wrong


def _asked_in_accept_edits(commands: list[str], project: Path) -> list[str]:
    shell = ShellTool()
    wrong = []
    for command in commands:
        answers = Answers("no")
        gate = ApprovalGate(answers, (), PermissionMode("accept-edits"))
        ctx = ToolContext(root=project, cancel=CancelToken(), approver=answers)
        refusal = gate.authorize(shell, {"command": command}, command, ctx)
        if refusal is None or len(answers.asked) != 1:
            wrong.append(command)
    return wrong


def _chunks(items: list[str], n: int) -> list[list[str]]:
    return [items[i::n] for i in range(n)]


@pytest.mark.parametrize("chunk", range(8))
def test_every_generated_write_is_one_the_classifier_asks_for(chunk: int, project: Path) -> None:
    """So the rows below mean something: not one of them runs unasked in ask mode."""
    ran = [c for c in _chunks(GENERATED, 8)[chunk] if classify(c, root=project).read_only]
    assert ran == []


@pytest.mark.parametrize("chunk", range(8))
def test_plan_refuses_every_generated_write_even_when_allowed(chunk: int, project: Path) -> None:
    assert _refused_in_plan(_chunks(GENERATED, 8)[chunk], project) == []


def test_plan_refuses_every_command_of_the_shell_table_that_asks(project: Path) -> None:
    assert _refused_in_plan(ASKING, project) == []


def test_plan_runs_the_read_only_commands_of_the_shell_table(project: Path) -> None:
    shell = ShellTool()
    ran = []
    for command in READ_ONLY:
        answers = Answers("no")
        gate = ApprovalGate(answers, (), PermissionMode("plan"))
        if gate.authorize(shell, {"command": command}, command,
                          ToolContext(root=project, cancel=CancelToken(), approver=answers)) is None:
            ran.append(command)
    # the table's read-only rows as this machine's classifier judges them (a few rg rows depend on the installed rg)
    judged = [c for c in READ_ONLY if classify(c, root=project).read_only]
    assert ran == judged and len(judged) >= 60


@pytest.mark.parametrize("chunk", range(8))
def test_accept_edits_asks_for_every_generated_write(chunk: int, project: Path) -> None:
    assert _asked_in_accept_edits(_chunks(GENERATED, 8)[chunk], project) == []


def test_accept_edits_asks_for_every_command_of_the_shell_table_that_asks(project: Path) -> None:
    assert _asked_in_accept_edits(ASKING, project) == []
