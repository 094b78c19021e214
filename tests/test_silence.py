"""SilenceWatch on a clock the test moves: when a silent model is worth a line, and what the line says."""

from __future__ import annotations

from mrsmith_tui import msgs
from mrsmith_tui.silence import SilenceWatch


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_silence_is_told_once_past_the_threshold_then_each_time_it_doubles():
    clock = Clock()
    watch = SilenceWatch(20, clock=clock)
    watch.saw(msgs.RunStarted(run_id="1"))
    clock.now += 19
    assert watch.due() is None
    clock.now += 1
    assert watch.due() == 20
    assert watch.notice(20, "local", 600) == (
        "waiting for local (20 s, nothing received yet; gives up at 600 s (readTimeout); Ctrl-C stops)")
    assert watch.due() is None  # told once
    clock.now += 19
    assert watch.due() is None
    clock.now += 1
    assert watch.due() == 40


def test_a_model_that_spoke_is_waited_for_since_its_last_word():
    clock = Clock()
    watch = SilenceWatch(20, clock=clock)
    watch.saw(msgs.RunStarted(run_id="1"))
    clock.now += 15
    watch.saw(msgs.TextDelta(block_id="b", text="Hel"))
    clock.now += 15
    assert watch.due() is None  # 15 s since the last delta, not 30 since the start
    clock.now += 5
    assert watch.notice(watch.due() or 0, "local") == "waiting for local (20 s since it last sent anything; Ctrl-C stops)"


def test_a_running_tool_and_an_ended_run_are_not_the_model_s_silence():
    clock = Clock()
    watch = SilenceWatch(20, clock=clock)
    watch.saw(msgs.ToolCallStarted(call_id="c", name="shell", arguments="{}"))
    clock.now += 300
    assert watch.due() is None
    watch.saw(msgs.ToolCallFinished(call_id="c", name="shell", ok=True, result=""))
    clock.now += 20
    assert watch.notice(watch.due() or 0, "p").startswith("waiting for p (20 s, nothing received yet")  # the next request
    watch.saw(msgs.RunEnded(run_id="1"))
    clock.now += 1000
    assert watch.due() is None


def test_no_threshold_does_not_repeat_on_every_look():
    clock = Clock()
    watch = SilenceWatch(0, clock=clock)
    assert watch.due() == 0
    assert watch.due() is None
