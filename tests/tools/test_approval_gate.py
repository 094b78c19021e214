"""The approval gate's permissions: origins, matching, revoking; thread-safe."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, Permission, unknown_allowed
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


KNOWN = ["shell", "read_file", "write_file", "edit", "shout", "mcp__demo__echo", "mcp__demo__write_note"]


@pytest.mark.parametrize(("spec", "settled", "errors", "warnings"), [
    ("write_file", True, [], []),
    ("shell:git commit", True, [], []),
    ("shell=make test", True, [], []),
    ("read_file:.env", True, [], []),
    ("shout", True, [], []),  # a drop-in tool of this session
    ("mcp__demo", True, [], []),  # every tool of a connected server
    ("mcp__demo__echo", True, [], []),
    ("wrte_file", True, ["--allow wrte_file: no tool is called wrte_file (did you mean write_file?)"], []),
    ("wrte_file:x.py", False, ["--allow wrte_file:x.py: no tool is called wrte_file (did you mean write_file?)"], []),
    ("zzz", True, ["--allow zzz: no tool is called zzz"], []),
    ("mcp__demo__ecko", True, ["--allow mcp__demo__ecko: MCP server demo has no tool ecko (its tools: echo, write_note)"], []),
    ("mcp__docs__search", True, [], ["--allow mcp__docs__search: no MCP server docs is connected, so it allows nothing in this run"]),
    ("mcp__docs__search", False, [], []),  # servers still starting (the UI): nothing can be said yet
])
def test_an_allow_spec_naming_no_tool(spec, settled, errors, warnings):
    assert unknown_allowed([spec], KNOWN, settled=settled) == (errors, warnings)
