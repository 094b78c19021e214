"""read_file: numbered lines of a text file inside the root."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.tools.secret_paths import secret_need

MAX_BYTES = 1024 * 1024
DEFAULT_LIMIT = 2000
MAX_LINE_CHARS = 2000


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
        return secret_need(self.name, args.get("path"), ctx, self.sensitive)

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            path = resolve(ctx.root, args.get("path"))
        except SandboxError as e:
            return ToolResult.error(str(e))
        shown = display(ctx.root, path)
        offset, limit = args.get("offset", 1), args.get("limit", DEFAULT_LIMIT)
        if not isinstance(offset, int) or offset < 1:
            return ToolResult.error(f"offset must be a line number >= 1, got {offset!r}")
        if not isinstance(limit, int) or limit < 1:
            return ToolResult.error(f"limit must be >= 1, got {limit!r}")
        if path.is_dir():
            return ToolResult.error(f"{shown} is a directory; use list_dir to see what is in it")
        if not path.exists():
            return ToolResult.error(f"{shown} does not exist")
        if not path.is_file():
            return ToolResult.error(f"{shown} is not a regular file")
        try:
            data = path.read_bytes()
        except OSError as e:
            return ToolResult.error(f"cannot read {shown}: {e.strerror or e}")
        if ctx.ledger is not None:
            ctx.ledger.record(path, data)
        if b"\x00" in data[:8192]:
            return ToolResult.error(f"{shown} is a binary file ({len(data)} bytes); read_file reads text only")
        cut_bytes = len(data) > MAX_BYTES
        try:
            text = data[:MAX_BYTES].decode("utf-8", errors="strict" if not cut_bytes else "ignore")
        except UnicodeDecodeError:
            return ToolResult.error(f"{shown} is not UTF-8 text (a binary file?); read_file reads text only")
        lines = text.splitlines()
        total = len(lines)
        if total == 0:
            return ToolResult(content=f"{shown} is empty")
        if offset > total:
            return ToolResult.error(f"offset {offset} is past the end of {shown} ({total} lines)")
        chosen = lines[offset - 1 : offset - 1 + limit]
        width = len(str(offset + len(chosen) - 1))
        out = []
        for n, line in enumerate(chosen, start=offset):
            if len(line) > MAX_LINE_CHARS:
                line = line[:MAX_LINE_CHARS] + f" … [line cut at {MAX_LINE_CHARS} characters]"
            out.append(f"{n:>{width}}\t{line}")
        last = offset + len(chosen) - 1
        notes = []
        if last < total or offset > 1:
            notes.append(f"lines {offset}-{last} of {total}{'+' if cut_bytes else ''}")
        if last < total:
            notes.append(f"continue with offset={last + 1}")
        if cut_bytes:
            notes.append(f"the file is {len(data)} bytes; only the first {MAX_BYTES} were read")
        body = "\n".join(out)
        if notes:
            body += "\n[truncated: " + "; ".join(notes) + "]"
        return ToolResult(content=body)
