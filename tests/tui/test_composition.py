"""The session is composed in a worker thread (issue #26): the prompt takes keys from the first
frame, a prompt sent before the session is ready goes out the moment it is, Esc drops it, and a
session composed after the app quit is closed, never run."""

from __future__ import annotations

import threading

from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.view.prompt_box import PromptArea
from tests.tui.fakes import CONFIG, FakeSession
from tests.tui.pilot import until


class HeldFactory:
    """Composes a FakeSession in the worker only once `release` is set; records the thread."""

    def __init__(self, fail: str = "") -> None:
        self.release = threading.Event()
        self.entered = threading.Event()
        self.closed = threading.Event()
        self.made: list[FakeSession] = []
        self.thread: threading.Thread | None = None
        self.fail = fail

    def __call__(self, sink, approver) -> FakeSession:
        self.thread = threading.current_thread()
        self.entered.set()
        assert self.release.wait(60)
        if self.fail:
            raise RuntimeError(self.fail)
        session = FakeSession(sink, approver)
        self.made.append(session)
        close = session.close

        def closing() -> None:
            close()
            self.closed.set()

        session.close = closing  # type: ignore[method-assign]
        return session


def make_app(held: HeldFactory) -> MrSmithApp:
    return MrSmithApp(held, config=CONFIG, history_path=None)


def prompt_text(app: MrSmithApp) -> str:
    return app.query_one(PromptArea).text


async def test_keys_are_taken_while_the_session_is_composed_and_a_sent_prompt_goes_when_ready():
    held = HeldFactory()
    app = make_app(held)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        assert held.thread is not threading.current_thread()  # composed off the UI thread
        await pilot.press(*"hello")
        await until(pilot, lambda: prompt_text(app) == "hello")  # typed while composing
        await pilot.press("enter")
        await until(pilot, lambda: any(b.kind == "user" for b in app.model.conv.blocks) or app.model.run.running)
        assert app.session is None and held.made == []
        held.release.set()
        await until(pilot, lambda: held.made and held.made[0].prompts == ["hello"] and not app.model.run.running)
        assert any(b.kind == "text" and "ok" in b.text for b in app.model.conv.blocks)
        assert app.session is held.made[0]


async def test_two_prompts_sent_while_composing_keep_their_order():
    held = HeldFactory()
    app = make_app(held)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        await pilot.press(*"one", "enter")
        await until(pilot, lambda: app.model.run.running)
        await pilot.press(*"two", "enter")  # queued by the UI behind the running one
        held.release.set()
        await until(pilot, lambda: held.made and len(held.made[0].prompts) == 2 and not app.model.run.running)
        assert held.made[0].prompts == ["one", "two"]


async def test_escape_drops_a_prompt_that_waits_for_the_session():
    held = HeldFactory()
    app = make_app(held)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        await pilot.press(*"never", "enter")
        await until(pilot, lambda: app.model.run.running)
        await pilot.press("escape")
        await until(pilot, lambda: not app.model.run.running)
        held.release.set()
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"after", "enter")
        await until(pilot, lambda: held.made[0].prompts == ["after"] and not app.model.run.running)


async def test_a_failed_composition_is_one_line_and_the_waiting_prompt_ends():
    held = HeldFactory(fail="no such provider\nsecond line")
    app = make_app(held)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: app.model.run.running)
        held.release.set()
        await until(pilot, lambda: not app.model.run.running)
        errors = [b.text for b in app.model.conv.blocks if b.kind == "error"]
        assert any("could not start the session: no such provider" in t for t in errors)
        assert any("nothing can run: the session could not start" in t for t in errors)
        assert app.session is None


async def test_a_session_composed_after_the_app_quit_is_closed_and_never_run():
    held = HeldFactory()
    app = make_app(held)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: app.model.run.running)
        app.exit()
        held.release.set()  # the worker finishes after the app is gone (or while it goes)
    assert held.closed.wait(60)  # the worker may finish after the app is gone: it closes what it made
    assert held.made[0].prompts == []


async def test_sessions_waits_while_the_first_session_is_composed():
    held = HeldFactory()
    app = MrSmithApp(held, config=CONFIG, history_path=None, resume=lambda *a: (_ for _ in ()).throw(AssertionError))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, held.entered.is_set)
        app.link.switch("01930000-0000-7000-8000-000000000001")
        assert any("still starting" in b.text for b in app.model.conv.blocks)
        held.release.set()
        await until(pilot, lambda: app.session is not None)
