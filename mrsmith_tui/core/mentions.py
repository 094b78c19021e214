"""`@path` mentions read for the prompt they were typed in: one reader for the TUI and headless `-p`.

A mention is read through the same rules as the file tools: the path is resolved inside the root
(tools.sandbox: `..`, absolute paths elsewhere, `~`, links that lead out are refused), a path that
looks like a secret goes through the session's approval gate as a `read_file` (or `list_dir`) call
would (the TUI asks; headless refuses, naming the `--allow` spec that would let it), the file is
opened through directory fds (tools.dirfd: a link swapped in meanwhile is refused) and what is read
is redacted of every known secret, the tree's sensitive values included.

Bounds: MAX_FILE_BYTES a file, MAX_TOTAL_BYTES for one prompt, MAX_MENTIONS mentions, a folder's
listing MAX_LISTING entries (of at most SCAN_LIMIT read). Two mentions of one file attach it once.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mrsmith_tui.core.prompt_syntax import MAX_MENTIONS, Mention
from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.security.tree_secrets import learn_tree_secrets
from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.approval import ApprovalGate
from mrsmith_tui.tools.base import ApprovalNeed, Tool, ToolContext, ToolResult
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.tools.secret_paths import changed_since_approval
from mrsmith_tui.words import counted

__all__ = ["MAX_FILE_BYTES", "MAX_LISTING", "MAX_TOTAL_BYTES", "MentionsOutcome", "read_mentions"]

MAX_FILE_BYTES = 1024 * 1024
MAX_TOTAL_BYTES = 4 * 1024 * 1024
MAX_LISTING = 500  # entries of a folder's listing attached
SCAN_LIMIT = 100_000  # entries read from one folder to sort them
BINARY_PREFIX = 8192


@dataclass(frozen=True)
class MentionsOutcome:
    attachments: tuple[tuple[str, str], ...] = ()  # (label, text), as Session.run takes them
    attached: tuple[str, ...] = ()  # one line each: "src/a.py (12 lines, 340 bytes)"
    refused: tuple[str, ...] = ()  # one line each: "@../x: outside the working directory …"


@dataclass
class _Reading:
    root: Path
    gate: ApprovalGate
    ctx: ToolContext
    sensitive: SensitivePaths
    seen: set[Path] = field(default_factory=set)
    total: int = 0
    attachments: list[tuple[str, str]] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


class _Refused(Exception):
    """One line: why this mention is not attached."""


def read_mentions(mentions: Sequence[Mention], *, gate: ApprovalGate, ctx: ToolContext,
                  sensitive: SensitivePaths | None = None) -> MentionsOutcome:
    """Read each mention (in order, once per file) as the file tools would; `ctx.root` is the root.

    May block: a secret asks the person through `gate`. Never raises for a bad mention: it is
    refused in one line instead, and the prompt goes on without it.
    """
    reading = _Reading(ctx.root, gate, ctx, sensitive or SensitivePaths())
    if mentions:
        learn_tree_secrets(ctx.root, reading.sensitive)  # what prints a .env's values prints [redacted]
    for n, mention in enumerate(mentions):
        if n >= MAX_MENTIONS:
            reading.refused.append(f"{len(mentions) - MAX_MENTIONS} more mentions not read (at most {MAX_MENTIONS} a prompt)")
            break
        ctx.cancel.check()
        try:
            _read_one(reading, mention)
        except _Refused as e:
            reading.refused.append(f"@{_shown_raw(mention.path)}: {e}")
    return MentionsOutcome(tuple(reading.attachments), tuple(reading.attached), tuple(reading.refused))


def _shown_raw(raw: str) -> str:
    return raw if len(raw) <= 200 else raw[:199] + "…"


def _read_one(reading: _Reading, mention: Mention) -> None:
    raw = mention.path
    try:
        path = resolve(reading.root, raw)
    except SandboxError as e:
        raise _Refused(_sandbox_line(str(e), raw)) from None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _Refused("no such file or folder (sent as text)") from None
    except OSError as e:
        raise _Refused(f"cannot read it: {e.strerror or e}") from None
    is_dir = stat.S_ISDIR(st.st_mode)
    if mention.wants_dir and not is_dir:
        raise _Refused("not a folder (drop the trailing / to attach the file)")
    if not is_dir and not stat.S_ISREG(st.st_mode):
        raise _Refused("not a regular file")
    if path in reading.seen:
        return  # mentioned twice (or by two names): attached once
    args = {"path": raw.rstrip("/") if len(raw) > 1 else raw}
    tool: Tool = ListDirTool(reading.sensitive) if is_dir else ReadFileTool(reading.sensitive)
    refusal = reading.gate.authorize(_Mentioned(tool, raw), args, json.dumps(args), reading.ctx)
    if refusal is not None:
        why = refusal.splitlines()[0]
        raise _Refused("not attached (you said no)" if why.startswith("The person did not approve") else f"not attached: {why}")
    if (changed := changed_since_approval(args, path)) is not None:
        raise _Refused(changed)
    reading.seen.add(path)
    shown = display(reading.root, path)
    if is_dir:
        text, count = _listing(reading, path)
        _attach(reading, shown + ("" if shown.endswith("/") else "/"), text, f"listing, {counted(count, 'entry', 'entries')}")
    else:
        _attach(reading, shown, _file_text(reading, path), "")


class _Mentioned:
    """The file tool as a mention uses it: its own rules and name (`read_file:.env` is the spec an
    "always" answer or `--allow` names), the question saying where the path came from."""

    def __init__(self, tool: Tool, raw: str) -> None:
        self._tool, self._raw = tool, raw
        self.name, self.description, self.parameters = tool.name, tool.description, tool.parameters
        self.read_only = tool.read_only

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        need = self._tool.approval(args, ctx)
        if need is None:
            return None
        return replace(need, reason=f"@{_shown_raw(self._raw)} in your prompt: {need.reason}")

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:  # never called: the reader reads
        return self._tool.run(args, ctx)

    def summary(self, args: dict[str, Any]) -> str:
        return self._tool.summary(args)


def _sandbox_line(message: str, raw: str) -> str:
    """The sandbox's reason without repeating the path the line starts with."""
    for lead in (f"path {raw!r}: ", f"path {raw!r} ", "path "):
        if message.startswith(lead):
            return message[len(lead):]
    return message


