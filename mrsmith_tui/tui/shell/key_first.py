"""A key is painted before a layout the conversation asked for (issue #26, key press -> screen).

While a model streams, the conversation asks for a layout of the screen every few frames (a block
mounted, an answer grown by its reserved rows, a finished answer's Markdown): 10-25 ms each with
5,000 blocks behind it. A key typed meanwhile waited for the layout's frame, as Textual does the
layout and then paints everything dirty in one go. When a key waits and every widget that asked for
the layout sits inside a container whose size its content does not set (the conversation: `1fr`),
the widgets outside those containers keep their place: they (the prompt with the key, the status
line) are painted at once, in a frame of their own, and the layout follows at the next tick. The
callbacks waiting for the next refresh (a scroll to the end, the feeders' right of way) wait for
the layout's frame, as they would have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.screen import Screen

if TYPE_CHECKING:
    from textual.widget import Widget

    from mrsmith_tui.tui.shell.early_input import EarlyInput


class KeyFirstScreen(Screen[Any]):
    """The main screen; `key_waiting` is set by the app when a key arrives. Until the prompt's editor
    is mounted, the keys and pastes handed to the screen are kept in `early_input` (shell/early_input.py)."""

    key_waiting = False
    early_input: EarlyInput | None = None

    def _forward_event(self, event: events.Event) -> None:
        if self.early_input is not None and isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            self.early_input.take(event)
            return
        super()._forward_event(event)

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        if self.early_input is not None and widget is not None:
            return  # a click before the editor is mounted: the keys typed next are still the editor's
        super().set_focus(widget, scroll_visible, from_app_focus)

    def _on_timer_update(self) -> None:
        if self.is_current and not self.app._batch_count:
            if not self._layout_required:
                self.key_waiting = False  # this frame paints whatever the key changed, with nothing to wait for
            elif self.key_waiting and self._paint_unmoved():
                return  # the update timer runs on: the layout is done at its next tick
        super()._on_timer_update()

    def _paint_unmoved(self) -> bool:
        """Paint what the pending layout cannot move, in a frame of its own; False when there is none
        (the key may not have reached its widget by this tick: it is looked for again at the next)."""
        quick = self._unmoved_dirty()
        if not quick:
            return False
        self.key_waiting = False
        rest = self._dirty_widgets - quick
        self._compositor.update_widgets(quick)
        self._compositor_refresh()  # clears the dirty widgets: the rest are painted with the layout
        self._dirty_widgets.update(rest)
        return True

    def _unmoved_dirty(self) -> set[Widget]:
        """The widgets to repaint that the pending layout cannot move or resize (none when it might
        move anything, or the whole screen is to be repainted)."""
        if self._repaint_required or not self._dirty_widgets:
            return set()
        # Each chain of widgets that asked ends at its first ancestor whose size its content does not
        # set (Screen._on_layout): a layout changes what is inside such a root only.
        roots = {node for node in self._layout_widgets if node is self or not node.styles.auto_dimensions}
        if not roots or self in roots:
            return set()
        return {w for w in self._dirty_widgets if w is not self and not self._may_move(w, roots)}

    def _may_move(self, widget: Widget, roots: set[Any]) -> bool:
        """Inside a root, or (a scroll pending, of a container not named) inside a scrollable container."""
        for node in widget.ancestors_with_self:
            if node is self:
                return False
            if node in roots or (self._scroll_required and node is not widget and getattr(node, "is_scrollable", False)):
                return True
        return True
