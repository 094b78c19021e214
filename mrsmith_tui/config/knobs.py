"""The wire knobs of an agent (thinking, effort, cache, max tokens) checked against its protocol.

Every forbidden combination is one line naming the rule, found before anything is sent: the
command line exits 2 with it, `/agent` and `/reasoning` refuse with it. The rules are the
vendors' (config.vendors; the README's table cites their documentation).
"""

from __future__ import annotations

from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.config.vendors import (
    BUDGETS,
    OPENAI_EFFORTS,
    REPLY_FLOOR,
    VENDORS,
    adaptive_only,
    is_vendor_protocol,
    vendor,
    wants_adaptive,
)

__all__ = ["effort_problem", "knob_problem"]


def _words(values: tuple[str, ...]) -> str:
    return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]


def effort_problem(effort: str | None, protocol: str) -> str | None:
    """Why `effort` is not one the protocol takes, or None."""
    if effort is None:
        return None
    allowed = vendor(protocol).efforts if is_vendor_protocol(protocol) else OPENAI_EFFORTS
    if effort not in allowed:
        return f"effort {effort!r} is not one the {protocol} protocol takes ({_words(allowed)})"
    return None


def knob_problem(agent: AgentConfig, protocol: str) -> str | None:
    """The first rule `agent`'s knobs break on `protocol`, as one line; None when they keep them all."""
    v = vendor(protocol)
    effort = agent.reasoning_effort.strip() if agent.reasoning_effort else None
    problem = effort_problem(effort, protocol)
    if problem:
        return problem
    if agent.cache == "active" and not v.cache_control:
        takers = _words(tuple(p for p, x in VENDORS.items() if x.cache_control))
        return (f"cache active: the {protocol} protocol takes no cache_control breakpoints "
                f"(it caches on its own; only {takers} take them)")
    if effort and agent.thinking == "strip" and is_vendor_protocol(protocol):
        return (f"effort {effort} with thinking strip: the {protocol} protocol cannot think at an effort "
                "while stripping its thinking (drop one of them)")
    if effort and agent.thinking_style == "budget" and v.wire == "messages" and adaptive_only(agent.model):
        return (f"thinking style budget: {agent.model} takes only adaptive thinking (a token budget is refused; "
                "drop thinkingStyle)")
    adaptive = agent.thinking_style == "adaptive" or (agent.thinking_style is None and wants_adaptive(agent.model))
    if effort and v.wire == "messages" and not adaptive and agent.max_tokens:
        least = BUDGETS.get(effort, 1024) + REPLY_FLOOR
        if agent.max_tokens < least:
            return (f"max tokens {agent.max_tokens}: the {protocol} protocol needs more than the effort {effort} "
                    f"thinking budget plus {REPLY_FLOOR} for the reply (at least {least})")
    return None
