"""Modals for the person's answers: approval, continue-after-round-cap, question.

The shell routes every key on a modal through `update` (key_route, answer_for) before the modal
sees it, so single-key answers never reach these widgets; a question posts `Answered` with its
text. A modal posts `Shown` once it is painted: its grace starts then. The modal leaves the
screen when `update` pops its request. They are pushed only once `update` armed the request.
The choices and the reason are docked at the bottom and cut to a line each, so they stay on
screen at any size; the arguments, the full spec and the diff scroll above them.
"""

from __future__ import annotations

import json
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from mrsmith_tui.security.redact import map_strings
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tools.base import RULE_TEXT
from mrsmith_tui.tools.exact_command import shown_rule
from mrsmith_tui.tui.model import ANSWER_KEYS, Request, one_line
from mrsmith_tui.tui.screens.choices import ChoiceList
from mrsmith_tui.tui.screens.screen_css import ScreensCss
from mrsmith_tui.tui.view.blocks import diff_line, join_lines
from mrsmith_tui.tui.view.clean_input import CleanInput
from mrsmith_tui.words import counted

WRITTEN = ("content", "new_string", "old_string")  # what a diff shows already


def _arguments_text(raw: str, *, diff_shown: bool = False) -> str:
    try:
        value = map_strings(json.loads(raw), clean) if raw else {}  # decoded "\u001b" is an ESC again
    except (ValueError, RecursionError):
        return raw
    if isinstance(value, dict):
        lines = []
        for k, v in value.items():
            if diff_shown and k in WRITTEN:
                continue  # the diff below shows it (the content once, not twice)
            if k in WRITTEN and isinstance(v, str) and len(v) > 200:
                v = v[:200] + f"… (+{counted(len(v) - 200, 'char')})"
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


