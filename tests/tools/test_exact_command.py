"""#23: "always" on a shell command remembers that exact command first; the broader rule is its own choice."""

from __future__ import annotations

import json
import string

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, PolicyApprover
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.exact_command import exact_spec, is_exact, offered, shown_rule
from mrsmith_tui.tools.shell.tool import ShellTool


class Asking:
    """Answers from a list; keeps every query."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list = []

    def approve(self, query):
        self.asked.append(query)
        return self.answers.pop(0)


def ask(gate: ApprovalGate, approver, tmp_path, command: str) -> str | None:
    ctx = ToolContext(root=tmp_path, cancel=CancelToken(), approver=approver)
    return gate.authorize(ShellTool(), {"command": command}, json.dumps({"command": command}), ctx)


def test_always_on_a_command_remembers_that_command_not_every_rm(tmp_path):
    approver = Asking("always", "no")
    gate = ApprovalGate(approver)
    assert ask(gate, approver, tmp_path, "rm -rf build") is None
    assert [p.spec for p in gate.permissions()] == ["shell=rm -rf build"]
    assert ask(gate, approver, tmp_path, "  rm -rf build  ") is None  # the same command: not asked again
    assert len(approver.asked) == 1
    assert ask(gate, approver, tmp_path, "rm -rf dist") is not None  # another rm asks
    first = approver.asked[0]
    assert (first.spec, first.exact) == ("shell:rm", "shell=rm -rf build")


def test_the_broader_rule_is_its_own_choice(tmp_path):
    approver = Asking("always_rule")
    gate = ApprovalGate(approver)
    assert ask(gate, approver, tmp_path, "rm -rf build") is None
    assert [p.spec for p in gate.permissions()] == ["shell:rm"]
    assert ask(gate, approver, tmp_path, "rm -rf dist") is None and len(approver.asked) == 1


def test_a_command_whose_rule_is_its_whole_text_offers_no_broader_rule(tmp_path):
    approver = Asking("always")
    gate = ApprovalGate(approver)
    assert ask(gate, approver, tmp_path, "echo hi > notes.txt") is None
    (query,) = approver.asked
    assert query.exact == "" and query.spec == "shell:echo hi > notes.txt"
    assert [p.spec for p in gate.permissions()] == ["shell:echo hi > notes.txt"]  # as before


@pytest.mark.parametrize("allowed, command, runs", [
    ("shell=rm -rf build", "rm -rf build", True),
    ("shell=rm -rf build", "rm -rf dist", False),
    ("shell=rm -rf build", "rm -rf build; rm -rf dist", False),
    ("shell:rm", "rm -rf dist", True),  # an older rule entry still allows every rm
    ("shell:echo hi > notes.txt", "echo hi > notes.txt", True),  # an older whole-command entry: that command
    ("shell:echo hi > notes.txt", "echo ho > notes.txt", False),
    ("shell", "rm -rf dist", True),
])
def test_allow_entries_old_and_exact(tmp_path, allowed, command, runs):
    approver = Asking("no")
    gate = ApprovalGate(approver)
    gate.grant(allowed, "--allow")
    assert (ask(gate, approver, tmp_path, command) is None) is runs
    headless = PolicyApprover(allow=[allowed])
    assert (ask(ApprovalGate(headless), headless, tmp_path, command) is None) is runs


def test_an_answer_for_one_exact_command_never_covers_a_longer_one(tmp_path):
    # a wide table: every command near the approved one asks again
    approver = Asking("always", *(["no"] * 400))
    gate = ApprovalGate(approver)
    assert ask(gate, approver, tmp_path, "rm -rf build") is None
    near = [f"rm -rf build{s}" for s in ("/x", " x", "2", ";rm -rf /", " && rm -rf ~", "\nrm x", "*", " -v")]
    near += [f"rm -rf {name}" for name in ("Build", "buil", "build.", "./build", "/build", "'build'")]
    near += [f"rm -r{flag} build" for flag in "abcdeghijklmnopqstuvwxyz"]
    near += [f"rm -rf build{ch}" for ch in string.punctuation + string.ascii_letters + string.digits]
    near += [f"rm -rf {ch}build" for ch in string.ascii_letters + string.digits + "-_.~"]
    for command in near:
        assert ask(gate, approver, tmp_path, command) is not None, command
    assert len(approver.asked) == 1 + len(near)


def test_the_helpers():
    assert exact_spec("shell", "  rm -rf build \n") == "shell=rm -rf build"
    assert is_exact("shell=rm x") and not is_exact("shell:rm") and not is_exact("shell:a=b") and not is_exact("=x")
    assert offered("shell", "rm x", "shell:rm") == "shell=rm x"
    assert offered("shell", "echo hi > a", "shell:echo hi > a") == ""
    assert shown_rule("shell:git commit, shell:rm") == "git commit, rm" and shown_rule("write_file") == "write_file"
