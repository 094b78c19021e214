"""A session as readable Markdown: prompts and answers in the open, reasoning and tool
output folded in `<details>` blocks, the usage of each turn under it.

The file is written whole or not at all (a temporary file beside it, then a rename), mode
0600 like the transcript it comes from, with every known secret redacted and terminal controls
shown as text (security.terminal_text).
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from mrsmith_tui.errors import EXIT_USAGE, MrSmithError
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.session.store import SessionNotFound, load_records, prompt_of, transcript_of

__all__ = ["export_markdown", "export_session", "ExportError"]


class ExportError(MrSmithError):
    """`message`: one line for the person."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _fence(text: str, lang: str = "") -> str:
    """A code fence longer than any run of backticks inside `text`."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def _details(summary: str, body: str) -> str:
    return f"<details><summary>{html.escape(summary)}</summary>\n\n{body.strip()}\n\n</details>"


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.strip().splitlines())


def _arguments(raw: str) -> str:
    try:
        return json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        return raw


def _when(ts: Any) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if isinstance(ts, (int, float)) else "?"


class _Turn:
    def __init__(self) -> None:
        self.prompt_tokens = self.completion_tokens = self.cached_tokens = 0
        self.estimated = False
        self.calls = 0

    def add(self, r: dict[str, Any]) -> None:
        self.calls += 1
        self.prompt_tokens += int(r.get("prompt_tokens") or 0)
        self.completion_tokens += int(r.get("completion_tokens") or 0)
        self.cached_tokens += int(r.get("cached_tokens") or 0)
        self.estimated = self.estimated or bool(r.get("estimated"))

    def line(self) -> str:
        cached = f" ({self.cached_tokens:,} cached)" if self.cached_tokens else ""
        kind = ", estimated" if self.estimated else ""
        return (f"<sub>usage: {self.prompt_tokens:,} tokens in{cached}, {self.completion_tokens:,} out, "
                f"{self.calls} model call{'s' if self.calls != 1 else ''}{kind}</sub>")


def export_markdown(records: list[dict[str, Any]]) -> str:
    header = records[0] if records and records[0].get("type") == "header" else {}
    out: list[str] = [f"# mrsmith session {header.get('id', '')}".rstrip(), ""]
    if header:
        out += [
            f"- started: {_when(header.get('created', header.get('at')))}",
            f"- directory: `{header.get('cwd', '')}`",
            f"- agent: {header.get('agent', '')} ({header.get('model', '')}"
            + (f" on {header['provider']})" if header.get("provider") else ")"),
            "",
        ]
    calls: dict[str, tuple[str, str]] = {}
    turn: _Turn | None = None
    number = 0

    def close_turn() -> None:
        nonlocal turn
        if turn is not None and turn.calls:
            out.extend([turn.line(), ""])
        turn = None

    for r in records:
        kind = r.get("type")
        if kind == "user":
            close_turn()
            number += 1
            turn = _Turn()
            text = str(r.get("text", ""))
            out += [f"## {number}. You", "", _quote(prompt_of(text)) or ">", ""]
            if r.get("attachments"):
                out += [f"<sub>attached: {', '.join(map(str, r['attachments']))}</sub>", ""]
        elif kind == "assistant":
            if r.get("reasoning"):
                out += [_details("Reasoning", str(r["reasoning"])), ""]
            if r.get("content"):
                out += [str(r["content"]).strip(), ""]
            if r.get("partial"):
                out += ["*(the answer was cut off here)*", ""]
            for call in r.get("tool_calls") or []:
                if isinstance(call, dict):
                    fn = call.get("function") if isinstance(call.get("function"), dict) else call
                    calls[str(call.get("id", ""))] = (str(fn.get("name", "")), str(fn.get("arguments", "")))
        elif kind == "tool_result":
            name, arguments = calls.pop(str(r.get("tool_call_id", "")), (str(r.get("name", "")), ""))
            status = "ok" if r.get("ok", True) else "failed"
            body = (f"Arguments:\n\n{_fence(_arguments(arguments), 'json')}\n\n" if arguments else "")
            body += f"Result:\n\n{_fence(str(r.get('content', '')))}"
            out += [_details(f"Tool: {name} ({status})", body), ""]
        elif kind == "usage":
            if turn is None:
                turn = _Turn()
            turn.add(r)
        elif kind == "error":
            out += [f"**Error:** {r.get('text', '')}", ""]
        elif kind == "warning":
            out += [f"*Warning: {r.get('text', '')}*", ""]
        elif kind == "run_end" and r.get("cancelled"):
            out += ["*(cancelled)*", ""]
        elif kind == "skill":
            out += [_details(f"Skill loaded: {r.get('name', '')}", _fence(str(r.get("body", "")))), ""]
        elif kind == "compaction":
            close_turn()
            out += [_details(f"Context compacted ({r.get('replaces', 0)} messages summarised)", str(r.get("summary", ""))), ""]
        elif kind == "agent_switch":
            out += [f"*Continued on agent {r.get('agent', '')} ({r.get('model', '')} on {r.get('provider', '')})*", ""]
    close_turn()
    return "\n".join(out).rstrip() + "\n"


def export_session(path_or_id: str | Path, out: str | Path | None = None, *, root: Path | None = None) -> Path:
    """Write the session (a transcript path, or an id prefix looked up under `root`) as Markdown to
    `out` (default `mrsmith-<id>.md` in the current folder); returns the path. Raises ExportError."""
    try:
        source = transcript_of(root, path_or_id)
        records, _ = load_records(source)
    except SessionNotFound as e:
        raise ExportError(e.message) from None
    session_id = str(records[0].get("id", source.parent.name)) if records[0].get("type") == "header" else source.parent.name
    target = Path(out).expanduser() if out else Path.cwd() / f"mrsmith-{session_id[:13]}.md"
    if target.is_dir():
        target = target / f"mrsmith-{session_id[:13]}.md"
    _write_whole(target, export_markdown(records))
    return target


def _write_whole(target: Path, text: str) -> None:
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:  # mkstemp: 0600
            f.write(clean(PROCESS.redact(text)))  # read with `cat` as often as in an editor
        os.replace(tmp, target)
    except OSError as e:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
