"""write_file: create or overwrite a whole file inside the root, atomically."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.fileio import (
    WritePlan,
    commit_write,
    diff_for_model,
    locate_target,
    too_large,
    too_large_text,
    unified_diff,
)
from mrsmith_tui.tools.secret_paths import changed_since_approval, is_secret, secret_diff_summary, secret_need
from mrsmith_tui.words import counted


def _plan(args: dict[str, Any], ctx: ToolContext) -> WritePlan | str:
    content = args.get("content")
    if not isinstance(content, str):
        return "content must be a string (the whole new file)"
    target = locate_target(args, ctx)
    if isinstance(target, str):
        return target
    path, shown, now = target
    after = content.encode("utf-8")
    if (now.data is None and now.exists) or too_large(now.size, len(after)):
        return WritePlan(path, shown, now, after, too_large_text(now.size, len(after)))
    old_text = "" if now.data is None else now.data.decode("utf-8", errors="replace")
    return WritePlan(path, shown, now, after, unified_diff(shown, old_text, content))


class WriteFileTool(BaseTool):
    name = "write_file"
    read_only = False
    description = (
        "Create a file, or replace a whole file, inside the working directory. Parent directories are "
        "created. `content` is the complete new file. To change part of an existing file, prefer edit. "
        "Overwriting a file that changed since you last read it is refused: read it again first."
    )
    parameters = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path relative to the working directory"},
            "content": {"type": "string", "description": "The complete content of the file"},
        },
        "required": ["path", "content"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        plan = _plan(args, ctx)
        # A secret has its own spec (an "always" for write_file does not cover it) and asks even when
        # the write cannot happen.
        secret = secret_need(self.name, args.get("path"), ctx, self.sensitive, doing="write_file replaces it", args=args)
        if secret is not None:
            return ApprovalNeed(reason=secret.reason, spec=secret.spec, diff=None if isinstance(plan, str) else plan.diff,
                                rule="secret")
        if isinstance(plan, str):
            return None  # run() reports the problem; nothing to ask about
        verb = "overwrites" if plan.current.exists else "creates"
        return ApprovalNeed(reason=f"write_file {verb} {plan.shown}", spec="write_file", diff=plan.diff, rule="writes")

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        plan = _plan(args, ctx)
        if isinstance(plan, str):
            return ToolResult.error(plan)
        if (changed := changed_since_approval(args, plan.path)) is not None:
            return ToolResult.error(changed)
        failed = commit_write(plan.path, plan.after, plan.shown, ctx)
        if failed:
            return ToolResult.error(failed)
        verb = "Wrote" if plan.current.exists else "Created"
        lines = plan.after.count(b"\n") + (0 if plan.after.endswith(b"\n") or not plan.after else 1)
        summary = f"{verb} {plan.shown} ({counted(lines, 'line')}, {counted(len(plan.after), 'byte')})"
        if is_secret(plan.path, ctx, self.sensitive):
            # The old content of a secret must not reach the model (the person saw the diff when asked).
            return ToolResult(content=f"{summary} {secret_diff_summary(plan.diff)}")
        if not plan.current.exists:
            return ToolResult(content=summary, diff=plan.diff)  # the model knows what it wrote
        return ToolResult(content=summary + "\n" + (diff_for_model(plan.diff) or "(no change)"), diff=plan.diff)
