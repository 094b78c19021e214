"""Modals for the person's answers: approval, continue-after-round-cap, question.

Each dismisses with its answer text; the shell turns that into an `Answer` Msg. They are
pushed only once `update` armed the request (after a short delay, never mid-typing).
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, SelectionList, Static

from mrsmith_tui.tui.model import Request
from mrsmith_tui.tui.view.blocks import _diff_line, _join


def _arguments_text(raw: str) -> str:
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return raw
    if isinstance(value, dict):
        lines = []
        for k, v in value.items():
            if k in ("content", "new_string", "old_string") and isinstance(v, str) and len(v) > 200:
                v = v[:200] + f"… (+{len(v) - 200} chars)"
            shown = v.strip() if isinstance(v, str) else json.dumps(v)
            lines.append(f"{k}: {shown}")
        return "\n".join(lines)
    return json.dumps(value, indent=2)


def _keys(*pairs: tuple[str, str]) -> Content:
    parts = []
    for i, (key, what) in enumerate(pairs):
        if i:
            parts.append(("   ", ""))
        parts.extend([(key, "bold $accent"), (" " + what, "$text-muted")])
    return Content.assemble(*parts)


class RequestModal(ModalScreen[str]):
    request_id: str = ""


class ApprovalModal(RequestModal):
    BINDINGS = [
        Binding("y", "answer('yes')", "yes", show=False),
        Binding("n", "answer('no')", "no", show=False),
        Binding("a", "answer('always')", "always", show=False),
        Binding("escape", "answer('no')", "no", show=False),
    ]

    def __init__(self, req: Request) -> None:
        super().__init__(classes="request")
        self.req = req
        self.request_id = req.request_id

    def compose(self) -> ComposeResult:
        r = self.req
        who = f"  · from {r.agent_id}" if r.agent_id else ""
        with Vertical(classes="dialog"):
            yield Static(Content.assemble(("◆ ", "$warning"), ("Allow ", "bold"), (r.tool, "bold $accent"),
                                          ("?", "bold"), (who, "$text-muted")), classes="title")
            yield Static(Content.styled(r.reason, "$text-muted"), classes="reason")
            with VerticalScroll(classes="body"):
                yield Static(Content(_arguments_text(r.arguments)), classes="args")
                if r.diff:
                    lines = r.diff.rstrip("\n").split("\n")[:400]
                    yield Static(_join([_diff_line(line) for line in lines]), classes="diff")
            always = f"always ({r.spec})" if r.spec else "always"
            yield Static(_keys(("y", "yes"), ("n", "no"), ("a", always), ("esc", "no")), classes="keys")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class ContinueModal(RequestModal):
    BINDINGS = [
        Binding("y,enter", "answer('yes')", "continue", show=False),
        Binding("n,escape", "answer('no')", "stop", show=False),
    ]

    def __init__(self, req: Request) -> None:
        super().__init__(classes="request")
        self.req = req
        self.request_id = req.request_id

    def compose(self) -> ComposeResult:
        who = f" ({self.req.agent_id})" if self.req.agent_id else ""
        with Vertical(classes="dialog"):
            yield Static(Content.assemble(("◆ ", "$warning"), (f"The run used {self.req.rounds} tool rounds{who}.", "bold")),
                         classes="title")
            yield Static(Content.styled("Go on with a fresh set of rounds?", "$text-muted"), classes="reason")
            yield Static(_keys(("y", "continue"), ("n", "stop here")), classes="keys")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class QuestionModal(RequestModal):
    """Numbered options (1-9 pick, space toggles with several allowed), free text, Enter sends."""

    BINDINGS = [Binding("escape", "cancel", "skip", show=False)]

    def __init__(self, req: Request) -> None:
        super().__init__(classes="request")
        self.req = req
        self.request_id = req.request_id
        self.index = 0
        self.answers: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", classes="title", id="q-title")
            yield SelectionList[str](id="q-options")
            yield Input(placeholder="or type an answer, Enter sends", id="q-free")
            yield Static(_keys(("1-9", "pick"), ("space", "toggle"), ("enter", "send"), ("esc", "skip")), classes="keys")

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False
        self._show()

    def _show(self) -> None:
        q = self.req.questions[self.index]
        n = len(self.req.questions)
        step = f"  ({self.index + 1}/{n})" if n > 1 else ""
        hint = " · several allowed" if q.multiple else ""
        self.query_one("#q-title", Static).update(
            Content.assemble(("? ", "$accent"), (q.question, "bold"), (step + hint, "$text-muted")))
        options = self.query_one(SelectionList)
        options.clear_options()
        for i, o in enumerate(q.options, 1):
            label = f"{i}. {o.label}" + (f" — {o.description}" if o.description else "")
            options.add_option((Content(label), o.label))
        options.display = bool(q.options)
        (options if q.options else self.query_one(Input)).focus()

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit() and not isinstance(self.focused, Input):
            q = self.req.questions[self.index]
            i = int(event.character) - 1
            if 0 <= i < len(q.options):
                event.stop()
                if q.multiple:
                    self.query_one(SelectionList).toggle(q.options[i].label)
                else:
                    self._next(q.options[i].label)
        elif event.key == "enter" and not isinstance(self.focused, Input):
            event.stop()
            self._take_selection()

    def on_selection_list_selection_highlighted(self, event) -> None:
        pass

    def _take_selection(self) -> None:
        q = self.req.questions[self.index]
        options = self.query_one(SelectionList)
        chosen = list(options.selected)
        if not chosen and q.options and options.highlighted is not None:
            chosen = [q.options[options.highlighted].label]
        free = self.query_one(Input).value.strip()
        if free:
            chosen.append(free)
        if chosen:
            self._next(", ".join(chosen))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._take_selection()

    def _next(self, answer: str) -> None:
        q = self.req.questions[self.index]
        self.answers.append(f"{q.question}: {answer}" if len(self.req.questions) > 1 else answer)
        self.index += 1
        if self.index >= len(self.req.questions):
            self.dismiss("\n".join(self.answers))
            return
        self.query_one(Input).value = ""
        self._show()

    def action_cancel(self) -> None:
        self.dismiss("")


def modal_for(req: Request) -> RequestModal:
    return {"approval": ApprovalModal, "continue": ContinueModal, "question": QuestionModal}[req.kind](req)
