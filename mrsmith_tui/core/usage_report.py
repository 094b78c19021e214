"""/usage: the usage ledger as plain text (the TUI shows it in a panel, headless prints it)."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.msgs import UsageInfo

__all__ = ["usage_report"]


def _tokens(u: UsageInfo) -> str:
    cached = f" ({u.cached_tokens:,} cached)" if u.cached_tokens else ""
    reasoning = f" ({u.reasoning_tokens:,} reasoning)" if u.reasoning_tokens else ""
    return f"{u.prompt_tokens:,} in{cached} · {u.completion_tokens:,} out{reasoning}"


def _kind(u: UsageInfo) -> str:
    return "estimated" if u.estimated else "real"


def usage_report(ledger: Any) -> str:
    """Tokens per turn and in total, context against its limit, cache hits, tool budget, sub-agents."""
    by_turn: dict[str, tuple[int, UsageInfo]] = {}  # run id -> (model calls, summed usage), in order
    for run_id, usage in ledger.turns:
        calls, summed = by_turn.get(run_id, (0, UsageInfo()))
        by_turn[run_id] = (calls + 1, summed + usage)
    lines = ["Usage"]
    if not by_turn:
        lines.append("  no model calls yet")
    turn = 0
    for run_id, (calls, u) in by_turn.items():
        if run_id != "compact":  # numbered in order, whatever ids the runs had
            turn += 1
        label = "compaction" if run_id == "compact" else f"turn {turn}"
        plural = "s" if calls != 1 else ""
        lines.append(f"  {label:<12} {_tokens(u)} · {calls} call{plural} · {_kind(u)}")
    total: UsageInfo = ledger.total
    whole = total.prompt_tokens + total.completion_tokens
    lines.append(f"  {'total':<12} {_tokens(total)} · {whole:,} tokens · {_kind(total)}")
    limit = ledger.max_context_tokens
    pct = f" ({ledger.context_percent:.0f}%)" if limit else ""
    source = getattr(ledger, "context_source", "")
    lines.append(f"Context      {ledger.context_tokens:,} of {limit:,} tokens{pct}" + (f" · size from {source}" if source else ""))
    overhead = getattr(ledger, "prompt_overhead", None)
    if callable(overhead):
        system, schemas, tools = overhead()
        share = f" ({100 * (system + schemas) / limit:.0f}% of the context)" if limit else ""
        lines.append(f"Prompt       {system + schemas:,} tokens before any message{share}: system prompt {system:,} "
                     f"+ {tools} tool schemas {schemas:,}")
    lines.append(f"Cache hits   {ledger.cache_hit_percent:.0f}% of prompt tokens")
    limit_calls = ledger.tool_calls_limit
    budget = f"{ledger.tool_calls_used} of {limit_calls}" if limit_calls is not None else f"{ledger.tool_calls_used} (no limit)"
    lines.append(f"Tool calls   {budget}")
    lines.append("Cost         not counted: mrsmith knows the tokens, not the endpoint's prices")
    sub: UsageInfo = ledger.subagent_total
    if sub.prompt_tokens or sub.completion_tokens:
        lines.append(f"Sub-agents   {_tokens(sub)} · {_kind(sub)} · not in the main context")
    else:
        lines.append("Sub-agents   none")
    return "\n".join(lines)
