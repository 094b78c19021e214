"""#23: a long answer that ends before its view is mounted is still drawn as Markdown.

The order that lost it (seen under load): the view is shown the streaming block before it is mounted
(kept early), its tail is attached by its compose, the finished block is shown (drawn at once), and
only then its Mount drew the early, streaming block again over it; nothing changed afterwards, so it
stayed plain text. The test makes that order happen every time, not by chance."""

from __future__ import annotations

from textual.app import App
from textual.containers import VerticalScroll

from mrsmith_tui.tui.model.state import Block
from mrsmith_tui.tui.view.chat_view import AnswerView
from tests.tui.pilot import until
from tests.tui.test_first_day import _long_answer

TEXT = _long_answer(60_000)
STREAMING = Block(key="b1", kind="text", text=TEXT[:30_000])
DONE = Block(key="b1", kind="text", text=TEXT, done=True)


class EndsBetweenComposeAndMount(AnswerView):
    async def mount_composed_widgets(self, widgets) -> None:
        await super().mount_composed_widgets(widgets)  # the tail is attached now; Mount is still to come
        self.show(DONE, 0.0, 80)


class Host(App[None]):
    def compose(self):
        yield VerticalScroll(id="conversation")


async def test_an_answer_that_ended_before_its_view_was_mounted_is_markdown():
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = EndsBetweenComposeAndMount(STREAMING)
        view.show(STREAMING, 0.0, 80)  # before it is mounted: kept for its Mount
        await app.query_one("#conversation").mount(view)
        assert view.block is DONE  # the Mount did not draw the streaming block back over the finished one
        await until(pilot, lambda: view.settled)
        shown = view.text_shown()
        assert "THE END" in shown and "Part 0" in shown and "## Part" not in shown and "```" not in shown


async def test_an_answer_shown_only_before_its_mount_is_drawn_by_the_mount():
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        view = AnswerView(STREAMING)
        view.show(STREAMING, 0.0, 80)
        view.show(DONE, 0.0, 80)  # both before it is mounted: the last one counts
        await app.query_one("#conversation").mount(view)
        assert view.block is DONE
        await until(pilot, lambda: view.settled)
        assert "## Part" not in view.text_shown() and "THE END" in view.text_shown()
