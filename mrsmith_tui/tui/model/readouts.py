"""What the views read off the model: the status-bar fields, whether the sidebar shows, the spinner's
frame, compact numbers and durations, the keys that answer a request. Pure functions of the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mrsmith_tui.tui.model.state import Model, StatusLedger
from mrsmith_tui.words import counted

if TYPE_CHECKING:
    from mrsmith_tui.config.schema import AgentConfig

__all__ = [
    "ANSWER_KEYS",
    "MODE_BADGE",
    "MODE_WORDS",
    "MOVE_KEYS",
    "NOTE_SECONDS",
    "REQUEST_WORDS",
    "SEPARATOR",
    "SIDE_BY_SIDE",
    "SPINNER",
    "STATE_WORDS",
    "TASK_GLYPH",
    "agent_fields",
    "context_level",
    "counted",
    "duration",
    "fit_status",
    "one_line",
    "short_count",
    "sidebar_takes_screen",
    "sidebar_visible",
    "spinner",
    "status_fields",
]

NOTE_SECONDS = 4.0  # a passing note (Screen.note) clears itself after this
SIDE_BY_SIDE = 100  # columns from which the sidebar sits beside the conversation
MOVE_KEYS = "Tab or F2"  # move from the prompt to a request waiting behind typed text

# The single keys that answer a modal; a question takes any key (its options and free text).
# "a" (always) is the costly answer: the first press asks for a second ("a" again or Enter). With a
# shell command "a" remembers that exact command, and "r" the broader rule (`shell:rm`), confirmed the same way.
ANSWER_KEYS: dict[str, dict[str, str]] = {
    "approval": {"y": "yes", "n": "no", "a": "always", "r": "always_rule", "escape": "no", "tab": "explain"},
    "continue": {"y": "yes", "enter": "yes", "n": "no", "escape": "no"},
}
REQUEST_WORDS = {"approval": "approval", "continue": "go-on request", "question": "question"}
TASK_GLYPH = {"pending": "○", "in_progress": "◐", "completed": "●", "cancelled": "⊘"}


def agent_fields(agent: AgentConfig) -> dict[str, Any]:
    """What the status bar shows of an agent config: the fields of initial_model, AgentSwitched, SessionSwitched."""
    return {"agent": agent.name, "model": agent.model, "effort": agent.reasoning_effort,
            "context_limit": agent.max_context_tokens}


# --------------------------------------------------------------------------- sidebar


def sidebar_visible(model: Model) -> bool:
    sb = model.sidebar
    if sb.wanted is not None:
        return sb.wanted
    return model.screen.width >= SIDE_BY_SIDE and bool(sb.tasks or sb.agents or sb.mcp)


def sidebar_takes_screen(model: Model) -> bool:
    """Below SIDE_BY_SIDE columns a shown sidebar is a strip under the conversation (beside it, the text
    would be a sliver; over it, it would hide the conversation). It shows there only when asked for."""
    return model.screen.width < SIDE_BY_SIDE and sidebar_visible(model)


# --------------------------------------------------------------------------- status bar


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
WAIT_SHOWN_AFTER = 5.0  # seconds of thinking (or of one tool) before the status says how long
STATE_WORDS = {"idle": "idle", "thinking": "thinking", "streaming": "streaming", "tool": "tool",
               "waiting": "waiting for you"}
SEPARATOR = "  ·  "
PINNED = 1000  # a status field with this priority is never shed (the permission mode's badge)
MODE_BADGE = {"ask": "ask", "accept-edits": "accept edits", "plan": "plan", "auto": "AUTO"}
MODE_WORDS = {"ask": "calls that need approval ask", "accept-edits": "file edits in this folder run without asking",
              "plan": "only read-only tools run; the model presents a plan", "auto": "every call runs without asking"}


def spinner(now: float) -> str:
    return SPINNER[int(now * 10) % len(SPINNER)]


def context_level(led: StatusLedger) -> str:
    """"ok", "warning" (>= 85 %) or "error" (>= 100 %)."""
    if not led.context_limit:
        return "ok"
    pct = 100 * led.context_tokens / led.context_limit
    return "error" if pct >= 100 else "warning" if pct >= 85 else "ok"


def status_fields(model: Model) -> list[tuple[int, str, str]]:
    """(keep-priority, text, style) per field; the lowest priority is shed first as the screen narrows."""
    led = model.ledger
    busy = led.state != "idle"
    glyph = spinner(model.now) if busy and led.state != "waiting" else ("◆" if led.state == "waiting" else "○")
    state = STATE_WORDS[led.state]
    waited = model.now - led.state_since if led.state_since else 0.0
    if led.state in ("thinking", "tool") and waited >= WAIT_SHOWN_AFTER and not model.run.cancelling:
        state += f" {int(waited)}s · Esc cancels"  # a silent endpoint, a long command: how long, and the way out
    head = model.pending.head
    if head is not None and not model.pending.armed:
        state = f"{REQUEST_WORDS[head.kind]} waiting: {MOVE_KEYS} to answer"
    if model.run.queued:
        state += f" · {len(model.run.queued)} queued"
    fields = [(100, f"{glyph} {state}", "state-" + led.state)]
    if led.agent:
        fields.append((60, led.agent, "agent"))
    if led.model:
        fields.append((50, led.model, "model"))
    if led.effort:
        fields.append((30, f"effort {led.effort}", "dim"))
    if led.context_limit:
        pct = round(100 * led.context_tokens / led.context_limit)
        fields.append((90, f"ctx {short_count(led.context_tokens)}/{short_count(led.context_limit)} {pct}%",
                       "ctx-" + context_level(led)))
    if led.cache_text:
        fields.append((25, led.cache_text, "dim"))
    if led.tokens_in or led.tokens_out:
        fields.append((20, f"↑{short_count(led.tokens_in)} ↓{short_count(led.tokens_out)}", "dim"))
    if led.tool_used or led.tool_limit:
        limit = f"/{led.tool_limit}" if led.tool_limit else ""
        fields.append((15, f"tools {led.tool_used}{limit}", "dim"))
    if led.background:
        waiting = sum(1 for r in model.sidebar.agents if r.background and r.state == "waiting")
        text = f"{led.background} agent{'s' if led.background != 1 else ''} running"
        fields.append((70, text + (f" ({waiting} waiting for you)" if waiting else ""),  # kept over the agent's name
                       "agents-waiting" if waiting else "agents"))
    if model.startup_warnings and model.conv.blocks:
        # The welcome counts them while the conversation is empty; once it is gone (a turn, a resumed
        # session's history from the start) they would be a toast long faded: here until fixed.
        fields.append((80, f"⚠ {counted(len(model.startup_warnings), 'start-up warning')} · /help", "ctx-warning"))
    fields.append((PINNED, MODE_BADGE.get(led.mode, led.mode), "mode-" + led.mode))  # drawn first (view.status)
    return fields


def fit_status(fields: list[tuple[int, str, str]], width: int) -> list[tuple[str, str]]:
    """Drop the least important fields until the row fits `width` (never wraps)."""
    kept = list(fields)
    while kept:
        total = sum(len(t) for _, t, _ in kept) + len(SEPARATOR) * (len(kept) - 1) + 2
        sheddable = [i for i in range(len(kept)) if kept[i][0] < PINNED]
        if total <= width or len(sheddable) <= 1:
            break
        weakest = min(sheddable, key=lambda i: kept[i][0])
        if kept[weakest][0] >= 90 and len(sheddable) <= 2:
            break
        kept.pop(weakest)
    return [(t, s) for _, t, s in kept]


# --------------------------------------------------------------------------- small words


def short_count(n: int) -> str:
    """1234 -> 1.2k, 12345 -> 12k, 1234567 -> 1.2M."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n // 1000}k"
    if n >= 1000:
        return f"{n / 1000:.1f}k"
    return str(n)


def duration(s: float) -> str:
    if s < 60:
        return f"{s:.1f}s" if s < 10 else f"{s:.0f}s"
    return f"{int(s // 60)}m{int(s % 60):02d}s"


def one_line(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
