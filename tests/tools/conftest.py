from __future__ import annotations

from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.ledger import FileLedger


class ScriptedApprover:
    """Answers approvals from a fixed decision and records every query and question."""

    def __init__(self, decision: str = "no", answer: str | None = None) -> None:
        self.decision = decision
        self.answer = answer
        self.queries: list = []
        self.questions: list = []

    def approve(self, query):
        self.queries.append(query)
        return self.decision

    def confirm_continue(self, rounds, agent_id=None):
        return False

    def ask(self, questions, agent_id=None):
        self.questions.append(questions)
        return self.answer


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    r.mkdir()
    return r.resolve()


@pytest.fixture
def approver() -> ScriptedApprover:
    return ScriptedApprover()


@pytest.fixture
def ctx(root: Path, approver: ScriptedApprover) -> ToolContext:
    emitted: list = []
    out: list[str] = []
    c = ToolContext(root=root, cancel=CancelToken(), approver=approver, emit=emitted.append, output=out.append,
                    ledger=FileLedger())
    c.emitted = emitted  # type: ignore[attr-defined]
    c.outputs = out  # type: ignore[attr-defined]
    return c
