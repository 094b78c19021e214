"""/compact: the model summarises the older turns into one message that replaces them.

The summary replaces them in the context, not in the history (the person can still review
and export everything): the replaced messages are marked `compacted` and the summary is
put after them (`session.rebuild.apply_compaction`). The newest `keep_turns` turns stay
whole. The transcript gets a `usage` and a `compaction` record, so a resumed session
compacts the same way; the context gauge drops to the estimated size of what is left. A
summary that would not make the context smaller is dropped (only its `usage` is recorded).

Call it between runs (the TUI's /compact, or `maybe_auto_compact` before a turn when the
agent sets autoCompact and the context is at 90 % of its limit, unless a summary was no shorter
and the context has not grown by 5 % of its limit since).
"""

from __future__ import annotations

from collections.abc import Sequence

from mrsmith_tui import msgs
from mrsmith_tui.cancel import Cancelled, CancelToken
from mrsmith_tui.config.vendors import protocol_of, thinking_for
from mrsmith_tui.core.context_window import context_entries
from mrsmith_tui.core.session_api import Compactable
from mrsmith_tui.history import HistoryEntry, UserEntry
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamDone, StreamText
from mrsmith_tui.session.rebuild import apply_compaction
from mrsmith_tui.words import counted

__all__ = ["AUTO_COMPACT_PERCENT", "AUTO_COMPACT_REGROWTH_PERCENT", "COMPACT_INSTRUCTION", "compact", "compaction_cut", "maybe_auto_compact"]

AUTO_COMPACT_PERCENT = 90.0
# After a summary no shorter than what it replaced, autoCompact tries again only once the context
# has grown by this share of the window: the same context would give the same summary, at a model
# call a turn. Growth means new turns, and the turn that was the newest is summarised next time.
AUTO_COMPACT_REGROWTH_PERCENT = 5.0

COMPACT_INSTRUCTION = (
    "[mrsmith] The context is being compacted. Write a summary of the conversation above that lets you "
    "carry on the work without it: the person's goals and constraints, decisions made, what was done "
    "(files read or changed, commands run and what they showed), open problems and the next steps. "
    "Keep exact file paths, names, numbers and error messages. Answer with the summary only."
)


def compaction_cut(history: Sequence[HistoryEntry], keep_turns: int = 1) -> tuple[int, int]:
    """(start, cut): the context's messages history[start:cut] are summarised; cut == start: nothing to do.

    `start` is the first message still in the context; `cut` is the start of the newest
    `keep_turns` turns (a turn starts at a prompt the person sent).
    """
    start = next((i for i, e in enumerate(history) if not e.compacted), len(history))
    prompts = [i for i in range(start, len(history)) if _is_prompt(history[i])]
    if len(prompts) <= keep_turns:
        return start, start
    cut = prompts[-keep_turns] if keep_turns > 0 else len(history)
    older_prompts = [i for i in prompts if i < cut]
    return (start, cut) if older_prompts else (start, start)


def _is_prompt(entry: HistoryEntry) -> bool:
    return isinstance(entry, UserEntry) and entry.kind == "prompt"


def _summarise(session: Compactable, system_prompt: str, entries: list[HistoryEntry], cancel: CancelToken) -> tuple[str, msgs.UsageInfo]:
    request = ChatRequest(
        model=session.agent.model,
        system_prompt=system_prompt,
        entries=tuple(entries) + (UserEntry(text=COMPACT_INSTRUCTION, kind="context"),),
        tools=[],
        thinking=thinking_for(session.agent.thinking, protocol_of(session.provider), session.agent.model),
        include_usage=session.config.include_usage,
        max_tokens=session.agent.max_tokens,
    )
    parts: list[str] = []
    done: StreamDone | None = None
    for event in session.provider.stream(request, cancel):
        cancel.check()
        if isinstance(event, StreamText):
            parts.append(event.text)
        elif isinstance(event, StreamDone):
            done = event
    cancel.check()
    if done is None:
        raise ProviderError(f"provider '{session.provider_name}' ended the stream before finishing the summary")
    summary = (done.content or "".join(parts)).strip()
    if not summary:
        raise ProviderError("the model answered with an empty summary")
    return summary, done.usage


def compact(session: Compactable, cancel: CancelToken, *, keep_turns: int = 1) -> str:
    """Summarise the older turns of `session`; returns the summary, or "" when
    there was nothing to compact or it failed (the person is told why through the sink)."""
    history = session.history
    gauge = session.ledger.context_tokens  # as autoCompact measures it, for its wait after a summary no shorter
    start, cut = compaction_cut(history, keep_turns)
    if cut == start:
        session.sink(msgs.Notice(text="nothing to compact: the context holds only the newest turn"))
        return ""
    thinking = thinking_for(session.agent.thinking, protocol_of(session.provider), session.agent.model)
    system = session.system_prompt()
    # "was" measures the context the way "now" does (the estimator), not the last prompt's size
    before = session.conversation.estimator.context(system, history, thinking)
    session.sink(msgs.Notice(text=f"compacting {counted(cut - start, 'earlier message')}…"))
    try:
        summary, usage = _summarise(session, system, context_entries(system, history[start:cut]), cancel)
    except Cancelled:
        session.sink(msgs.Notice(text="compaction cancelled; the context is unchanged"))
        return ""
    except ProviderError as e:
        session.sink(msgs.Error(text=f"compaction failed: {e.message}"))
        return ""

    compacted = list(history)
    apply_compaction(compacted, summary, cut)
    context = session.conversation.estimator.context(system, compacted, thinking)
    # A summary no shorter than what it replaces would cost detail and free nothing (a short
    # conversation): the call is spent, the context stays as it was.
    kept = context < before
    if kept:
        history[:] = compacted
    else:
        context = before
    ledger = session.ledger
    ledger.reset_context()
    # The summary call is spent by the session but is not the context: totals yes, gauge no.
    ledger.add("compact", usage, context_tokens=context)
    if not kept:
        ledger.compact_declined_at = gauge
    records: list[msgs.Msg] = [msgs.UsageReported(usage=usage, context_tokens=context, context_limit=ledger.max_context_tokens)]
    if kept:
        records.append(msgs.Compacted(summary=summary, replaces=cut, context_tokens=context))
    for m in records:
        session.sink(m)
        if session.transcript is not None:  # session.records: the compaction's usage right before it
            session.transcript.append(m)
    if not kept:
        session.sink(msgs.Notice(text=f"nothing worth compacting: the summary of {counted(cut - start, 'earlier message')} "
                                      f"is no shorter than they are, so the context is unchanged (~{before:,} tokens)"))
        return ""
    session.sink(msgs.Notice(text=f"compacted {counted(cut - start, 'message')} into a summary: "
                                  f"the context is now ~{context:,} tokens (was ~{before:,})"))
    return summary


def maybe_auto_compact(session: Compactable, cancel: CancelToken) -> str | None:
    """Compact when the agent sets autoCompact and the context is at 90 % of its limit; None otherwise,
    and until the context has grown by 5 % of its limit since a summary was no shorter."""
    ledger = session.ledger
    if not session.agent.auto_compact or ledger.context_percent < AUTO_COMPACT_PERCENT:
        return None
    declined = ledger.compact_declined_at
    if declined is not None and 100 * (ledger.context_tokens - declined) < AUTO_COMPACT_REGROWTH_PERCENT * ledger.max_context_tokens:
        return None  # the same context again: the same summary, no shorter
    session.sink(msgs.Notice(text=f"the context is {ledger.context_percent:.0f}% full: compacting (autoCompact)"))
    return compact(session, cancel)
