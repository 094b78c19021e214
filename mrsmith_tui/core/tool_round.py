"""One tool round: the calls of one answer run in order, each through its checks and the approval gate.

Every call gets exactly one result in the history (the next request is malformed without it):
its tool's output, a refusal, or why it did not run (past maxToolCallsPerTurn, the session's
budget spent, cancelled). Results are redacted before the model sees them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.cancel import Cancelled, CancelToken
from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.argcheck import check_arguments, parse_arguments
from mrsmith_tui.core.budget import Spend, ToolCallBudget
from mrsmith_tui.history import HistoryEntry, ToolResultEntry
from mrsmith_tui.provider.types import MAX_ARGUMENT_CHARS, ToolCall
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.tree_secrets import learn_tree_secrets
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import Tool, ToolContext, ToolResult
from mrsmith_tui.tools.registry import ToolRegistry

__all__ = ["ToolRound"]


@dataclass(frozen=True)
class ToolRound:
    """What one round works with, taken from its Conversation when the round starts.

    `post` shows a Msg and keeps it in the transcript; `record` only keeps it; `sink` only shows it.
    """

    agent: AgentConfig
    tools: ToolRegistry
    ctx: ToolContext
    gate: ApprovalGate
    budget: ToolCallBudget
    history: list[HistoryEntry]
    sink: Callable[[msgs.Msg], None]
    record: Callable[[msgs.Msg], None]

    def post(self, msg: msgs.Msg) -> None:
        self.sink(msg)
        self.record(msg)

    def _warn(self, text: str, code: str) -> None:
        self.post(msgs.Warning(text=text, code=code))

    def run(self, run_id: str, calls: Sequence[ToolCall], cancel: CancelToken) -> None:
        """Every call gets its result in the history, in order: run, refused, or told why it did not run."""
        cap = self.agent.max_tool_calls_per_turn
        if len(calls) > cap:
            self._warn(f"the model asked for {len(calls)} tool calls in one answer; the first {cap} run, "
                       f"{len(calls) - cap} are not run (maxToolCallsPerTurn)", "turn-cap")
        for n, call in enumerate(calls):
            if n >= cap:
                # Every tool call needs its result; these are told why without being shown one by one.
                self._tool_result(run_id, call, ToolResult.error(f"not run: at most {cap} tool calls per turn"))
                continue
            if cancel.cancelled:
                # Every tool call needs its result, or the next request is malformed.
                self._tool_result(run_id, call, ToolResult.error("cancelled by the person before it ran"))
                continue
            spend = self.budget.try_use()
            if not spend.allowed:
                self._tool_result(run_id, call, ToolResult.error("the session's tool-call budget is spent; this call did not run"))
                continue
            self._report_budget(spend)
            self._run_one(run_id, call, cancel)

    def _report_budget(self, spend: Spend) -> None:
        self.sink(msgs.ToolBudget(used=spend.used, limit=spend.limit))
        if spend.warn_80:
            self._warn(f"{spend.used} of {spend.limit} tool calls of this session used (maxToolCallsPerSession)", "budget-80")
        if spend.spent:
            self._warn(f"all {spend.limit} tool calls of this session are used; the model will summarise", "budget-100")

    def _run_one(self, run_id: str, call: ToolCall, cancel: CancelToken) -> None:
        tool = self.tools.get(call.name)
        args, problem = parse_arguments(call.arguments)
        summary = ""
        if tool is not None and args is not None:
            try:
                summary = tool.summary(args)
            except Exception:
                summary = ""
        self.sink(msgs.ToolCallStarted(call_id=call.id, name=call.name, arguments=call.arguments, summary=summary))
        began = time.monotonic()
        denied = False
        if call.too_large:
            result = ToolResult.error(
                f"{call.name}: arguments too large ({call.too_large} characters; at most "
                f"{MAX_ARGUMENT_CHARS // (1024 * 1024)} MiB): not run. Write big content in several smaller calls"
            )
        elif tool is None:
            known = ", ".join(self.tools.names()) or "none"
            result = ToolResult.error(f"unknown tool {call.name!r}; the tools are: {known}")
        elif args is None:
            result = ToolResult.error(f"{call.name}: {problem}")
        elif (problem := check_arguments(args, tool.parameters)) is not None:
            result = ToolResult.error(f"{call.name}: {problem}")
        else:
            # elapsed is the tool's own time: the minutes a person took to approve are not the tool's.
            result, denied, began = self._authorized_run(tool, args, call, cancel)
        self._tool_result(run_id, call, result, elapsed=time.monotonic() - began, denied=denied, announce=True)

    def _authorized_run(self, tool: Tool, args: dict[str, Any], call: ToolCall, cancel: CancelToken) -> tuple[ToolResult, bool, float]:
        """(result, denied, when the tool began to run: after any approval)"""
        ctx = self.ctx
        ctx.cancel = cancel
        began = time.monotonic()
        call_id = call.id

        def output(text: str) -> None:
            self.sink(msgs.ToolOutput(call_id=call_id, text=text))

        ctx.output = output
        try:
            refusal = self.gate.authorize(tool, args, call.arguments, ctx)
            if refusal is not None:
                return ToolResult(content=refusal, ok=False), True, time.monotonic()
            cancel.check()
            learn_tree_secrets(ctx.root)  # once per root: what prints a .env's values prints [redacted]
            began = time.monotonic()
            result = tool.run(args, ctx)
            if not isinstance(result, ToolResult):
                result = ToolResult(content=str(result))
            return result, False, began
        except Cancelled:
            return ToolResult.error("cancelled by the person"), False, began
        except Exception as e:  # a broken tool must not end the run
            return ToolResult.error(f"{call.name} failed: {type(e).__name__}: {e}"), False, began

    def _tool_result(
        self, run_id: str, call: ToolCall, result: ToolResult, *, elapsed: float = 0.0, denied: bool = False,
        announce: bool = False,
    ) -> None:
        # The model never needs mrsmith's own keys (or the environment's secrets): a tool that read one anyway
        # (a config file, under --yes) hands back [redacted].
        result = PROCESS.redact_value(result)
        finished = msgs.ToolCallFinished(
            call_id=call.id, name=call.name, ok=result.ok, result=result.content, exit_code=result.exit_code,
            diff=result.diff, elapsed=elapsed, denied=denied,
        )
        self.history.append(ToolResultEntry(call_id=call.id, name=call.name, content=result.content))
        if announce:
            self.post(finished)
        else:  # a call that never ran (past the cap or the budget, or cancelled) is not shown, but it is recorded
            self.record(finished)
