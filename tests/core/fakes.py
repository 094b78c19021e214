"""Fakes for core tests: a scripted Provider, a scripted Approver, small tools."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.provider.chat_wire import request_messages
from mrsmith_tui.provider.types import (
    ChatRequest,
    ProviderError,
    StreamDone,
    StreamEvent,
    StreamReasoning,
    StreamText,
    ToolCall,
)
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult

Script = Callable[[ChatRequest, CancelToken], Iterator[StreamEvent]]


def answer(text: str, *, reasoning: str = "", usage: UsageInfo | None = None) -> Script:
    """A text answer, streamed in two pieces (reasoning first when given)."""

    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        if reasoning:
            yield StreamReasoning(reasoning)
        half = len(text) // 2
        yield StreamText(text[:half])
        yield StreamText(text[half:])
        yield StreamDone(text, reasoning, (), "stop", usage or UsageInfo(prompt_tokens=100, completion_tokens=10))

    return script


def calls(*specs: tuple[str, Any], reasoning: str = "", content: str = "", usage: UsageInfo | None = None) -> Script:
    """The model calls tools: specs are (name, arguments dict or raw string)."""

    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        if reasoning:
            yield StreamReasoning(reasoning)
        if content:
            yield StreamText(content)
        tool_calls = tuple(
            ToolCall(id=f"call_{i + 1}", name=name, arguments=args if isinstance(args, str) else json.dumps(args))
            for i, (name, args) in enumerate(specs)
        )
        yield StreamDone(content, reasoning, tool_calls, "tool_calls", usage or UsageInfo(prompt_tokens=100, completion_tokens=10))

    return script


def failing(message: str, *, partial: str = "") -> Script:
    def script(req: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        if partial:
            yield StreamText(partial)
        raise ProviderError(message, partial_content=partial)

    return script


class Sent:
    """A recorded request: the ChatRequest's fields, and `messages`, what the Chat Completions wire sends for it."""

    def __init__(self, request: ChatRequest) -> None:
        self.request = request
        self.messages = request_messages(request)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.request, name)


class FakeProvider:
    """Plays one script per call (the last one repeats); records every request."""

    name = "fake"

    def __init__(self, *scripts: Script) -> None:
        self.scripts = list(scripts)
        self.requests: list[Sent] = []

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        n = len(self.requests)
        self.requests.append(Sent(request))
        script = self.scripts[min(n, len(self.scripts) - 1)]
        return script(request, cancel)


class ScriptedApprover:
    def __init__(self, *, decision: str = "yes", continues: list[bool] | None = None) -> None:
        self.decision = decision
        self.continues = list(continues or [])
        self.queries: list = []
        self.continue_asks: list[int] = []

    def approve(self, query):
        self.queries.append(query)
        return self.decision

    def confirm_continue(self, rounds: int, agent_id=None) -> bool:
        self.continue_asks.append(rounds)
        return self.continues.pop(0) if self.continues else False

    def ask(self, questions, agent_id=None):
        return None


class EchoTool(BaseTool):
    name = "echo"
    description = "Echo the text back."
    def __init__(self) -> None:
        self.parameters = {
            "type": "object",
            "properties": {"text": {"type": "string"}, "times": {"type": "integer"}},
            "required": ["text"],
        }
        self.calls: list[dict] = []

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        self.calls.append(args)
        ctx.output(f"echoing {args['text']}\n")
        return ToolResult(content=args["text"] * args.get("times", 1))


class BoomTool(BaseTool):
    name = "boom"
    description = "Always raises."

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        raise RuntimeError("kaboom")


class WriteTool(BaseTool):
    """Needs approval (not read-only)."""

    name = "write"
    description = "Pretend to write."
    read_only = False

    def __init__(self) -> None:
        self.ran = 0

    def approval(self, args, ctx):
        return ApprovalNeed(reason="write changes the filesystem", spec="write")

    def run(self, args, ctx) -> ToolResult:
        self.ran += 1
        return ToolResult(content="written")
