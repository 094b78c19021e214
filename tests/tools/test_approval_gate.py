"""The approval gate's permissions: origins, matching, revoking; thread-safe."""

from __future__ import annotations

import threading
from pathlib import Path

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, Permission
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext


class Asking:
    """An approver that answers from a list and counts the questions."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    def approve(self, query):
        self.asked.append(query.spec)
        return self.answers.pop(0)


class Writes(BaseTool):
    name = "write_file"
    read_only = False

    def __init__(self, spec: str = "write_file") -> None:
        self.spec = spec

    def approval(self, args, ctx):
        return ApprovalNeed(reason="write_file creates a.txt", spec=self.spec, rule="writes")


def ctx(approver) -> ToolContext:
    return ToolContext(root=Path("."), cancel=CancelToken(), approver=approver)


def test_an_always_answer_is_remembered_with_its_origin_and_revoking_it_asks_again():
    approver = Asking("always", "no")
    gate = ApprovalGate(approver)
    tool = Writes()
    assert gate.authorize(tool, {}, "{}", ctx(approver)) is None
    assert gate.authorize(tool, {}, "{}", ctx(approver)) is None  # not asked again
    assert approver.asked == ["write_file"]
    assert gate.permissions() == [Permission("write_file", "answer")]
    assert gate.revoke("write_file") == Permission("write_file", "answer")
    refusal = gate.authorize(tool, {}, "{}", ctx(approver))
    assert refusal and "did not approve" in refusal and approver.asked == ["write_file", "write_file"]


def test_flag_and_config_specs_cover_their_tool_but_an_answer_covers_its_exact_spec():
    gate = ApprovalGate(Asking(), [Permission("shell", "config")])
    gate.grant("shell:git commit", "answer")  # already covered, but listed as its own permission
    gate.grant("web_fetch:10.0.0.1", "answer")
    assert gate.allowed_by("shell:rm -rf x") == Permission("shell", "config")
    assert gate.allowed_by("web_fetch:10.0.0.1") == Permission("web_fetch:10.0.0.1", "answer")
    assert gate.allowed_by("web_fetch:10.0.0.2") is None
    gate.grant("web_fetch", "--allow")
    assert gate.allowed_by("web_fetch:10.0.0.2") == Permission("web_fetch", "--allow")


def test_grant_keeps_the_first_origin_and_revoke_all_can_pick_an_origin():
    gate = ApprovalGate(Asking(), [Permission("edit", "config")])
    gate.grant("edit", "answer")
    gate.grant("write_file", "answer")
    gate.grant("shell:make", "--allow")
    assert [p.origin for p in gate.permissions()] == ["config", "answer", "--allow"]
    assert gate.revoke("nope") is None
    assert gate.revoke_all("answer") == [Permission("write_file", "answer")]
    assert [p.spec for p in gate.revoke_all()] == ["edit", "shell:make"] and gate.permissions() == []


def test_granting_and_revoking_from_many_threads_loses_nothing():
    gate = ApprovalGate(Asking())

    def work(n: int) -> None:
        for i in range(200):
            gate.grant(f"shell:cmd{n}-{i}", "answer")
            if i % 2:
                assert gate.revoke(f"shell:cmd{n}-{i}") is not None

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(gate.permissions()) == 4 * 100
