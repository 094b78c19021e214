"""The conversation region: one long-lived Static per block, keyed by the block's key.

Only blocks whose model object changed are drawn again (identity check), open blocks also
when the spinner's frame moves. At most LIVE_BLOCKS blocks are mounted (and fewer than PRUNE_STEP
more, as they leave in tens); older ones become one line pointing at the review overlay, so the
widget count (and so the cost of a streamed token) stays bounded however long the session grows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from mrsmith_tui.tui.model import Block, ChatLog, StatusLedger, Welcome
from mrsmith_tui.tui.view.answer_view import AnswerView, BlockClicked, reserve_rows
from mrsmith_tui.tui.view.blocks import render_block
from mrsmith_tui.tui.view.no_echo import NoEchoLayout
from mrsmith_tui.tui.view.sidebar import TypedAway
from mrsmith_tui.tui.view.stream_layout import RemeasureNested
from mrsmith_tui.tui.view.welcome import welcome_content

LIVE_BLOCKS = 50
PRUNE_STEP = 10  # older blocks leave ten at a time: one layout of the conversation per ten new blocks, not one each


class ConversationKey(Message):
    """A key pressed while the conversation has the focus (move, fold, copy, leave)."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action


class UserScrolled(Message):
    def __init__(self, at_bottom: bool) -> None:
        super().__init__()
        self.at_bottom = at_bottom