class RequestModal(ScreensCss, ModalScreen[str]):
    # Single keys that answer (model.ANSWER_KEYS), handled in on_key, not as bindings, so the
    # answer carries the key's time.
    ANSWER_KEYS: ClassVar[dict[str, str]] = {}

    class Shown(Message):
        def __init__(self, modal: RequestModal) -> None:
            super().__init__()
            self.modal = modal  # the app heeds only the modal on screen (a replaced one may share its id)
            self.request_id = modal.request_id

    class Answered(Message):
        def __init__(self, modal: RequestModal, answer: str, key_time: float | None) -> None:
            super().__init__()
            self.modal = modal
            self.request_id = modal.request_id
            self.answer = answer
            self.key_time = key_time  # textual's clock (events.Key.time); None: now

    BODY_MAX = 24  # rows of arguments/diff at most; less when the screen is short
    OPTIONS_MAX = 14  # rows of a question's options at most

    def __init__(self, req: Request) -> None:
        super().__init__(classes="request")
        self.req = req
        self.request_id = req.request_id

    def on_mount(self) -> None:
        self.call_after_refresh(self.fit_body)
        self.call_after_refresh(lambda: self.post_message(self.Shown(self)))

    def confirming_always(self, on: bool, rule: bool = False) -> None:
        """The first "a" (or "r": `rule`) was pressed: say that a second one (or Enter) is needed."""

    def explaining(self, on: bool) -> None:
        """Tab on an approval: a line to tell the model what to do instead goes with the "no"."""

    def page(self, step: int) -> None:
        """PageUp / PageDown scroll the arguments and diff (or a question's options)."""
        body = self.query(".body, #q-options")
        if body:
            target = body.first()
            target.scroll_to(y=target.scroll_y + step * max(1, target.size.height - 1), animate=False)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.fit_body)

    def fit_body(self) -> None:
        """Give the scrolling body (or a question's options) only the rows the footer leaves: the dialog
        may take 90 % of the screen, less its border and padding (4), the title (2), the body's margin
        and the footer."""
        bodies = self.query(".body, #q-options")
        footers = self.query(".footer")
        if not bodies or not footers:
            return
        room = int(self.size.height * 0.9) - 6 - footers.first().outer_size.height - 1
        texts = self.query("#q-text")
        if texts:  # a long question takes at most a third, so its options stay in view
            cap = max(2, room // 3)
            text = texts.first()
            if text.styles.max_height is None or text.styles.max_height.value != cap:
                text.styles.max_height = cap
            room -= cap - 1
        body = bodies.first()
        wanted = max(1, min(self.BODY_MAX if body.has_class("body") else self.OPTIONS_MAX, room))
        if body.styles.max_height is None or body.styles.max_height.value != wanted:
            body.styles.max_height = wanted

    def answer(self, answer: str, key_time: float | None = None) -> None:
        self.post_message(self.Answered(self, answer, key_time))


def why_text(req: Request, width: int = 100) -> Content:
    """The rule that asked and the tool's detail, cut to fit one line of `width` when it can (two at
    most: the rule's own words wrap on a narrow screen); the full detail is in the body."""
    rule = RULE_TEXT.get(req.rule, RULE_TEXT["other"])
    head = f"this call {rule}"
    parts: list[tuple[str, str]] = [("Why: ", "bold"), (head, "bold $warning")]
    room = width - len("Why: ") - len(head) - 3
    if req.reason and room >= 8:
        parts.append((f" ({one_line(req.reason, room)})", "$text-muted"))
    return Content.assemble(*parts)


def remember_text(req: Request, width: int = 100) -> Content:
    """What an "always" would remember, on one line (a long command is cut; its full text is in the body).
    A shell command: "a" this exact command, "r" the broader rule (#23)."""
    if req.exact:
        return Content.assemble(("Always: ", "bold"), ("a", "bold $accent"), (" this command · ", ""),
                                ("r", "bold $accent"), (" ", ""), (one_line(req.spec, max(8, width - 28)), "bold $accent"))
    return Content.assemble(("Always remembers: ", "bold"), (one_line(req.spec, max(8, width - 18)), "bold $accent"))


def cut_in_footer(req: Request, width: int) -> bool:
    """Whether the footer shows less than the whole reason or spec (then the body shows them whole)."""
    return in_full(req, width) is not None


def in_full(req: Request, width: int) -> Content | None:
    """What the footer had to cut, whole, for the body: only the parts it cut, each said once."""
    parts: list[tuple[str, str]] = []
    if req.reason and req.reason not in str(why_text(req, width)):
        parts += [("Reason: ", "bold"), (req.reason, "")]
    if req.spec and req.spec not in str(remember_text(req, width)):
        parts += [("\n" if parts else "", ""), ("Always would remember: ", "bold"), (req.spec, "$accent")]
    return Content.assemble(*parts) if parts else None


def approval_keys(req: Request) -> tuple[tuple[str, str], ...]:
    """The keys an approval offers: with a shell command, "a" this command and "r" its rule (#23)."""
    if not req.exact:
        return ApprovalModal.KEYS
    return (("y", "yes"), ("n", "no (Tab: say why)"), ("a", "always this command"),
            ("r", f"always {one_line(shown_rule(req.spec), 24)}"), ("esc", "no"))


class ApprovalModal(RequestModal):
    ANSWER_KEYS = ANSWER_KEYS["approval"]
    KEYS = (("y", "yes"), ("n", "no (Tab: say why)"), ("a", "always (press twice)"), ("esc", "no"))

    def compose(self) -> ComposeResult:
        r = self.req
        who = f"  · from {r.agent_id}" if r.agent_id else ""
        width = max(20, min(106, int(self.app.size.width * 0.9) - 6))  # the dialog's text width
        with Vertical(classes="dialog"):
            yield Static(Content.assemble(("◆ ", "$warning"), ("Allow ", "bold"), (r.tool, "bold $accent"),
                                          ("?", "bold"), (who, "$text-muted")), classes="title")
            with Vertical(classes="footer"):
                yield Static(why_text(r, width), classes="reason")
                if r.spec:
                    yield Static(remember_text(r, width), classes="remember")
                yield Static(_keys(*approval_keys(r)), classes="keys")
            with VerticalScroll(classes="body"):
                full = in_full(r, width)
                if full is not None:
                    yield Static(full, classes="spec")
                yield Static(Content(_arguments_text(r.arguments, diff_shown=bool(r.diff))), classes="args")
                if r.diff:
                    lines = r.diff.rstrip("\n").split("\n")[:400]
                    yield Static(join_lines([diff_line(line) for line in lines]), classes="diff")

    def explaining(self, on: bool) -> None:
        if not on or self.query("#deny-why"):
            return
        footer = self.query_one(".footer")
        line = CleanInput(placeholder="what should the model do instead? Enter: no, with this · Esc: just no",
                          id="deny-why", select_on_focus=False)
        line.cursor_blink = False
        footer.mount(line, before=footer.query_one(".keys"))
        line.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        said = " ".join(event.value.split())
        self.answer(f"no: {said}" if said else "no")

    def confirming_always(self, on: bool, rule: bool = False) -> None:
        keys = self.query(".keys")
        if not keys:
            return
        if on:
            what = "this exact command" if self.req.exact and not rule else one_line(self.req.spec or self.req.tool, 40)
            keys.first(Static).update(Content.assemble(("r" if rule else "a", "bold $warning"), (" again or ", "bold"),
                                                 ("enter", "bold $warning"),
                                                 (f": always allow {what} this session · ", "bold"),
                                                 ("y", "bold $accent"), (" once  ", "$text-muted"),
                                                 ("n", "bold $accent"), (" no", "$text-muted")))
        else:
            keys.first(Static).update(_keys(*approval_keys(self.req)))


class ContinueModal(RequestModal):
    ANSWER_KEYS = ANSWER_KEYS["continue"]

    def compose(self) -> ComposeResult:
        who = f" ({self.req.agent_id})" if self.req.agent_id else ""
        with Vertical(classes="dialog"):
            yield Static(Content.assemble(("◆ ", "$warning"), (f"The run used {self.req.rounds} tool rounds{who}.", "bold")),
                         classes="title")
            with Vertical(classes="footer"):
                yield Static(Content.styled("Go on with a fresh set of rounds?", "$text-muted"), classes="reason")
                yield Static(_keys(("y", "continue"), ("n", "stop here")), classes="keys")


class QuestionModal(RequestModal):
    """Numbered options (1-9 pick, space toggles with several allowed), free text, Enter sends."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "skip", show=False)]

    def __init__(self, req: Request) -> None:
        super().__init__(req)
        self.index = 0
        self.answers: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            with VerticalScroll(id="q-text"):
                yield Static("", classes="title", id="q-title")
            with Vertical(classes="footer"):
                yield CleanInput(placeholder="or type an answer, Enter sends", id="q-free", select_on_focus=False)
                yield Static(_keys(("1-9", "pick"), ("space", "toggle"), ("enter", "send"), ("esc", "skip")),
                             classes="keys")
            yield ChoiceList(id="q-options")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(Input).cursor_blink = False
        self._show()

    def _show(self) -> None:
        q = self.req.questions[self.index]
        n = len(self.req.questions)
        step = f"  ({self.index + 1}/{n})" if n > 1 else ""
        hint = " · several allowed" if q.multiple else ""
        self.query_one("#q-title", Static).update(
            Content.assemble(("? ", "$accent"), (q.question, "bold"), (step + hint, "$text-muted")))
        options = self.query_one(ChoiceList)
        options.set_choices([(f"{i}. {o.label}" + (f" — {o.description}" if o.description else ""), o.label)
                             for i, o in enumerate(q.options, 1)], multiple=q.multiple)
        options.display = bool(q.options)
        keys = (("1-9", "pick"), ("space", "tick"), ("enter", "send"), ("esc", "skip")) if q.multiple \
            else (("1-9", "pick"), ("enter", "send"), ("esc", "skip"))
        self.query_one(".keys", Static).update(_keys(*keys))
        (options if q.options else self.query_one(Input)).focus()

    def on_key(self, event) -> None:
        if event.is_printable and event.character and not event.character.isdigit() and event.character != " " \
                and isinstance(self.focused, ChoiceList):  # typing on the options: it is a free answer
            event.stop()
            free = self.query_one(Input)
            free.focus()
            free.insert_text_at_cursor(event.character)
        elif event.character and event.character.isdigit() and not isinstance(self.focused, Input):
            q = self.req.questions[self.index]
            i = int(event.character) - 1
            if 0 <= i < len(q.options):
                event.stop()
                if q.multiple:
                    self.query_one(ChoiceList).toggle(q.options[i].label)
                else:
                    self._next(q.options[i].label)
        elif event.key == "space" and isinstance(self.focused, ChoiceList):
            event.stop()
            options = self.query_one(ChoiceList)
            if options.multiple and options.highlighted is not None:
                options.toggle(options.values[options.highlighted])
        elif event.key == "enter" and not isinstance(self.focused, Input):
            event.stop()
            self._take_selection()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        event.stop()
        self._take_selection(event.ticked, event.under_cursor)

    def on_option_list_option_selected(self, event: ChoiceList.OptionSelected) -> None:
        event.stop()  # Enter is on_key's (the options' own "selected" would send twice)

    def _take_selection(self, ticked: list[str] | None = None, under_cursor: str | None = None) -> None:
        """Send what is ticked (or, with nothing ticked, the option under the cursor) and the free text;
        `ticked`/`under_cursor`: the options as they were when Enter was pressed on them."""
        q = self.req.questions[self.index]
        options = self.query_one(ChoiceList)
        if ticked is None:
            ticked = list(options.selected)
            under_cursor = options.values[options.highlighted] if options.highlighted is not None and options.values else None
        chosen = list(ticked)
        free = self.query_one(Input).value.strip()
        if free:
            chosen.append(free)
        elif not chosen and q.options and under_cursor is not None:  # Enter on the option under the cursor
            chosen = [under_cursor]
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
            self.answer("\n".join(self.answers))
            return
        self.query_one(Input).value = ""
        self._show()

    def action_cancel(self) -> None:
        self.answer("")


def modal_for(req: Request) -> RequestModal:
    return {"approval": ApprovalModal, "continue": ContinueModal, "question": QuestionModal}[req.kind](req)
