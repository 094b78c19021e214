"""The approval gate in front of every tool call, and the policy approver for headless runs.

The gate asks a tool whether a call needs the person (`tool.approval`), remembers the
specs answered "always" for the rest of the session, and otherwise asks the Approver.
A refusal is returned as text the model can read; the run goes on.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable

from mrsmith_tui.msgs import Question
from mrsmith_tui.tools.base import ApprovalQuery, Approver, Decision, Tool, ToolContext


class ApprovalGate:
    """One per session: "always" answers hold for every agent of the session."""

    def __init__(self, approver: Approver) -> None:
        self.approver = approver
        self._always: set[str] = set()
        self._lock = threading.Lock()

    def always_allowed(self, spec: str) -> bool:
        with self._lock:
            return spec in self._always

    def authorize(self, tool: Tool, args: dict[str, Any], raw_args: str, ctx: ToolContext) -> str | None:
        """None when the call may run; otherwise the refusal for the model."""
        need = tool.approval(args, ctx)
        if need is None or self.always_allowed(need.spec):
            return None
        query = ApprovalQuery(
            tool=tool.name, arguments=raw_args, reason=need.reason, spec=need.spec, diff=need.diff, agent_id=ctx.agent_id,
            rule=need.rule,
        )
        decision = self.approver.approve(query)
        if decision == "always":
            with self._lock:
                self._always.add(need.spec)
            return None
        if decision == "yes":
            return None
        return f"The person did not approve this {tool.name} call ({need.reason}). Do not retry it as is; ask or choose another way."


def spec_matches(allowed: str, spec: str) -> bool:
    """`--allow shell` covers every shell spec; `--allow 'shell:git commit'` that command only."""
    if allowed == spec:
        return True
    tool, _, rest = spec.partition(":")
    return bool(rest) and allowed == tool


class PolicyApprover:
    """Headless: no person is there. `--yes` approves everything, `--allow SPEC` that spec."""

    def __init__(self, *, yes: bool = False, allow: Iterable[str] = ()) -> None:
        self.yes = yes
        self.allow = tuple(allow)

    def approve(self, query: ApprovalQuery) -> Decision:
        if self.yes or any(spec_matches(a, query.spec) for a in self.allow):
            return "yes"
        return "no"

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool:
        return False  # headless: the round cap stops the run with a note

    def ask(self, questions: tuple[Question, ...], agent_id: str | None = None) -> str | None:
        return None
