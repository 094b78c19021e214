"""A deliberately naive app with the same `run_tui` entry: one `Markdown` per block fed by
`MarkdownStream`, every block kept mounted. `python -m bench --app naive` measures it, to
check the harness and to show what the real app's design buys (TEXTUAL-NOTES.md)."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Markdown, Static

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.approval import PolicyApprover
from mrsmith_tui.tui.shell.link import SessionFactory


class Dispatch(Message):
    def __init__(self, msg: msgs.Msg) -> None:
        super().__init__()
        self.msg = msg


class NaiveApp(App):
    CSS = "#log { height: 1fr; } Markdown { margin: 0; }"

    def __init__(self, make_session: SessionFactory) -> None:
        super().__init__()
        self.make_session = make_session
        self.streams: dict[str, Any] = {}

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="log")
        yield Input(id="prompt")

    def on_mount(self) -> None:
        def post(msg: msgs.Msg) -> None:
            self.post_message(Dispatch(msg))

        self.session = self.make_session(post, PolicyApprover())
        self.query_one("#log").anchor()  # follow the tail
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.run_prompt(event.value)

    @work(thread=True)
    def run_prompt(self, prompt: str) -> None:
        self.session.run(prompt, CancelToken())

    async def on_dispatch(self, event: Dispatch) -> None:
        if not self.screen.query("#log"):
            return  # shutting down
        msg, log = event.msg, self.screen.query_one("#log")
        if isinstance(msg, msgs.UserPrompt):
            await log.mount(Static(f"> {msg.text}", markup=False))
        elif isinstance(msg, (msgs.TextDelta, msgs.ReasoningDelta)):
            if msg.block_id not in self.streams:
                block = Markdown()
                await log.mount(block)
                self.streams[msg.block_id] = Markdown.get_stream(block)
            await self.streams[msg.block_id].write(msg.text)
        elif isinstance(msg, msgs.BlockEnded) and msg.block_id in self.streams:
            await self.streams.pop(msg.block_id).stop()
        elif isinstance(msg, msgs.ToolCallFinished):
            await log.mount(Static(f"✓ {msg.name}", markup=False))


def run_tui(make_session: SessionFactory, *, config: Any = None, theme: str | None = None, history_path: Any = None) -> int:
    NaiveApp(make_session).run()
    return 0