def flatten(renderable: Any, console: Console, width: int) -> Content:
    """A Rich renderable (a finished answer's Markdown) drawn once at `width`, as Content.

    Textual would render a Rich renderable again on every layout pass that measures it (each
    frame a block above grows), highlighting code every time; Content keeps its lines.
    """
    lines = console.render_lines(renderable, console.options.update_width(max(1, width)), pad=False)
    text = Text()
    for i, line in enumerate(lines):
        if i:
            text.append("\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
    return Content.from_rich_text(text, console=console)


class BlockView(NoEchoLayout, Static):
    DEFAULT_CSS = ""

    def __init__(self, block: Block) -> None:
        super().__init__("", id=None, classes=f"block -{block.kind}")
        self.key = block.key
        self.block: Block | None = None
        self.frame: int = -1
        self.width: int = 0
        self.now: float = 0.0
        self.rows = -1  # an open block's rows when last drawn (-1: not open, or not known)

    def show(self, block: Block, now: float, width: int) -> None:
        frame = int(now * 10) if not block.done else -1
        if block is self.block and frame == self.frame and width == self.width:
            return
        self.block, self.frame, self.width, self.now = block, frame, width, now
        self.set_class(not block.done, "-open")
        self.set_class(block.kind == "tool" and block.done and not block.ok, "-failed")
        shown = render_block(block, now, width)
        if not isinstance(shown, (Content, str)):
            shown = flatten(shown, self.app.console, width)
        elif block.kind == "text" and not block.done and isinstance(shown, Content):
            shown, _rows = reserve_rows(shown, self.styles, width)
        rules: Any = self.styles
        rows = shown.get_height(rules, width) if isinstance(shown, Content) and not block.done else -1
        # An open block's spinner and clock move ten times a second: while its rows hold, only it repaints.
        self.update(shown, layout=rows < 0 or rows != self.rows)
        self.rows = rows

    def restyle(self) -> None:
        """Draw again at the next show (the theme changed: Markdown was flattened in the old colours)."""
        self.block = None

    def release(self) -> None:
        """Leaving the window: drop what it drew (see AnswerView.release)."""
        self.block = None
        self._styles_cache.clear()

    def text_shown(self) -> str:
        return str(self.render())

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(BlockClicked(self.key))


def block_view(block: Block) -> BlockView | AnswerView:
    return AnswerView(block) if block.kind == "text" else BlockView(block)


BLOCK_KEYS = ("k", "j", "c", "i", "space")  # the printable keys a focused block takes (its BINDINGS)


class ConversationView(RemeasureNested, VerticalScroll):
    BINDINGS: ClassVar[list[BindingType]] = [
        ("up,k", "key('up')", "previous block"),
        ("down,j", "key('down')", "next block"),
        ("enter,space", "key('fold')", "fold"),
        ("c", "key('copy')", "copy"),
        ("i,tab", "key('leave')", "back to the prompt"),
        ("escape", "key('escape')", "back to the prompt"),  # in `mrsmith view` (no prompt): leave it
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.can_focus = True
        self._conv: ChatLog | None = None
        self._follow_end = False  # the layout keeps the end in view (arrange)
        self._views: dict[str, BlockView | AnswerView] = {}
        self._order: list[str] = []
        self._earlier = Static("", classes="earlier")
        self._earlier.display = False
        self._earlier_text = ""
        self._welcome = Static("", id="welcome")
        self._welcome.display = False
        self._welcome_shown: tuple | None = None
        self._focused: str | None = None
        self._top: str | None = None  # the last ChatLog.top brought to the top
        self._top_pending: Widget | None = None
        self._now = 0.0
        self._typed_away = False  # a letter typed on a focused block went to the prompt: so do the keys after it

    def compose(self):
        yield self._earlier
        yield self._welcome

    def show_welcome(self, welcome: Welcome | None, ledger: StatusLedger) -> None:
        """The welcome, on an empty conversation only (None hides it)."""
        key = (welcome, ledger.agent, ledger.model, self.block_width()) if welcome is not None else None
        if key == self._welcome_shown:
            return
        self._welcome_shown = key
        self._welcome.display = welcome is not None
        if welcome is not None:
            self._welcome.update(welcome_content(welcome, ledger, self.block_width()))

    def action_key(self, action: str) -> None:
        self.post_message(ConversationKey(action))

    def on_key(self, event: events.Key) -> None:
        """Typing on a focused block: a letter that is not a block key (k j c i, Space) goes to the prompt
        with the focus, and so does every key typed after it before the focus got there (Enter sends):
        no key vanishes ("abc" on a block lost "ab" and copied the block)."""
        if event.key == "q" and self.screen is self.app.screen_stack[0] and not self._prompt_shown():
            self.post_message(ConversationKey("quit"))  # `mrsmith view`: q leaves, as a pager does
            return
        printable = bool(event.is_printable and event.character)
        if not (self._typed_away or (printable and event.key not in BLOCK_KEYS)) or not self._prompt_shown():
            return
        if not printable and event.key not in ("enter", "backspace"):
            return
        event.stop()
        event.prevent_default()
        if not self._typed_away:
            self._typed_away = True
            self.post_message(ConversationKey("leave"))
        self.post_message(TypedAway("", send=True) if event.key == "enter" else TypedAway("\b")
                          if event.key == "backspace" else TypedAway(event.character or ""))

    def on_focus(self, event: events.Focus) -> None:
        self._typed_away = False

    def _prompt_shown(self) -> bool:
        """Whether this is the main conversation and there is a prompt to type into (`mrsmith view` has
        none; an agent's screen sends its own typing, its `x` stops the agent)."""
        stack = self.app.screen_stack
        if not stack or self.screen is not stack[0]:
            return False
        prompts = stack[0].query("PromptArea")
        return bool(prompts) and prompts.first().display

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.post_message(UserScrolled(False))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.call_after_refresh(self._report_bottom)

    def _report_bottom(self) -> None:
        self.post_message(UserScrolled(self.at_bottom))

    @property
    def at_bottom(self) -> bool:
        return self.scroll_y >= self.max_scroll_y - 1

    def page(self, step: int) -> None:
        if step < 0:
            self.scroll_page_up(animate=False)
            self.post_message(UserScrolled(False))
        else:
            self.scroll_page_down(animate=False)
            self.call_after_refresh(self._report_bottom)

    def sync(self, conv: ChatLog, now: float) -> None:
        if conv is self._conv and not self._has_open():
            return
        blocks = conv.blocks
        hidden = max(0, len(blocks) - LIVE_BLOCKS)
        hidden -= hidden % PRUNE_STEP
        window = blocks[hidden:]
        wanted = [b.key for b in window]
        if wanted != self._order:
            keep = set(wanted)
            gone = [k for k in self._order if k not in keep]
            for key in gone:
                view = self._views.pop(key)
                view.release()  # a view frozen by settle_memory outlives its removal: not its lines
                view.remove()
            new = [block_view(b) for b in window if b.key not in self._views]
            for view in new:
                self._views[view.key] = view
            if new:
                self.mount_all(new)
            self._order = wanted
        earlier = f"… {hidden} earlier block{'s' if hidden != 1 else ''} · Ctrl-O to review" if hidden else ""
        if earlier != self._earlier_text:
            # Only when it changes: an update marks it for repainting, and a widget marked while off screen
            # (this line sits above the window) makes Textual arrange every block again to find it, each
            # frame of a stream at 5,000 blocks (issue #26).
            self._earlier_text = earlier
            self._earlier.display = bool(hidden)
            self._earlier.update(earlier, layout=False)
        width = self.block_width()
        for b in window:
            self._views[b.key].show(b, now, width)
        if conv.focused != self._focused:
            old = self._views.get(self._focused or "")
            if old is not None:
                old.remove_class("-focused")
            self._focused = conv.focused
            new_focus = self._views.get(conv.focused or "")
            if new_focus is not None:
                new_focus.add_class("-focused")
                self.scroll_to_widget(new_focus, animate=False)
        if conv.top is not None and conv.top != self._top:  # shown from its first line, once
            self._top = conv.top
            self._top_pending = self._views.get(conv.top)  # scrolled to once a layout has placed it (arrange)
        self._conv, self._now = conv, now
        follow_end = conv.follow and conv.focused is None and bool(conv.blocks)
        if follow_end and not self._follow_end:
            self._anchor_released = False  # a wheel's scroll released it (Textual's own); following again takes it back
        self._follow_end = follow_end
        if conv.follow and conv.focused is None and self.scroll_y < self.max_scroll_y:
            self.scroll_end(animate=False, immediate=False)

    def _show_top_of(self, view: Widget) -> None:
        self.scroll_to_widget(view, animate=False, top=True)

    def arrange(self, size: Size, optimal: bool = False) -> Any:
        """Followed and taller than the screen, the end is kept in view by the layout that moves it: Textual's
        anchor sets the scroll as the blocks are arranged, where a scroll after each layout cost a frame of its
        own (issue #26). A conversation shorter than the screen is not anchored (its scroll would go below 0)."""
        result = super().arrange(size, optimal)
        if self._top_pending is not None and any(p.widget is self._top_pending for p in result.placements):
            self.call_after_refresh(self._show_top_of, self._top_pending)
            self._top_pending = None
        shown = self.container_size.height - self.scrollbar_size_horizontal
        self._anchored = self._follow_end and result.spatial_map.total_region.bottom > shown > 0
        return result

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        """Its new virtual size asks for no second layout (view/no_echo.py); it keeps a followed end in view."""
        grew = virtual_size != self.virtual_size
        changed = super()._size_updated(size, virtual_size, container_size, layout=False)
        if grew:
            self.watch_virtual_size(virtual_size)
        return changed

    def watch_virtual_size(self, size: Any) -> None:
        """The conversation grew (a block mounted or re-laid out while nothing else moved: a command's
        note after the palette): a followed conversation keeps its end in view."""
        conv = self._conv
        if conv is not None and conv.follow and conv.focused is None and self.scroll_y < self.max_scroll_y:
            self.scroll_end(animate=False, immediate=False)

    def restyle(self) -> None:
        """The theme changed: every block is drawn again in its colours."""
        for view in self._views.values():
            view.restyle()
        self._resync()

    def block_width(self) -> int:
        """The text width inside a block (the region less the block's padding and edge)."""
        width = self.scrollable_content_region.width or (self.app.size.width - 2)
        return max(10, width - 3)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._resync)

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """The scrollbar came or went: the blocks were wrapped for the other width (a listing that made
        the conversation scroll had its last words wrap to the left edge), so they are drawn again."""
        self.call_after_refresh(self._resync)

    def _resync(self) -> None:
        """Draw again at the new width (from the latest synced model, never a stale one)."""
        conv = self._conv
        if conv is not None:
            self._conv = None
            self.sync(conv, self._now)

    def _has_open(self) -> bool:
        if not self._order:
            return False
        view = self._views.get(self._order[-1])
        return bool(view and view.block and not view.block.done) or any(
            v.block is not None and not v.block.done for v in (self._views[k] for k in self._order[-8:]))
