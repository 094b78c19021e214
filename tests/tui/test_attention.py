"""Notifications: the bytes written on the driver when a long run ends or a request waits, by terminal;
nothing for a short run, with notify = false, or while the terminal has the focus; the text sanitised."""

from __future__ import annotations

import pytest
from textual import events

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.shell.attention import NOTE_CHARS, notification_bytes, safe_text, terminal_kind
from mrsmith_tui.tui.update.attention import attention_for
from mrsmith_tui.tui.update.sessions import initial_model
from tests.security.corpus import ALL, controls_in
from tests.tui.fakes import AT, CONFIG, Clock, FakeSession, approve
from tests.tui.pilot import painted, until


class Timed(FakeSession):
    """A run that takes `took` seconds by its Msgs' own times."""

    took = 0.0

    def run(self, prompt, cancel, *, attachments=()):
        self.prompts.append(prompt)
        self.sink(m.UserPrompt(run_id="r", text=prompt, at=AT))
        self.sink(m.RunStarted(run_id="r", agent="default", model="x", at=AT))
        for step in self.script.pop(0) if self.script else []:
            step(self, cancel)
        self.sink(m.RunEnded(run_id="r", cancelled=cancel.cancelled, at=AT + self.took))


def app_for(took=0.0, script=None, **config) -> MrSmithApp:
    def make(sink, approver):
        session = Timed(sink, approver, script)
        session.took = took
        return session
    return MrSmithApp(make, config=CONFIG.model_copy(update=config), history_path=None, welcome=False, clock=Clock())


async def rung(app, pilot, monkeypatch, *, prompt="go", blur=None) -> list[str]:
    """Send a prompt and wait for the run to end; the notification bytes written meanwhile."""
    written: list[str] = []
    original = app._driver.write
    monkeypatch.setattr(app._driver, "write", lambda data: (written.append(data), original(data)))
    if blur is not None:
        app.post_message(events.AppBlur() if blur else events.AppFocus())
        await until(pilot, lambda: app.attention.focused is (not blur))
    await pilot.press(*prompt, "enter")
    await until(pilot, lambda: bool(app.model.conv.blocks) and not app.model.run.running
                and app.model.ledger.run_started is None)
    return [w for w in written if w.startswith("\a")]


@pytest.mark.parametrize(("env", "expected"), [
    ({"TERM_PROGRAM": "iTerm.app"}, "\a\x1b]9;mrsmith: the run finished after 42s\x1b\\"),
    ({"TERM_PROGRAM": "WezTerm"}, "\a\x1b]777;notify;mrsmith;the run finished after 42s\x1b\\"),
    ({"TERM": "xterm-kitty"}, "\a\x1b]99;i=mrsmith:d=0;mrsmith\x1b\\\x1b]99;i=mrsmith:p=body;the run finished after 42s\x1b\\"),
    ({"TERM": "xterm-256color"}, "\a"),
    ({"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux-0/default,1,0"}, "\a"),
])
async def test_a_long_run_rings_the_way_the_terminal_takes_it(env, expected, monkeypatch):
    for name in ("TERM", "TERM_PROGRAM", "TMUX", "KITTY_WINDOW_ID"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    app = app_for(took=42.0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await rung(app, pilot, monkeypatch) == [expected]


@pytest.mark.parametrize(("took", "config", "blur", "rings"), [
    (42.0, {}, None, True),  # the terminal never said where the focus is: ring
    (42.0, {}, True, True),  # it is elsewhere
    (42.0, {}, False, False),  # the person is looking
    (9.9, {}, True, False),  # short: under notifyAfterSeconds (10)
    (3.0, {"notify_after_seconds": 2.0}, True, True),
    (42.0, {"notify": False}, True, False),
])
async def test_when_a_run_end_rings(took, config, blur, rings, monkeypatch):
    monkeypatch.setenv("TERM_PROGRAM", "WezTerm")
    app = app_for(took=took, **config)
    async with app.run_test(size=(100, 30)) as pilot:
        bells = await rung(app, pilot, monkeypatch, blur=blur)
        assert bool(bells) is rings, bells


async def test_a_waiting_approval_rings_at_once_even_in_a_short_run(monkeypatch):
    monkeypatch.setenv("TERM_PROGRAM", "iTerm.app")
    monkeypatch.delenv("TMUX", raising=False)
    app = app_for(took=0.0, script=[[approve("shell")]])
    async with app.run_test(size=(100, 30)) as pilot:
        written: list[str] = []
        monkeypatch.setattr(app._driver, "write", written.append)
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app))
        assert [w for w in written if w.startswith("\a")] == ["\a\x1b]9;mrsmith: shell waits for your approval\x1b\\"]
        app.clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
        assert len([w for w in written if w.startswith("\a")]) == 1  # the short run's end does not ring


def test_a_cancelled_or_agent_run_end_calls_nobody_and_questions_do():
    model = initial_model()
    running = Model(ledger=model.ledger.__class__(run_started=AT), run=model.run.__class__(running=True))
    replayed = Model(ledger=model.ledger.__class__(run_started=AT))  # a resumed session's recorded run: no worker
    assert attention_for(replayed, m.RunEnded(run_id="r", at=AT + 60)) is None
    assert attention_for(running, m.RunEnded(run_id="r", at=AT + 60)) is not None
    assert attention_for(running, m.RunEnded(run_id="r", cancelled=True, at=AT + 60)) is None
    assert attention_for(running, m.FromAgent(agent_id="agent-1", msg=m.RunEnded(run_id="r", at=AT + 60), at=AT)) is None
    assert attention_for(model, m.TextDelta(block_id="t", text="x", at=AT)) is None
    asked = attention_for(model, m.QuestionRequested(request_id="q", questions=(), agent_id="agent-2", at=AT))
    assert asked is not None and asked.kind == "waiting" and asked.text == "agent-2: a question waits for your answer"


@pytest.mark.parametrize("kind", ["osc9", "osc777", "osc99", "bell"])
def test_hostile_text_cannot_end_or_extend_the_sequence(kind):
    hostile = f"mcp__x__{ALL}\x1b\\\x07;;9;4;100\u202e" * 3
    data = notification_bytes(kind, hostile)
    body = data.removeprefix("\a")
    # the only controls are ours: the bell and each OSC's ESC ] ... ESC \
    assert controls_in(body.replace("\x1b]", "").replace("\x1b\\", "")) == set()
    assert body.count("\x1b]") == body.count("\x1b\\") == {"osc9": 1, "osc777": 1, "osc99": 2, "bell": 0}[kind]
    if kind == "osc777":
        assert body.count(";") == 3  # 777;notify;title;body
    assert len(safe_text(hostile)) <= NOTE_CHARS


def test_terminal_detection():
    assert terminal_kind({"TERM": "foot"}) == terminal_kind({"TERM": "rxvt-unicode-256color"}) == "osc777"
    assert terminal_kind({"TERM_PROGRAM": "ghostty"}) == terminal_kind({"TERM": "xterm-ghostty"}) == "osc777"
    assert terminal_kind({"KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"}) == "osc99"
    assert terminal_kind({"TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"}) == "bell"
    assert terminal_kind({}) == "bell"
