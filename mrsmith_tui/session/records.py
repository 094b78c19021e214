"""Transcript records: the contract between the writer (a live run) and readers (resume,
list, view, export).

A transcript is JSONL: one JSON object a line, each with `"type"` and `"at"` (epoch
seconds). The first line is always a `header`. Readers must skip unknown types (a newer
writer may add some) and must drop a torn last line with a warning.

    header      {format, id, created, cwd, agent, model, provider, version}
    user        {run_id, text}
    assistant   {run_id, content, reasoning, tool_calls: [{id, name, arguments}], model}
    tool_result {run_id, tool_call_id, name, content, ok, elapsed; optional diff, exit_code, denied}
    usage       {run_id, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens,
                 estimated, context_tokens}
    error       {run_id, text}
    warning     {text, code}
    run_end     {run_id, cancelled, error}
    skill       {name, path, body}          a skill body loaded into the context
    compaction  {summary, replaces: int}    the first `replaces` history messages (after
                                            the system prompt) are summarised by `summary`
    agent_switch {agent, model, provider}   the session continues on another agent
"""

from __future__ import annotations

from typing import Any

FORMAT_VERSION = 1

RECORD_TYPES = frozenset(
    {"header", "user", "assistant", "tool_result", "usage", "error", "warning", "run_end", "skill", "compaction", "agent_switch"}
)


def header(
    *, session_id: str, created: float, cwd: str, agent: str, model: str, provider: str, version: str
) -> dict[str, Any]:
    return {
        "type": "header",
        "at": created,
        "format": FORMAT_VERSION,
        "id": session_id,
        "created": created,
        "cwd": cwd,
        "agent": agent,
        "model": model,
        "provider": provider,
        "version": version,
    }
