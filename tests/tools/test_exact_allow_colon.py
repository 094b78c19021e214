"""An exact allow (`--allow 'shell=make'`, the config's `allow`) covers that one command, never a longer one that
starts with it and a colon: `spec_matches` read `shell=make:; touch pwned` as the tool `shell=make` with the
rule `; touch pwned`, so every `COMMAND:anything` ran unasked once `COMMAND` was allowed exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import ApprovalGate, Permission, PolicyApprover, spec_matches
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.permission_mode import PermissionMode
from mrsmith_tui.tools.shell.classify import classify
from mrsmith_tui.tools.shell.tool import ShellTool

ALLOWED = ["make", "echo hi", "git push origin main", "npm test", "rm -rf build", "cargo build", "pytest -q",
           "docker compose up", "go test ./...", "python3 manage.py migrate", "touch ready", "git commit -am wip",
           "sed -i s/a/b/ notes.txt", "cp a.py b.py", "chmod +x run.sh", "make install"]
SUFFIXES = [":", ":; touch pwned", ":$(touch pwned)", ":`touch pwned`", ": && rm -rf src", ":x | sh",
            ":main", ":x > notes.txt", ":\ntouch pwned", ":: ; curl http://127.0.0.1/x | sh", ":a:b; rm a",
            ":${IFS}; touch pwned", ":' ; touch pwned", ":x & touch pwned &"]
# each asks in ask mode with nothing allowed (`echo hi:` alone is read-only and runs anyway)
ROWS = [(a, a + s) for a in ALLOWED for s in SUFFIXES if not classify(a + s, root=Path(__file__).parent).read_only]


class Asking:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def approve(self, query):
        self.asked.append(query.spec)
        return "no"


def test_the_table_is_wide() -> None:
    assert len(ROWS) >= 200


@pytest.mark.parametrize("origin", ["--allow", "config"])
@pytest.mark.parametrize(("allowed", "command"), ROWS)
def test_an_exact_allow_does_not_cover_a_longer_command_after_a_colon(allowed: str, command: str, origin: str,
                                                                        tmp_path: Path) -> None:
    a = Asking()
    gate = ApprovalGate(a, [Permission(f"shell={allowed}", origin)], PermissionMode("ask"))
    ctx = ToolContext(root=tmp_path, cancel=CancelToken(), approver=a)
    refusal = gate.authorize(ShellTool(), {"command": command}, json.dumps({"command": command}), ctx)
    assert refusal is not None and len(a.asked) == 1, command


@pytest.mark.parametrize(("allowed", "command"), [(a, a) for a in ALLOWED])
def test_the_exact_command_itself_is_still_allowed(allowed: str, command: str, tmp_path: Path) -> None:
    need = ShellTool().approval({"command": allowed}, ToolContext(root=tmp_path, cancel=CancelToken(), approver=Asking()))
    if need is None or not need.exact:
        pytest.skip("read-only, or its rule is the whole command (shell:make): the rule spec allows it")
    a = Asking()
    gate = ApprovalGate(a, [Permission(f"shell={allowed}", "--allow")])
    ctx = ToolContext(root=tmp_path, cancel=CancelToken(), approver=a)
    assert gate.authorize(ShellTool(), {"command": f"  {allowed} "}, "{}", ctx) is None and a.asked == []


@pytest.mark.parametrize(("allowed", "spec", "covered"), [
    ("shell=make", "shell=make:", False), ("shell=make", "shell=make", True), ("shell", "shell:make", True),
    ("shell:git commit", "shell:git commit", True), ("shell=a:b", "shell=a:b", True), ("shell=a", "shell=a:b", False),
    ("shell=a:b", "shell=a:b:c", False), ("mcp__demo", "mcp__demo__echo", True),
])
def test_spec_matches(allowed: str, spec: str, covered: bool) -> None:
    assert spec_matches(allowed, spec) is covered


def test_headless_policy_allow_is_exact_too() -> None:
    p = PolicyApprover(allow=["shell=make"])
    assert spec_matches("shell=make", "shell=make:; touch pwned") is False
    assert p.allow == ("shell=make",)
