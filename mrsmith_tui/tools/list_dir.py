"""list_dir: the entries of one directory inside the root."""

from __future__ import annotations

import os
from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.tools.secret_paths import secret_need

MAX_ENTRIES = 1000


class ListDirTool(BaseTool):
    name = "list_dir"
    read_only = True
    description = (
        "List one directory inside the working directory (not recursive). Directories end with '/', "
        "symlinks are shown as 'name -> target'. Use '.' for the working directory itself. "
        "To find files by name across the tree, use glob instead."
    )
    parameters = {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "Directory relative to the working directory ('.' for it)"}},
        "required": ["path"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        """Names are not secrets, but what is inside a secret-looking folder (`.ssh/`) is asked about."""
        return secret_need(self.name, args.get("path"), ctx, self.sensitive)

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            path = resolve(ctx.root, args.get("path"))
        except SandboxError as e:
            return ToolResult.error(str(e))
        shown = display(ctx.root, path)
        if not path.exists():
            return ToolResult.error(f"{shown} does not exist")
        if not path.is_dir():
            return ToolResult.error(f"{shown} is not a directory; use read_file to read it")
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as e:
            return ToolResult.error(f"cannot list {shown}: {e.strerror or e}")
        lines = []
        for entry in entries[:MAX_ENTRIES]:
            if entry.is_symlink():
                lines.append(f"{entry.name} -> {os.readlink(entry.path)}")
            elif entry.is_dir():
                lines.append(entry.name + "/")
            else:
                lines.append(entry.name)
        if not lines:
            return ToolResult(content=f"{shown} is empty")
        if len(entries) > MAX_ENTRIES:
            lines.append(f"[truncated: {len(entries)} entries, the first {MAX_ENTRIES} shown]")
        return ToolResult(content="\n".join(lines))
