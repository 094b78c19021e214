"""Nothing a model or a tool prints drives the terminal in the full-screen UI.

The app runs against the real session and the loopback server; every frame is serialised to
the bytes a terminal would receive (as bench/harness.py does) and searched for controls that
Textual itself does not write.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from loopback import Turn, chunk, text_turn, tool_turn, usage_chunk
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.security.corpus import ALL, CONTROL_CHARS
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, settled, until
from tests.tui.test_e2e import app_for, config_for

pytest.importorskip("mrsmith_tui.tools.builtin")

# What Textual's compositor writes: SGR colours and absolute cursor moves (and sync/cursor modes).
_TEXTUAL_OWN = re.compile(r"\x1b\[[0-9;:]*m|\x1b\[\d+;\d+H|\x1b\[\?\d+[hl]|\x1b\[\d+ q")


class Frames:
    def __init__(self, app) -> None:
        self.text: list[str] = []
        original = app._display

        def display(screen, renderable) -> None:
            original(screen, renderable)
            if renderable is not None and not app._batch_count:
                self.text.append(renderable.render_segments(app.console))

        app._display = display

    def foreign_controls(self) -> set[str]:
        """Control characters in the frames other than Textual's own sequences."""
        found: set[str] = set()
        for frame in self.text:
            found |= {c for c in _TEXTUAL_OWN.sub("", frame) if c in CONTROL_CHARS and c not in "\n"}
        return found


def corpus_turns() -> list[Turn]:
    pieces = [ALL[i:i + 7] for i in range(0, len(ALL), 7)]  # sequences cut across deltas
    answer = Turn(events=[chunk(role="assistant", content=""), chunk(reasoning="thinking \x1b]0;PWNED-R\x07 [bold]x[/]"),
                          *[chunk(p) for p in pieces], chunk("[red]not markup[/red] [link=http://x]y[/link]"),
                          chunk(finish="stop"), usage_chunk()])
    return [tool_turn("list_dir", {"path": "odd"}), answer]


async def test_escapes_from_the_model_and_a_tool_are_shown_not_obeyed(loopback, tmp_path):
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "name\x1b]0;FILE-TITLE\x07\u202eevil").write_text("x")
    srv = loopback(corpus_turns())
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(160, 60)) as pilot:
        frames = Frames(app)
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        await settled(pilot)
        blocks = app.model.conv.blocks
        answer = next(b for b in blocks if b.kind == "text")
        tool = next(b for b in blocks if b.kind == "tool")
        reasoning = next(b for b in blocks if b.kind == "reasoning")
        for block in (answer, tool, reasoning):
            assert not {c for c in block.text + (block.result if hasattr(block, "result") else "") if c in CONTROL_CHARS - {"\n", "\t"}}
        assert "␛]0;PWNED-TITLE␇" in answer.text and "\\x9b2J" in answer.text and "\\u202e" in answer.text
        # The finished answer's Markdown is laid out off the UI thread and painted when it comes back:
        # after the run's end, by a frame of its own.
        await until(pilot, lambda: "␛[2J" in "".join(frames.text))
        screen = "".join(frames.text)
        assert "␛]52;c;" in screen and "␛[2J" in screen and "FILE-TITLE" in screen
        assert "[red]not markup[/red]" in screen  # Rich markup in model text is text
        assert frames.foreign_controls() == set()


async def test_an_approval_shows_escaped_arguments(loopback, tmp_path):
    srv = loopback([tool_turn("write_file", {"path": "a\x1b]0;T\x07.txt", "content": "\x1b[2J[b]x[/b]"}), text_turn("ok")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        frames = Frames(app)
        await pilot.press(*"write", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        await settled(pilot)
        assert "␛]0;T␇" in "".join(frames.text)  # the path, decoded from the JSON arguments, shown
        clock.later(10)  # past the modal's grace for keys
        await pilot.press("n")
        await until(pilot, lambda: not app.model.run.running)
        assert frames.foreign_controls() == set()


async def test_a_key_cut_across_deltas_is_redacted_on_screen(loopback, tmp_path, monkeypatch):
    key = "sk-SCREEN-0a1b2c3d4e"
    monkeypatch.setattr(PROCESS, "_secrets", PROCESS.secrets)  # restored after the test
    monkeypatch.setattr(PROCESS, "_pattern", PROCESS._pattern)
    PROCESS.add(key)
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("key: sk-SCR"), chunk("EEN-0a1b"),
                                 chunk("2c3d4e done"), chunk(finish="stop"), usage_chunk()])])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        frames = Frames(app)
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        await settled(pilot)
        answer = next(b for b in app.model.conv.blocks if b.kind == "text")
        assert answer.text == "key: [redacted] done"
        assert not any("sk-SCR" in f for f in frames.text)
    transcript = next(Path(tmp_path / "sessions").glob("*/transcript.jsonl")).read_text()
    assert key not in transcript and "[redacted]" in transcript


async def test_a_recorded_session_is_replayed_as_text(tmp_path):
    """`mrsmith view` of a transcript whose text carries escapes (and a key): shown, not obeyed."""
    from mrsmith_tui import msgs as m
    from mrsmith_tui.tui.app import MrSmithApp

    replay = [m.UserPrompt(run_id="hrun1", text="hi"), m.TextDelta(block_id="ht1", text=ALL),
              m.BlockEnded(block_id="ht1", kind="text", text=ALL), m.RunEnded(run_id="hrun1")]
    app = MrSmithApp(None, config=config_for("http://127.0.0.1:9/v1", tmp_path), history_path=None, replay=replay)
    async with app.run_test(size=(160, 60)) as pilot:
        frames = Frames(app)
        await until(pilot, lambda: any(b.kind == "text" for b in app.model.conv.blocks))
        app.refresh()
        await settled(pilot)
        answer = next(b for b in app.model.conv.blocks if b.kind == "text")
        assert "␛]52;c;" in answer.text
        await until(pilot, lambda: any("␛]52;c;" in f for f in frames.text))
        assert frames.foreign_controls() == set()


async def test_a_paste_with_escapes_is_shown_not_obeyed(loopback, tmp_path):
    """Text copied from a web page can carry hidden controls: the prompt editor draws them as
    stand-ins, before and after sending, and the model gets the stand-ins."""
    from textual import events

    from mrsmith_tui.tui.view.prompt_box import PromptArea

    srv = loopback([text_turn("ok")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        frames = Frames(app)
        await until(pilot, lambda: app.session is not None)
        paste = events.Paste("pasted \x1b]0;PWNED\x07\x1b[2J\u202eend")
        paste.set_sender(app)
        app._driver.send_message(paste)
        area = app.query_one(PromptArea)
        await until(pilot, lambda: "end" in area.text)
        assert area.text.startswith("pasted ␛]0;PWNED␇␛[2J\\u202eend")
        await settled(pilot)
        assert frames.foreign_controls() == set()
        await pilot.press("enter")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        await settled(pilot)
        assert frames.foreign_controls() == set()
    assert "\\u001b" not in json.dumps(srv.requests) and "␛]0;PWNED" in json.dumps(srv.requests, ensure_ascii=False)
