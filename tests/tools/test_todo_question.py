"""todowrite replaces the session list and emits TasksChanged; question goes through the Approver."""

from __future__ import annotations

from mrsmith_tui.msgs import TasksChanged, Todo
from mrsmith_tui.tools.question import NO_PERSON, QuestionTool
from mrsmith_tui.tools.todowrite import TodoWriteTool


def test_todowrite_replaces_and_emits(ctx) -> None:
    tool = TodoWriteTool()
    tool.run({"todos": [{"content": "a", "status": "pending"}, {"content": "b", "status": "pending"}]}, ctx)
    r = tool.run({"todos": [{"content": "b", "status": "completed", "priority": "high"}]}, ctx)
    assert ctx.tasks == [Todo(content="b", status="completed", priority="high")]
    assert isinstance(ctx.emitted[-1], TasksChanged) and ctx.emitted[-1].todos == (Todo(content="b", status="completed", priority="high"),)
    assert "1/1 completed" in r.content and "[x] b" in r.content


def test_todowrite_refuses_bad_items_without_changing_the_list(ctx) -> None:
    tool = TodoWriteTool()
    tool.run({"todos": [{"content": "keep", "status": "pending"}]}, ctx)
    r = tool.run({"todos": [{"content": "x", "status": "done"}]}, ctx)
    assert not r.ok and "todos[1].status" in r.content and "in_progress" in r.content
    assert not tool.run({"todos": [{"status": "pending"}]}, ctx).ok
    assert ctx.tasks == [Todo(content="keep")]


def test_question_asks_the_person(ctx, approver) -> None:
    approver.answer = "Use SQLite"
    args = {"questions": [{"question": "Which store?", "options": [{"label": "SQLite", "description": "file"},
                                                                  {"label": "Postgres"}], "multiple": False}]}
    r = QuestionTool().run(args, ctx)
    assert "Use SQLite" in r.content
    (asked,) = approver.questions
    assert asked[0].question == "Which store?" and [o.label for o in asked[0].options] == ["SQLite", "Postgres"]


def test_question_without_a_person(ctx, approver) -> None:
    r = QuestionTool().run({"questions": [{"question": "Go?", "options": [{"label": "yes"}]}]}, ctx)
    assert r.content == NO_PERSON
    assert not QuestionTool().run({"questions": []}, ctx).ok
    assert "options[1]" in QuestionTool().run({"questions": [{"question": "q", "options": [{}]}]}, ctx).content


def test_todowrite_header_summary_counts_tasks():
    from mrsmith_tui.tools.todowrite import TodoWriteTool

    tool = TodoWriteTool()
    todos = [{"content": "a", "status": "completed"}, {"content": "b", "status": "pending"}, {"content": "c", "status": "in_progress"}]
    assert tool.summary({"todos": todos}) == "3 tasks, 1 done"
    assert tool.summary({"todos": "nope"}) == ""
