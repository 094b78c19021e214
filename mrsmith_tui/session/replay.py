"""A recorded session's Msgs as a frontend folds them to draw it again.

The transcript's Msgs are what the live screen folded (session.records), so a frontend draws a
recorded session with the same `update` as a live one: the answers from AnswerRecorded (no
deltas streamed), the tool blocks from ToolCallFinished. `for_screen` only does what a
recording cannot:

- ids get an "h" prefix (runs, tool calls; blocks are numbered hr1, ht2, ...), so they never
  collide with those of the live session that goes on after them (a resumed session starts its
  block ids again, and a model's tool call ids may repeat);
- a tool call is drawn as it was asked (a ToolCallStarted from its answer, at the answer's time,
  the header guessed from its arguments: live headers came from the tool), since only its end
  is recorded;
- a turn cut by a kill is closed: its tool calls that never finished get a stand-in result, a
  Notice says it was cut off, and it ends cancelled;
- a compaction and an agent switch get a one-line Notice (the transcript keeps no Notices);
- a usage of an older transcript that did not keep the context's size gets the agent's;
- the task list the last todowrite call left is put back (TasksChanged), as a live run left it.

A tool call's header comes from `summarize(name, arguments)` when the caller has the tools (the
same words the live header had), else it is guessed from the arguments.

The header is left out, and so is every Msg a transcript does not hold (records.TRANSCRIPT_TYPES),
whoever handed it in: a recording never brings a request for the person (an approval, a go-on,
a question), its answer, a permission or an agent onto the screen.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.session.rebuild import NO_RESULT
from mrsmith_tui.session.records import TRANSCRIPT_TYPES

__all__ = ["CUT_OFF", "for_screen"]

CUT_OFF = "this turn was cut off: the program stopped before it finished"


def _summary_of(name: str, arguments: str) -> str:
    """A short header for a tool call (the live one came from the tool itself)."""
    try:
        args = json.loads(arguments) if arguments else {}
    except (ValueError, RecursionError):
        return ""
    if not isinstance(args, dict):
        return ""
    todos, questions = args.get("todos"), args.get("questions")
    if isinstance(todos, list):  # todowrite
        done = sum(1 for t in todos if isinstance(t, dict) and t.get("status") == "completed")
        return f"{len(todos)} task{'s' if len(todos) != 1 else ''}, {done} done"
    if isinstance(questions, list) and questions and isinstance(questions[0], dict):  # question
        args = questions[0]
    for key in ("command", "path", "file_path", "pattern", "url", "description", "name", "question", "task",
                "prompt", "id"):
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return line if len(line) <= 100 else line[:99] + "…"
    return ""


Summarize = Callable[[str, str], str]  # (tool name, its arguments as JSON) -> the header's summary


def _todos_of(arguments: str) -> tuple[msgs.Todo, ...] | None:
    """The task list a todowrite call set (None: arguments it would have refused)."""
    try:
        raw: Any = json.loads(arguments).get("todos")
        return tuple(msgs.Todo.model_validate(item) for item in raw)
    except Exception:
        return None


class _Replay:
    def __init__(self, context_limit: int, summarize: Summarize | None = None) -> None:
        self.summarize = summarize
        self.tasks: tuple[msgs.Todo, ...] | None = None  # the last task list a todowrite call set
        self.out: list[msgs.Msg] = []
        self.context_limit = context_limit
        self.blocks = 0
        self.run: str | None = None  # the open run (no RunEnded seen yet), prefixed
        self.asked: dict[str, tuple[str, str, float]] = {}  # call id -> (name, arguments, asked at): no result yet
        self.at = 0.0

    def block_id(self, kind: str, text: str) -> str:
        if not text:
            return ""
        self.blocks += 1
        return f"h{kind}{self.blocks}"

    def call_started(self, call_id: str, name: str) -> str:
        """Post the ToolCallStarted of a call as it was asked (or of `name`, never asked for); its name."""
        name, arguments, asked = self.asked.pop(call_id, (name, "", self.at))
        self.out.append(msgs.ToolCallStarted(call_id=f"h{call_id}", name=name, arguments=arguments,
                                             summary=self.summary(name, arguments), at=asked))
        return name

    def summary(self, name: str, arguments: str) -> str:
        if self.summarize is not None:
            try:
                said = self.summarize(name, arguments)
            except Exception:  # the recording's arguments are the model's: anything at all
                said = ""
            if said:
                return said
        return _summary_of(name, arguments)

    def settle_calls(self) -> None:
        for call_id in list(self.asked):
            name = self.call_started(call_id, "")
            self.out.append(msgs.ToolCallFinished(call_id=f"h{call_id}", name=name, ok=False, result=NO_RESULT,
                                                  at=self.at))

    def end_open_run(self) -> None:
        self.settle_calls()
        if self.run is not None:
            self.out.append(msgs.Notice(text=CUT_OFF, at=self.at))
            self.out.append(msgs.RunEnded(run_id=self.run, cancelled=True, at=self.at))
            self.run = None

    def msg(self, m: msgs.Msg) -> None:
        if m.type not in TRANSCRIPT_TYPES:
            return
        self.at = m.at
        if isinstance(m, msgs.TranscriptHeader):
            return
        if isinstance(m, msgs.UserPrompt):
            self.end_open_run()
            self.run = f"h{m.run_id}"
            m = m.model_copy(update={"run_id": self.run})
        elif isinstance(m, (msgs.RunStarted, msgs.PromptRecorded)):
            m = m.model_copy(update={"run_id": f"h{m.run_id}"})
        elif isinstance(m, msgs.AnswerRecorded):
            self.settle_calls()
            for call in m.entry.tool_calls:
                self.asked[call.id] = (call.name, call.arguments, m.at)
            m = m.model_copy(update={"run_id": f"h{m.run_id}", "reasoning_block": self.block_id("r", m.entry.reasoning),
                                     "text_block": self.block_id("t", m.entry.text)})
        elif isinstance(m, msgs.ToolCallFinished):
            asked = self.asked.get(m.call_id)
            if m.ok and asked is not None and asked[0] == "todowrite":
                self.tasks = _todos_of(asked[1]) if _todos_of(asked[1]) is not None else self.tasks
            self.call_started(m.call_id, m.name)
            m = m.model_copy(update={"call_id": f"h{m.call_id}"})
        elif isinstance(m, msgs.RunEnded):
            self.settle_calls()
            if self.run is None:
                return
            m = m.model_copy(update={"run_id": self.run})
            self.run = None
        elif isinstance(m, msgs.UsageReported) and not m.context_limit:
            m = m.model_copy(update={"context_limit": self.context_limit})
        self.out.append(m)
        if isinstance(m, msgs.Compacted):
            self.out.append(msgs.Notice(text=f"compacted {m.replaces} earlier messages into a summary", at=m.at))
        elif isinstance(m, msgs.AgentChanged):
            self.out.append(msgs.Notice(text=f"agent {m.agent} ({m.model} on {m.provider})", at=m.at))


def for_screen(records: Iterable[msgs.Msg], *, context_limit: int = 0,
               summarize: Summarize | None = None) -> list[msgs.Msg]:
    """The Msgs that draw the recorded session as the live run drew it (session.replay)."""
    replay = _Replay(context_limit, summarize)
    for m in records:
        replay.msg(m)
    replay.end_open_run()
    if replay.tasks is not None:
        replay.out.append(msgs.TasksChanged(todos=replay.tasks, at=replay.at))
    return replay.out
