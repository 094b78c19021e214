"""list_dir: the entries of one directory inside the root."""

from __future__ import annotations

import os
from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.tools.secret_paths import changed_since_approval, secret_need

MAX_ENTRIES = 1000
SCAN_LIMIT = 100_000  # entries read from one directory; a bigger one says so


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
        return secret_need(self.name, args.get("path"), ctx, self.sensitive, args=args)

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            path = resolve(ctx.root, args.get("path"))
        except SandboxError as e:
            return ToolResult.error(str(e))
        if (changed := changed_since_approval(args, path)) is not None:
            return ToolResult.error(changed)
        shown = display(ctx.root, path)
        try:
            with dirfd.open_dir(ctx.root, path) as fd:
                names, complete = _scan(fd, ctx)
        except FileNotFoundError:
            return ToolResult.error(f"{shown} does not exist")
        except NotADirectoryError:
            return ToolResult.error(f"{shown} is not a directory; use read_file to read it")
        except SandboxError as e:
            return ToolResult.error(str(e))
        except OSError as e:
            return ToolResult.error(f"cannot list {shown}: {e.strerror or e}")
        if not names:
            return ToolResult(content=f"{shown} is empty")
        names.sort()
        lines = [line for _, line in names[:MAX_ENTRIES]]
        if not complete:
            lines.append(f"[truncated: more than {SCAN_LIMIT} entries; the first {MAX_ENTRIES} of those read are shown]")
        elif len(names) > MAX_ENTRIES:
            lines.append(f"[truncated: {len(names)} entries, the first {MAX_ENTRIES} shown]")
        return ToolResult(content="\n".join(lines))


def _scan(fd: int, ctx: ToolContext) -> tuple[list[tuple[str, str]], bool]:
    """(name, shown line) of the entries, at most SCAN_LIMIT of them; whether that was all."""
    out: list[tuple[str, str]] = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if len(out) >= SCAN_LIMIT:
                return out, False
            if len(out) % 1024 == 0:
                ctx.cancel.check()
            if entry.is_symlink():
                try:
                    target = os.readlink(entry.name, dir_fd=fd)
                except OSError:
                    target = "?"
                out.append((entry.name, f"{entry.name} -> {target}"))
            elif entry.is_dir(follow_symlinks=False):
                out.append((entry.name, entry.name + "/"))
            else:
                out.append((entry.name, entry.name))
    return out, True
