"""The headless log's lines: what a Msg shown as whole lines on stderr says, and in which colour.

`headless.fold` streams the deltas itself; every other Msg it shows is the list of (text, SGR
colour code) this module makes of it, a sub-agent's prefixed with the agent's id.
"""

from __future__ import annotations

from mrsmith_tui import msgs

__all__ = ["CYAN", "DIM", "MAGENTA", "MODE_WORDS", "RED", "YELLOW", "agent_lines", "lines_for", "paint"]

DIM, RED, YELLOW, CYAN, MAGENTA = "2", "31", "33", "36", "35"
MODE_WORDS = {"accept-edits": "file edits in this folder run without asking", "plan": "only read-only tools run",
              "auto": "every call runs without asking"}



def paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color and text else text


def _one_line(text: str, limit: int = 200) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _tool_started(m: msgs.ToolCallStarted) -> str:
    return f"→ {m.name} {m.summary or _one_line(m.arguments, 120)}".rstrip()


def _tool_finished(m: msgs.ToolCallFinished) -> tuple[str, str]:
    """(line, colour code) for a finished tool call."""
    took = f" · {m.elapsed:.1f}s" if m.elapsed >= 0.1 else ""
    code = f" · exit {m.exit_code}" if m.exit_code is not None else ""
    if m.denied:
        return f"  ✗ {m.name} refused: {_one_line(m.result)}", YELLOW
    if not m.ok:
        return f"  ✗ {m.name} failed{code}: {_one_line(m.result)}", RED
    return f"  ✓ {m.name}{code}{took}", DIM


def lines_for(m: msgs.Msg) -> list[tuple[str, str | None]]:
    """Whole stderr lines (text, colour) for the Msgs that are shown as lines."""
    if isinstance(m, msgs.ToolCallStarted):
        return [(_tool_started(m), CYAN)]
    if isinstance(m, msgs.ToolCallFinished):
        lines: list[tuple[str, str | None]] = [_tool_finished(m)]
        if m.diff:
            lines += [(line, DIM) for line in m.diff.rstrip("\n").splitlines()]
        return lines
    if isinstance(m, msgs.Warning):
        return [(f"warning: {m.text}", YELLOW)]
    if isinstance(m, msgs.Notice):
        return [(m.text, DIM)]
    if isinstance(m, msgs.TasksChanged):
        done = sum(t.status == "completed" for t in m.todos)
        tasks: list[tuple[str, str | None]] = [(f"tasks {done}/{len(m.todos)} done", DIM)]
        return tasks + [
            (f"  [{'x' if t.status == 'completed' else '>' if t.status == 'in_progress' else ' '}] {t.content}", DIM)
            for t in m.todos
        ]
    if isinstance(m, msgs.PermissionsInForce):
        return _permission_lines(m)
    if isinstance(m, msgs.PermissionModeChanged) and m.mode != "ask":
        return [(f"permission mode: {m.mode} ({MODE_WORDS.get(m.mode, m.mode)})", RED if m.mode == "auto" else YELLOW)]
    if isinstance(m, msgs.JobStarted):
        lasts = "kept after exit" if m.detach else "stopped at exit"
        return [(f"background {m.job_id} started: pid {m.pid} · {_one_line(m.command, 120)} · {lasts} · log {m.log}", DIM)]
    if isinstance(m, msgs.JobEnded):
        return [(f"background {m.job_id} (pid {m.pid}) ended · exit {m.exit_code}", DIM)]
    if isinstance(m, msgs.SkillLoaded):
        return [(f"skill loaded: {m.name}", DIM)]
    if isinstance(m, msgs.MentionsRead):  # the `@path` mentions of a typed prompt (core.mentions)
        attached: list[tuple[str, str | None]] = [("attached " + " · ".join(m.attached), DIM)] if m.attached else []
        return attached + [(f"warning: {line}", YELLOW) for line in m.refused]
    if isinstance(m, msgs.AgentSpawned):
        return [(f"[{m.agent_id}] started {m.label}: {_one_line(m.task, 120)}", MAGENTA)]
    if isinstance(m, msgs.AgentStateChanged) and m.state != "running":
        detail = f": {m.detail}" if m.detail else ""
        return [(f"[{m.agent_id}] {m.state}{detail}", RED if m.state == "failed" else MAGENTA)]
    return []


def _permission_lines(m: msgs.PermissionsInForce) -> list[tuple[str, str | None]]:
    lines: list[tuple[str, str | None]] = []
    if m.approve_all:
        lines.append(("--yes: every call that would ask is approved", YELLOW))
    if m.specs:
        shown = ", ".join(f"{a.spec} ({a.origin})" for a in m.specs)
        lines.append((f"allowed without asking: {shown}", DIM))
    return lines



def agent_lines(agent_id: str, inner: msgs.Msg) -> list[tuple[str, str | None]]:
    """A background or sub-agent's Msg as whole lines prefixed with its id (no live deltas)."""
    if isinstance(inner, msgs.FromAgent):
        return agent_lines(f"{agent_id}/{inner.agent_id}", inner.msg)
    prefix = f"[{agent_id}] "
    if isinstance(inner, msgs.BlockEnded) and inner.text.strip():
        code = DIM if inner.kind == "reasoning" else None
        return [(prefix + line, code) for line in inner.text.strip("\n").splitlines()]
    if isinstance(inner, msgs.Error):
        return [(f"{prefix}error: {inner.text}", RED)]
    if isinstance(inner, msgs.RunEnded) and inner.error:
        return [(f"{prefix}error: {inner.error}", RED)]
    return [(prefix + text, code) for text, code in lines_for(inner)]
