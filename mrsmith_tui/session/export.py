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
from pathlib import Path

from mrsmith_tui import msgs
from mrsmith_tui.errors import EXIT_USAGE, MrSmithError
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.session.records import header_of, prompt_of
from mrsmith_tui.session.store import SessionNotFound, load_records, local_minute, transcript_of
from mrsmith_tui.words import counted

__all__ = ["ExportError", "export_markdown", "export_name", "export_session", "export_target", "write_export"]


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
    except (TypeError, ValueError, RecursionError):
        return raw


class _Turn:
    def __init__(self) -> None:
        self.prompt_tokens = self.completion_tokens = self.cached_tokens = 0
        self.estimated = False
        self.calls = 0

    def add(self, usage: msgs.UsageInfo) -> None:
        self.calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.cached_tokens += usage.cached_tokens
        self.estimated = self.estimated or usage.estimated

    def line(self) -> str:
        cached = f" ({self.cached_tokens:,} cached)" if self.cached_tokens else ""
        kind = ", estimated" if self.estimated else ""
        return (f"<sub>usage: {self.prompt_tokens:,} tokens in{cached}, {self.completion_tokens:,} out, "
                f"{self.calls} model call{'s' if self.calls != 1 else ''}{kind}</sub>")


def _header_lines(header: msgs.TranscriptHeader | None) -> list[str]:
    out = [f"# mrsmith session {header.session_id if header else ''}".rstrip(), ""]
    if header is not None:
        out += [
            f"- started: {local_minute(header.created or header.at)}",
            f"- directory: `{header.cwd}`",
            f"- agent: {header.agent} ({header.model}" + (f" on {header.provider})" if header.provider else ")"),
            "",
        ]
    return out


class _Markdown:
    def __init__(self, header: msgs.TranscriptHeader | None) -> None:
        self.out = _header_lines(header)
        self.calls: dict[str, tuple[str, str]] = {}  # tool call id -> (name, arguments) until its result
        self.turn: _Turn | None = None
        self.number = 0

    def close_turn(self) -> None:
        if self.turn is not None and self.turn.calls:
            self.out.extend([self.turn.line(), ""])
        self.turn = None

    def msg(self, m: msgs.Msg) -> None:
        out = self.out
        if isinstance(m, msgs.PromptRecorded):
            self.close_turn()
            self.number += 1
            self.turn = _Turn()
            out += [f"## {self.number}. You", "", _quote(prompt_of(m.entry.text)) or ">", ""]
            if m.attachments:
                out += [f"<sub>attached: {', '.join(m.attachments)}</sub>", ""]
        elif isinstance(m, msgs.AnswerRecorded):
            e = m.entry
            if e.reasoning:
                out += [_details("Reasoning", e.reasoning), ""]
            if e.text:
                out += [e.text.strip(), ""]
            if e.partial:
                out += ["*(the answer was cut off here)*", ""]
            for call in e.tool_calls:
                self.calls[call.id] = (call.name, call.arguments)
        elif isinstance(m, msgs.ToolCallFinished):
            name, arguments = self.calls.pop(m.call_id, (m.name, ""))
            body = (f"Arguments:\n\n{_fence(_arguments(arguments), 'json')}\n\n" if arguments else "")
            body += f"Result:\n\n{_fence(m.result)}"
            out += [_details(f"Tool: {name} ({'ok' if m.ok else 'failed'})", body), ""]
        elif isinstance(m, msgs.UsageReported):
            if self.turn is None:
                self.turn = _Turn()
            self.turn.add(m.usage)
        elif isinstance(m, msgs.Error):
            out += [f"**Error:** {m.text}", ""]
        elif isinstance(m, msgs.Warning):
            out += [f"*Warning: {m.text}*", ""]
        elif isinstance(m, msgs.RunEnded) and m.cancelled:
            out += ["*(cancelled)*", ""]
        elif isinstance(m, msgs.ContextAdded):
            title = f"Skill loaded: {m.skill}" if m.skill else "Context added (a `!command` the person ran)"
            out += [_details(title, _fence(m.body if m.skill else m.entry.text)), ""]
        elif isinstance(m, msgs.Compacted):
            self.close_turn()
            out += [_details(f"Context compacted ({counted(m.replaces, 'message')} summarised)", m.summary), ""]
        elif isinstance(m, msgs.AgentChanged):
            out += [f"*Continued on agent {m.agent} ({m.model} on {m.provider})*", ""]


def export_markdown(records: list[msgs.Msg]) -> str:
    """The session of a transcript's Msgs (session.transcript.read_transcript) as Markdown."""
    header = header_of(records)
    markdown = _Markdown(header)
    for m in records:
        markdown.msg(m)
    markdown.close_turn()
    return "\n".join(markdown.out).rstrip() + "\n"


def export_session(path_or_id: str | Path, out: str | Path | None = None, *, root: Path | None = None,
                   force: bool = False, when_exists: str = "give another name") -> Path:
    """Write the session (a transcript path, or an id prefix looked up under `root`) as Markdown to
    `out` (default `export_name` in the current folder); returns the path. Raises ExportError."""
    try:
        source = transcript_of(root, path_or_id)
        records, _ = load_records(source)
    except SessionNotFound as e:
        raise ExportError(e.message) from None
    first = records[0]
    session_id = (first.session_id if isinstance(first, msgs.TranscriptHeader) else "") or source.parent.name
    target = export_target(out, session_id)
    write_export(target, export_markdown(records), force=force, when_exists=when_exists)
    return target


def export_name(session_id: str) -> str:
    """The export's default file name: the id's first 13 characters, its time part (a uuid7's first 48 bits)."""
    return f"mrsmith-{session_id[:13]}.md"


def export_target(out: str | Path | None, session_id: str) -> Path:
    """Where an export goes: `out`, `export_name` inside it when it is a folder, else in the current folder."""
    if out is None:
        return Path.cwd() / export_name(session_id)
    if not str(out).strip():
        raise ExportError("the file name is empty: give one, or none for ./" + export_name(session_id))
    target = Path(out).expanduser()
    return target / export_name(session_id) if target.is_dir() else target


def write_export(target: Path, text: str, *, force: bool = False, when_exists: str = "give another name") -> None:
    """Write `text` (redacted, terminal controls shown as text) to `target` whole or not at all. An existing
    file (or link) there is kept unless `force`: an export once replaced a project's README.md."""
    if not force and os.path.lexists(target):
        raise ExportError(f"{target} exists: {when_exists}")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:  # mkstemp: 0600
            f.write(clean(PROCESS.redact(text)))  # read with `cat` as often as in an editor
        if force:
            os.replace(tmp, target)
        else:
            _place_new(tmp, target)
        tmp = None
    except FileExistsError:
        raise ExportError(f"{target} exists: {when_exists}") from None
    except OSError as e:
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _place_new(tmp: str, target: Path) -> None:
    """`tmp` renamed to `target` only if nothing is there: a hard link fails on an existing name, where
    a rename would replace it. A file system without hard links gets the rename after the check above."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        os.replace(tmp, target)
        return
    os.unlink(tmp)
