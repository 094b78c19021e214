"""todowrite: the session's task list, replaced whole on every call."""

from __future__ import annotations

from typing import Any, get_args

from mrsmith_tui.msgs import TasksChanged, Todo, TodoPriority, TodoStatus
from mrsmith_tui.tools.base import BaseTool, ToolContext, ToolResult

STATUSES = get_args(TodoStatus)
PRIORITIES = get_args(TodoPriority)
_MARK = {"pending": "[ ]", "in_progress": "[~]", "completed": "[x]", "cancelled": "[-]"}


class TodoWriteTool(BaseTool):
    name = "todowrite"
    read_only = True  # it changes the session's list, not the person's files
    description = (
        "Keep the task list for this session, shown to the person. Send the whole list every time: it "
        "replaces the previous one. Use it for work of three or more steps: write the steps first, mark one "
        "'in_progress' when you start it and 'completed' as soon as it is done, add tasks you discover, "
        "'cancelled' for ones no longer needed. Keep one task in progress at a time."
    )
    parameters = {
        "type": "object",
        "properties": {
            "todos": {
                "type": "array",
                "description": "The complete task list, in order",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string", "description": "What to do, one short line"},
                        "status": {"type": "string", "enum": list(STATUSES)},
                        "priority": {"type": "string", "enum": list(PRIORITIES)},
                    },
                    "required": ["content", "status"],
                },
            }
        },
        "required": ["todos"],
        "additionalProperties": False,
    }

    def summary(self, args: dict[str, Any]) -> str:
        todos = args.get("todos")
        if not isinstance(todos, list):
            return ""
        done = sum(1 for t in todos if isinstance(t, dict) and t.get("status") == "completed")
        return f"{len(todos)} task{'s' if len(todos) != 1 else ''}, {done} done"

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        raw = args.get("todos")
        if not isinstance(raw, list):
            return ToolResult.error("todos must be a list of {content, status, priority}")
        todos = []
        for n, item in enumerate(raw, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("content"), str) or not item["content"].strip():
                return ToolResult.error(f"todos[{n}] needs a non-empty `content` string")
            status = item.get("status", "pending")
            priority = item.get("priority", "medium")
            if status not in STATUSES:
                return ToolResult.error(f"todos[{n}].status must be one of {', '.join(STATUSES)}, got {status!r}")
            if priority not in PRIORITIES:
                return ToolResult.error(f"todos[{n}].priority must be one of {', '.join(PRIORITIES)}, got {priority!r}")
            todos.append(Todo(content=item["content"].strip(), status=status, priority=priority))
        ctx.tasks = list(todos)
        ctx.emit(TasksChanged(todos=tuple(todos)))
        if not todos:
            return ToolResult(content="The task list is now empty.")
        done = sum(t.status == "completed" for t in todos)
        lines = [f"{_MARK[t.status]} {t.content} ({t.priority})" for t in todos]
        return ToolResult(content=f"Task list updated ({done}/{len(todos)} completed):\n" + "\n".join(lines))
