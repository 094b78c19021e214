"""read_file: numbered lines of a text file inside the root, streamed: only the page asked for is kept."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, BinaryIO

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.fileio import fingerprint
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.tools.secret_paths import changed_since_approval, secret_need
from mrsmith_tui.words import counted

MAX_BYTES = 1024 * 1024  # of lines returned by one call
DEFAULT_LIMIT = 2000
MAX_LINE_CHARS = 2000
BINARY_PREFIX = 8192  # a NUL byte in the first this-many bytes marks a binary file
COUNT_LIMIT = 16 * 1024 * 1024  # the lines after a page are counted when at most this much is left
_LINE_BYTES = MAX_LINE_CHARS * 4 + 8  # a line is kept up to this many bytes; the rest is skipped
MAX_SKIP = 4 * 1024 * 1024  # of one overlong line skipped before reading stops there
_CHUNK = 64 * 1024
_BUFFER = 256 * 1024


class ReadFileTool(BaseTool):
    name = "read_file"
    read_only = True
    description = (
        "Read a text file inside the working directory. Returns numbered lines ('<n>\\t<text>', 1-based). "
        f"Reads at most {DEFAULT_LIMIT} lines and {MAX_BYTES // 1024} KiB at a time; for a long file pass "
        "`offset` (the first line to show, 1-based) and `limit` (how many lines) to read the next part. "
        "Read a file before you edit it, and read it again if an edit is refused as stale. "
        "Binary files are refused; use list_dir or glob to find files."
    )
    parameters = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path relative to the working directory"},
            "offset": {"type": "integer", "description": "First line to return, 1-based (default 1)"},
            "limit": {"type": "integer", "description": f"How many lines to return (default {DEFAULT_LIMIT})"},
        },
        "required": ["path"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        return secret_need(self.name, args.get("path"), ctx, self.sensitive, args=args)

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            path = resolve(ctx.root, args.get("path"))
        except SandboxError as e:
            return ToolResult.error(str(e))
        if (changed := changed_since_approval(args, path)) is not None:
            return ToolResult.error(changed)
        shown = display(ctx.root, path)
        offset, limit = args.get("offset", 1), args.get("limit", DEFAULT_LIMIT)
        if not isinstance(offset, int) or offset < 1:
            return ToolResult.error(f"offset must be a line number >= 1, got {offset!r}")
        if not isinstance(limit, int) or limit < 1:
            return ToolResult.error(f"limit must be >= 1, got {limit!r}")
        try:
            with dirfd.open_file(ctx.root, path, lambda: ctx.cancel.cancelled) as (fd, st):
                prefix = os.pread(fd, BINARY_PREFIX, 0)
                if b"\x00" in prefix:
                    return ToolResult.error(f"{shown} is a binary file ({st.st_size} bytes); read_file reads text only")
                if ctx.ledger is not None:
                    ctx.ledger.record_fingerprint(path, fingerprint(fd, st))
                with open(fd, "rb", buffering=_BUFFER, closefd=False) as f:
                    page = _read_page(f, offset, limit, ctx, st.st_size)
        except IsADirectoryError:
            return ToolResult.error(f"{shown} is a directory; use list_dir to see what is in it")
        except FileNotFoundError:
            return ToolResult.error(f"{shown} does not exist")
        except NotADirectoryError:
            return ToolResult.error(f"{shown} does not exist (a part of the path is not a directory)")
        except SandboxError as e:
            return ToolResult.error(str(e))
        except UnicodeDecodeError:
            return ToolResult.error(f"{shown} is not UTF-8 text (a binary file?); read_file reads text only")
        except OSError as e:
            return ToolResult.error(f"cannot read {shown}: {e.strerror or e}")
        return _render(shown, st.st_size, offset, page)


@dataclass
class _Page:
    lines: list[str]
    total: int | None  # lines in the file, when counted to the end
    cut_bytes: bool  # stopped at MAX_BYTES of output
    endless: int = 0  # the line (1-based) that did not end within MAX_SKIP bytes


class _Endless(Exception):
    """A line went on for more than MAX_SKIP bytes: what follows it is not read."""

    def __init__(self, kept: bytes) -> None:
        super().__init__()
        self.kept = kept


def _read_line(f: BinaryIO, ctx: ToolContext) -> tuple[bytes, bool] | None:
    """The next line (without its end) and whether it was longer than kept; None at the end.
    Raises _Endless when an overlong line does not end within MAX_SKIP bytes."""
    line = f.readline(_LINE_BYTES)
    if not line:
        return None
    if line.endswith(b"\n") or len(line) < _LINE_BYTES:
        return line.rstrip(b"\n").removesuffix(b"\r"), False
    skipped = 0
    while (rest := f.readline(_CHUNK)) and not rest.endswith(b"\n"):
        skipped += len(rest)  # the rest of an overlong line is skipped, not kept
        ctx.cancel.check()
        if skipped > MAX_SKIP:
            raise _Endless(line)
    return line, True


def _text_of(raw: bytes, long: bool) -> str:
    # NULs after the binary-detection prefix are shown as U+FFFD: one stray byte does not hide the file.
    text = raw.decode("utf-8", "ignore") if long else raw.decode("utf-8")
    text = text.replace("\x00", "\ufffd")
    if long or len(text) > MAX_LINE_CHARS:
        text = text[:MAX_LINE_CHARS] + f" … [line cut at {MAX_LINE_CHARS} characters]"
    return text


def _read_page(f: BinaryIO, offset: int, limit: int, ctx: ToolContext, size: int) -> _Page:
    """Stream to line `offset`, keep up to `limit` lines and MAX_BYTES, then stop (counting the rest only
    when that is cheap). `size` is the file's size when opened: a file that grows is not chased."""
    lines: list[str] = []
    n = kept = 0
    cut_bytes = False
    while True:
        if n % 4096 == 0:
            ctx.cancel.check()
        try:
            item = _read_line(f, ctx)
        except _Endless as e:
            if n + 1 >= offset:
                lines.append(_text_of(e.kept, True))
            return _Page(lines, None, False, endless=n + 1)
        if item is None:
            return _Page(lines, n, False)
        n += 1
        if n < offset:
            continue
        raw, long = item
        text = _text_of(raw, long)
        kept += len(raw) + 1
        if kept > MAX_BYTES and lines:
            cut_bytes = True  # this line was read but is not shown: the next call starts at it
            break
        lines.append(text)
        if len(lines) >= limit:
            break
    return _Page(lines, _count_rest(f, n, ctx, size), cut_bytes)


