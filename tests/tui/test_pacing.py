"""The screen's right of way (shell/pacing.py, issue #26): a thread feeding the screen waits while a
frame is still to be drawn, goes on once it is, never waits on the screen's own thread, never twice
for a frame that never came, and never once the app is gone. Behaviour only: no timing."""

from __future__ import annotations

import threading

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.shell.pacing import Pace, PacedSink

SAFETY = 90.0  # a wait that is never released fails the test instead of hanging it


class SpyPace(Pace):
    """Notes each wait, and whether it came back while the frame was still pending."""

    def __init__(self, max_wait: float = SAFETY) -> None:
        super().__init__(max_wait)
        self.entered = threading.Event()
        self.returned_held: list[bool] = []

    def wait(self) -> None:
        self.entered.set()
        super().wait()
        self.returned_held.append(self.held)


def in_thread(work) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_a_feeder_waits_for_the_frame_and_goes_on_once_it_is_drawn():
    pace = SpyPace()
    pace.hold()
    mark = pace.mark()
    thread = in_thread(pace.wait)
    assert pace.entered.wait(SAFETY)
    pace.release(mark)
    thread.join(SAFETY)
    assert not thread.is_alive() and pace.returned_held == [False]


def test_the_screens_own_thread_never_waits():
    pace = SpyPace()
    pace.mark()  # the screen starts a frame on this thread
    pace.hold()
    pace.wait()
    assert pace.returned_held == [True]  # back at once, the frame still pending


def test_a_release_for_an_older_frame_does_not_free_a_newer_one():
    pace = SpyPace()
    pace.hold()
    old = pace.mark()
    pace.hold()  # a batch posted after that frame began
    pace.release(old)
    assert pace.held
    pace.release(pace.mark())
    assert not pace.held


def test_a_frame_that_never_comes_is_waited_for_once_only():
    pace = Pace(max_wait=0.0)
    pace.hold()
    done: list[str] = []
    thread = in_thread(lambda: (pace.wait(), pace.wait(), done.append("both")))
    thread.join(SAFETY)
    assert done == ["both"] and pace.held
    assert pace._gave_up == pace._holds  # the second wait saw it had given up on this frame


def test_once_stopped_nothing_holds_or_waits():
    pace = SpyPace()
    pace.stop()
    pace.hold()
    assert not pace.held
    thread = in_thread(pace.wait)
    thread.join(SAFETY)
    assert pace.returned_held == [False]


def _sink(pace: Pace, posted: list[list[m.Msg]]) -> PacedSink:
    clock = [0.0]

    def post_many(batch: list[m.Msg]) -> None:
        pace.hold()  # as the link does: the batch's frame is still to be drawn
        posted.append(batch)

    return PacedSink(post_many, pace, interval=1.0, clock=lambda: clock[0])


def test_a_delta_that_posts_a_batch_waits_for_its_frame():
    pace = SpyPace()
    posted: list[list[m.Msg]] = []
    sink = _sink(pace, posted)
    thread = in_thread(lambda: sink(m.TextDelta(block_id="b", text="hello")))
    assert pace.entered.wait(SAFETY)
    assert [type(x) for x in posted[0]] == [m.TextDelta]
    pace.release(pace.mark())
    thread.join(SAFETY)
    assert pace.returned_held == [False]
    sink.close()


def test_other_msgs_and_held_deltas_do_not_wait():
    pace = SpyPace()
    posted: list[list[m.Msg]] = []
    sink = _sink(pace, posted)
    pace.mark()  # the screen is this thread ...
    done: list[str] = []

    def feed() -> None:  # ... and this one feeds it
        sink(m.Notice(text="a notice"))  # not a delta: posted, no wait
        sink(m.ToolCallStarted(call_id="c", name="shell", arguments="{}", summary="ls"))
        done.append("fed")

    thread = in_thread(feed)
    thread.join(SAFETY)
    assert done == ["fed"] and not pace.entered.is_set() and len(posted) == 2
    sink.close()


def test_an_agents_delta_waits_too():
    pace = SpyPace()
    posted: list[list[m.Msg]] = []
    sink = _sink(pace, posted)
    delta = m.FromAgent(agent_id="a1", msg=m.TextDelta(block_id="b", text="x"))
    thread = in_thread(lambda: sink(delta))
    assert pace.entered.wait(SAFETY)
    pace.release(pace.mark())
    thread.join(SAFETY)
    assert pace.returned_held == [False]
    sink.close()


def test_while_a_key_is_on_its_way_every_msg_waits_and_its_frame_frees_them():
    pace = SpyPace()
    posted: list[list[m.Msg]] = []
    sink = _sink(pace, posted)
    pace.key()  # on this (the screen's) thread
    assert pace.urgent
    thread = in_thread(lambda: sink(m.Notice(text="not a delta, but a key goes first")))
    assert pace.entered.wait(SAFETY)
    pace.release(pace.mark())
    thread.join(SAFETY)
    assert pace.returned_held == [False] and not pace.urgent
    sink.close()


async def test_a_key_pressed_in_the_app_holds_the_feeders_until_its_frame_is_drawn():
    from mrsmith_tui.tui.app import MrSmithApp
    from tests.tui.fakes import CONFIG, factory
    from tests.tui.pilot import until

    app = MrSmithApp(factory([]), config=CONFIG, history_path=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.session is not None)
        pace = app.link.pace
        keys: list[bool] = []
        original = pace.key
        pace.key = lambda: (original(), keys.append(pace.urgent))  # type: ignore[method-assign]
        await pilot.press("a")
        assert keys == [True]
        await until(pilot, lambda: not pace.held and not pace.urgent)
        assert app.model.input.draft == "a"
