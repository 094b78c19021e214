"""The tool loop for one agent's context.

One `run_turn` is one user turn with all its tool rounds: call the provider, stream the
answer as block Msgs, run the tool calls in order (approval gate, then the tool), feed the
results back, and repeat until the model answers with text. Every outcome ends with
exactly one RunEnded. Used by AgentSession for the person's agent and, with their own
history and transcript, by sub-agents and background agents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.cancel import Cancelled, CancelToken
from mrsmith_tui.config.schema import AgentConfig, Thinking
from mrsmith_tui.config.vendors import protocol_of, thinking_for, vendor
from mrsmith_tui.core.answer_blocks import answer_entry, kept_and_recorded, redacted
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.context_window import Builder, TokenEstimator, context_entries
from mrsmith_tui.core.run_ids import IdSource
from mrsmith_tui.core.small_context import compact_specs, is_small
from mrsmith_tui.core.stream import BlockStream
from mrsmith_tui.core.tool_round import ToolRound
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.history import AssistantEntry, HistoryEntry, UserEntry, assistant
from mrsmith_tui.provider.types import (
    ChatRequest,
    Provider,
    ProviderError,
    StreamDone,
    StreamNotice,
    StreamReasoning,
    StreamText,
    ToolCall,
)
from mrsmith_tui.session.transcript import TranscriptWriter
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

BUDGET_SPENT_INSTRUCTION = (
    "[mrsmith] The tool-call budget of this session is spent: no more tools can run. Do not call tools. "
    "Summarise what you did and found so far and what is left to do, then tell the person to send "
    "/reset to start over or `continue` to grant a fresh budget."
)


@dataclass(frozen=True)
class RunResult:
    final_text: str
    cancelled: bool = False
    error: str | None = None
    reason: str = ""  # "max_rounds": stopped by the tool-round cap


# The Messages stop reasons that end an answer short of what was asked (Anthropic's "Handling stop reasons").
_STOP_WARNINGS = {
    "refusal": "the model refused to answer (stop reason: refusal)",
    "model_context_window_exceeded": "answer cut: the context window is full (stop reason: model_context_window_exceeded)",
    "pause_turn": "the server paused a long turn (stop reason: pause_turn); send a message to let it go on",
}

class _Streamed:
    """One answer on its way: its run and the blocks it streams as (when they began, their ids)."""

    def __init__(self, run_id: str, blocks: BlockStream) -> None:
        self.run_id = run_id
        self.blocks = blocks

    def recorded(self, entry: AssistantEntry, model: str) -> msgs.AnswerRecorded:
        ids = self.blocks.block_ids
        return msgs.AnswerRecorded(run_id=self.run_id, entry=entry, model=model, started=self.blocks.started,
                                   reasoning_block=ids.get("reasoning", ""), text_block=ids.get("text", ""))


@dataclass
class _Answer:
    content: str
    reasoning: str
    tool_calls: tuple[ToolCall, ...]


class Conversation:
    def __init__(
        self,
        agent: AgentConfig,
        provider: Provider,
        tools: ToolRegistry,
        tool_ctx: ToolContext,
        gate: ApprovalGate,
        sink: Callable[[msgs.Msg], None],
        transcript: TranscriptWriter | None = None,
        budget: ToolCallBudget | None = None,
        *,
        ledger: UsageLedger | None = None,
        ids: IdSource | None = None,
        history: list[HistoryEntry] | None = None,
        system_prompt: str | Callable[[], str] = "",
        context_builder: Builder | None = None,
        context_window_ratio: float = 0.75,
        include_usage: bool = True,
    ) -> None:
        self.agent = agent
        self.provider = provider
        self.tools = tools
        self.tool_ctx = tool_ctx
        self.gate = gate
        self.sink = sink
        self.transcript = transcript
        self.budget = budget if budget is not None else ToolCallBudget(agent.max_tool_calls_per_session)
        self.ledger = ledger or UsageLedger(sink, max_context_tokens=agent.max_context_tokens, budget=self.budget)
        self.ids = ids or IdSource()
        self.history: list[HistoryEntry] = history if history is not None else []
        self._system_prompt = system_prompt
        self.context_builder: Builder = context_builder or agent.context_builder or "full"
        self.context_window_ratio = context_window_ratio
        self.include_usage = include_usage
        self.protocol = protocol_of(provider)
        self.estimator = TokenEstimator(4.0 / vendor(self.protocol).chars_per_token)
        self.reasoning_effort: str | None = agent.reasoning_effort
        self._pending_context: list[msgs.ContextAdded] = []
        self._running = False
        self._ended_reason, self._rounds, self._skipped_chunks = "", 0, 0

    # ------------------------------------------------------------------ helpers

    @property
    def system_prompt(self) -> str:
        p = self._system_prompt
        return p() if callable(p) else p

    def _record(self, msg: msgs.Msg) -> None:
        """Keep `msg` in the transcript (session.records: the complete Msgs and the Recorded ones)."""
        if self.transcript is not None:
            self.transcript.append(msg)

    def _post(self, msg: msgs.Msg) -> None:
        """Post `msg` and keep it in the transcript."""
        self.sink(msg)
        self._record(msg)

    def _warn(self, text: str, code: str) -> None:
        self._post(msgs.Warning(text=text, code=code))

    def add_context(self, added: msgs.ContextAdded | str) -> None:
        """Put `added.entry` (or the text) into the context: a loaded skill body. It is posted and recorded.

        During a run it waits for the end of the current tool round, so it never lands
        between an assistant's tool calls and their results.
        """
        if isinstance(added, str):
            added = msgs.ContextAdded(entry=UserEntry(text=added, kind="context"))
        self._pending_context.append(added)
        if not self._running:
            self._flush_context()

    def _flush_context(self) -> None:
        while self._pending_context:
            added = self._pending_context.pop(0)
            self.history.append(added.entry)
            self._post(added)

    # ------------------------------------------------------------------ one turn

    def run_turn(
        self,
        prompt: str,
        cancel: CancelToken,
        *,
        attachments: Sequence[tuple[str, str]] = (),
        run_id: str | None = None,
    ) -> RunResult:
        run_id = run_id or self.ids.next("run")
        self.tool_ctx.cancel = cancel
        self._post(msgs.UserPrompt(run_id=run_id, text=prompt))
        self._post(msgs.RunStarted(run_id=run_id, agent=self.agent.name, model=self.agent.model))
        entry = UserEntry(text=with_attachments(prompt, attachments))
        self.history.append(entry)
        self._post(msgs.PromptRecorded(run_id=run_id, entry=entry, attachments=tuple(label for label, _ in attachments)))
        if prompt.strip().lower() == "continue" and self.budget.exhausted:
            self.budget.refill()
            self.sink(msgs.Notice(text="tool-call budget refilled"))
            self.sink(msgs.ToolBudget(used=self.budget.used, limit=self.budget.limit))

        final, cancelled, error = "", False, None
        self._ended_reason, self._rounds, self._skipped_chunks = "", 0, 0
        self._running = True
        try:
            final = self._loop(run_id, cancel)
        except Cancelled:
            cancelled = True
        except ProviderError as e:
            if cancel.cancelled:  # closing the response on cancel may surface as a cut stream
                cancelled = True
            else:
                error = e.message
        except Exception as e:  # a bug must still end the run with one RunEnded, never hang a frontend
            error = f"internal error: {type(e).__name__}: {e}".splitlines()[0]
        finally:
            self._running = False
        self._flush_context()
        if cancel.cancelled:
            cancelled = True
        if error is not None:
            self._post(msgs.Error(text=error))
        reason = self._ended_reason if not (cancelled or error) else ""
        self._post(msgs.RunEnded(run_id=run_id, cancelled=cancelled, error=error, reason=reason,
                                 skipped_chunks=self._skipped_chunks))
        return RunResult(final_text=final, cancelled=cancelled, error=error, reason=reason)

    def _loop(self, run_id: str, cancel: CancelToken) -> str:
        rounds = total = 0  # tool rounds in this set (maxToolRounds each), and in the whole turn
        while True:
            cancel.check()
            if self.budget.exhausted:
                return self._call_model(run_id, cancel, offer_tools=False, extra=BUDGET_SPENT_INSTRUCTION).content
            answer = self._call_model(run_id, cancel, offer_tools=True)
            if not answer.tool_calls:
                return answer.content
            self._tool_round().run(run_id, answer.tool_calls, cancel)
            cancel.check()
            rounds += 1
            total += 1
            self._rounds = total
            if rounds >= self.agent.max_tool_rounds and not self.budget.exhausted:
                if self.gate.approver.confirm_continue(total, self.tool_ctx.agent_id):
                    rounds = 0
                    continue
                cancel.check()
                self._ended_reason = "max_rounds"
                self.sink(msgs.Notice(text=f"stopped after {total} tool rounds (maxToolRounds); send a prompt to go on"))
                return answer.content

    # ------------------------------------------------------------------ one model call

    def _request(self, offer_tools: bool, extra: str | None, trim_to: int = 0) -> ChatRequest:
        """`trim_to`: after a "does not fit" answer, keep only the newest history within that many tokens."""
        specs = self.tool_specs() if offer_tools else []
        window = int(self.context_window_ratio * self.agent.max_context_tokens)
        if trim_to:
            window = min(window, trim_to)
        system_prompt = self.system_prompt
        entries = context_entries(
            system_prompt,
            self.history,
            builder="sliding" if trim_to else self.context_builder,
            thinking=self.thinking,
            window_tokens=window,
            estimator=self.estimator,
            reserved_tokens=self.estimator.count(specs) if specs else 0,
        )
        if extra:
            entries.append(UserEntry(text=extra, kind="context"))
        effort = self.reasoning_effort.strip() if self.reasoning_effort else None
        return ChatRequest(
            model=self.agent.model,
            system_prompt=system_prompt,
            entries=tuple(entries),
            tools=specs,
            thinking=self.thinking,
            reasoning_effort=effort or None,
            include_usage=self.include_usage,
            max_tokens=self.agent.max_tokens,
            cache=self.agent.cache,
            thinking_style=self.agent.thinking_style,
        )

    @property
    def thinking(self) -> Thinking:
        """The agent's `thinking`, or its protocol's default."""
        return thinking_for(self.agent.thinking, self.protocol, self.agent.model)

    def tool_specs(self) -> list[dict[str, Any]]:
        """What is offered: every tool, or on a small context only the needed ones, described briefly."""
        if is_small(self.agent.max_context_tokens):
            return compact_specs(self.tools, self.agent.tools)
        return self.tools.specs()

    def prompt_overhead(self) -> tuple[int, int, int]:
        """(system prompt tokens, tool schema tokens, tools offered): what every request costs up front."""
        specs = self.tool_specs()
        system = self.estimator.context(self.system_prompt, ())
        return system, self.estimator.count(specs) if specs else 0, len(specs)

    def _call_model(self, run_id: str, cancel: CancelToken, *, offer_tools: bool, extra: str | None = None) -> _Answer:
        self._flush_context()
        request = self._request(offer_tools, extra)
        try:
            return self._stream_answer(run_id, request, cancel, offer_tools)
        except ProviderError as e:
            if not e.context_exceeded or e.partial_content or cancel.cancelled:
                raise
            # Too long for the model: once, keep only the newest part of the history that fits.
            limit = min(e.context_limit or self.agent.max_context_tokens, self.agent.max_context_tokens)
            trim_to = max(256, limit // 2 - self.estimator.count(request.tools))
            self.sink(msgs.Notice(text=f"the context did not fit the model's {limit:,} tokens; "
                                       "retrying once with the older turns left out"))
            trimmed = self._request(offer_tools, extra, trim_to=trim_to)
            try:
                answer = self._stream_answer(run_id, trimmed, cancel, offer_tools)
                if self.context_builder != "sliding":  # it will overflow again: keep the newest turns from now on
                    self.context_builder = "sliding"
                    self.sink(msgs.Notice(text="from now on only the newest turns that fit are sent (contextBuilder sliding)"))
                return answer
            except ProviderError as again:
                if not again.context_exceeded:
                    raise
                raise ProviderError(
                    f"the request does not fit the model's context ({limit:,} tokens) even with the older turns "
                    "left out: shorten the prompt or attachments, /reset, or use a model with a larger context"
                ) from None

    def _stream_answer(self, run_id: str, request: ChatRequest, cancel: CancelToken, offer_tools: bool) -> _Answer:
        blocks = BlockStream(self.sink, self.ids)  # every delta goes straight to the sink: nothing in between
        answer = _Streamed(run_id, blocks)
        done: StreamDone | None = None
        try:
            for event in self.provider.stream(request, cancel):
                if cancel.cancelled:
                    break
                if isinstance(event, StreamReasoning):
                    blocks.add("reasoning", event.text)
                elif isinstance(event, StreamText):
                    blocks.add("text", event.text)
                elif isinstance(event, StreamDone):
                    done = event
                elif isinstance(event, StreamNotice):
                    self._notice(event)
        except ProviderError as e:
            blocks.end()
            self._keep_partial(answer, e.partial_content or blocks.content, e.partial_reasoning or blocks.reasoning)
            raise
        except BaseException:
            blocks.end()
            self._keep_partial(answer, blocks.content, blocks.reasoning)
            raise
        blocks.end()
        if done is None:
            self._keep_partial(answer, blocks.content, blocks.reasoning)
            if cancel.cancelled:
                raise Cancelled()
            raise ProviderError(f"provider '{self.provider.name}' ended the stream before finishing the answer")

        calls = done.tool_calls if offer_tools else ()
        content, reasoning = done.content, done.reasoning  # the provider's assembled answer is the authority
        entry = answer_entry(done, offer_tools)
        sent, recorded = kept_and_recorded(entry)  # an echoed key is not sent back (the calls run as given)
        self.history.append(sent)
        self._post(answer.recorded(recorded, self.agent.model))
        self._account(run_id, request, done.usage)
        if done.finish_reason in ("length", "max_tokens"):
            self._warn(f"answer cut at the output limit (max_tokens {done.usage.completion_tokens:,})", "length")
        elif done.finish_reason in _STOP_WARNINGS:
            self._warn(_STOP_WARNINGS[done.finish_reason], done.finish_reason)
        return _Answer(content=content, reasoning=reasoning, tool_calls=calls)

    def _notice(self, event: StreamNotice) -> None:
        if event.kind == "skipped_chunk":
            self._skipped_chunks += 1
            if self._skipped_chunks == 1:  # one line per run; RunEnded.skipped_chunks has the count
                self._warn(event.text, "malformed-chunk")
        else:
            self.sink(msgs.Notice(text=event.text))

    def _keep_partial(self, answer: _Streamed, content: str, reasoning: str) -> None:
        """What streamed before a cut or a cancel stays in history and the transcript, redacted like a whole answer."""
        if not content and not reasoning:
            return
        entry = redacted(assistant(content, reasoning, partial=True))
        if content:  # reasoning alone is no use to the model, and some servers refuse an empty answer
            self.history.append(entry)
        self._post(answer.recorded(entry, self.agent.model))

    def _tool_round(self) -> ToolRound:
        return ToolRound(agent=self.agent, tools=self.tools, ctx=self.tool_ctx, gate=self.gate, budget=self.budget,
                         history=self.history, sink=self.sink, record=self._record)

    def _account(self, run_id: str, request: ChatRequest, usage: msgs.UsageInfo) -> None:
        if not usage.estimated and usage.prompt_tokens:
            self.estimator.calibrate_by(request, usage.prompt_tokens)
        for m in self.ledger.record(run_id, usage):  # the ledger posts its usage and warnings; the transcript keeps them
            self._record(m)


def with_attachments(prompt: str, attachments: Sequence[tuple[str, str]]) -> str:
    """The user message: each attachment (piped stdin, -f FILE) fenced by its label, then the prompt."""
    parts = [f'<attachment name="{label}">\n{text.rstrip()}\n</attachment>' for label, text in attachments]
    return "\n\n".join(parts + [prompt]) if parts else prompt