def _count_rest(f: BinaryIO, n: int, ctx: ToolContext, size: int) -> int | None:
    """n plus the lines after the current position up to `size`, or None when more than COUNT_LIMIT
    bytes are left."""
    rest = size - f.tell()
    if rest > COUNT_LIMIT:
        return None
    data_end = b""
    while rest > 0 and (chunk := f.read(min(1024 * 1024, rest))):
        ctx.cancel.check()
        rest -= len(chunk)
        n += chunk.count(b"\n")
        data_end = chunk[-1:]
    if data_end and data_end != b"\n":
        n += 1
    return n


def _render(shown: str, size: int, offset: int, page: _Page) -> ToolResult:
    total = page.total
    if total == 0:
        return ToolResult(content=f"{shown} is empty")
    if not page.lines and page.endless:
        return ToolResult.error(
            f"line {page.endless} of {shown} does not end within {MAX_SKIP} bytes; read_file cannot read past it"
        )
    if not page.lines:
        lines = f" ({counted(total, 'line')})" if total is not None else ""
        return ToolResult.error(f"offset {offset} is past the end of {shown}{lines}")
    width = len(str(offset + len(page.lines) - 1))
    out = [f"{n:>{width}}\t{line}" for n, line in enumerate(page.lines, start=offset)]
    last = offset + len(page.lines) - 1
    more = (total is None or last < total) and not page.endless
    notes = []
    if more or offset > 1:
        notes.append(f"lines {offset}-{last} of {total if total is not None else f'a {size}-byte file'}")
    if more:
        notes.append(f"continue with offset={last + 1}")
    if page.endless:
        notes.append(f"line {page.endless} does not end within {MAX_SKIP} bytes; the file is not read past it")
    if page.cut_bytes:
        notes.append(f"only the first {MAX_BYTES} bytes from line {offset} were read")
    body = "\n".join(out)
    if notes:
        body += "\n[truncated: " + "; ".join(notes) + "]"
    return ToolResult(content=body)