def _attach(reading: _Reading, label: str, text: str, what: str) -> None:
    text = PROCESS.redact(text)
    size = len(text.encode("utf-8", "replace"))
    if reading.total + size > MAX_TOTAL_BYTES:
        raise _Refused(f"not attached: the mentions of one prompt hold at most {MAX_TOTAL_BYTES // (1024 * 1024)} MiB")
    reading.total += size
    reading.attachments.append((label.replace('"', "'"), text))
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    detail = what or f"{counted(lines, 'line')}, {counted(size, 'byte')}"
    reading.attached.append(f"{label} ({detail})")


def _file_text(reading: _Reading, path: Path) -> str:
    shown = display(reading.root, path)
    cancel = reading.ctx.cancel
    try:
        with dirfd.open_file(reading.root, path, lambda: cancel.cancelled) as (fd, st):
            if st.st_size > MAX_FILE_BYTES:
                raise _Refused(f"{st.st_size} bytes is more than the {MAX_FILE_BYTES // (1024 * 1024)} MiB a mention attaches")
            data = b""
            while len(data) <= MAX_FILE_BYTES:
                chunk = os.pread(fd, 65536, len(data))
                if not chunk:
                    break
                data += chunk
    except _Refused:
        raise
    except (MrSmithError, OSError) as e:
        raise _Refused(f"cannot read {shown}: {getattr(e, 'strerror', None) or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise _Refused(f"it grew past the {MAX_FILE_BYTES // (1024 * 1024)} MiB a mention attaches")
    if b"\x00" in data[:BINARY_PREFIX]:
        raise _Refused(f"a binary file ({len(data)} bytes); mentions attach text")
    return data.decode("utf-8", "replace")


def _listing(reading: _Reading, path: Path) -> tuple[str, int]:
    """The folder's entries, sorted (folders end in /), at most MAX_LISTING; and how many were read."""
    shown = display(reading.root, path)
    names: list[str] = []
    complete = True
    try:
        with dirfd.open_dir(reading.root, path) as fd, os.scandir(fd) as entries:
            for entry in entries:
                if len(names) >= SCAN_LIMIT:
                    complete = False
                    break
                if len(names) % 1024 == 0:
                    reading.ctx.cancel.check()
                dir_mark = "/" if entry.is_dir(follow_symlinks=False) else ""
                link = " (link)" if entry.is_symlink() else ""
                names.append(entry.name + dir_mark + link)
    except (MrSmithError, OSError) as e:
        raise _Refused(f"cannot list {shown}: {getattr(e, 'strerror', None) or e}") from None
    names.sort()
    lines = names[:MAX_LISTING]
    if not names:
        lines = ["(empty folder)"]
    elif not complete:
        lines.append(f"[more than {SCAN_LIMIT} entries; {MAX_LISTING} of those read are listed]")
    elif len(names) > MAX_LISTING:
        lines.append(f"[{len(names)} entries; the first {MAX_LISTING} are listed]")
    return "\n".join(lines), len(names)
