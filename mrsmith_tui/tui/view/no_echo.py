"""Widgets whose size only their container's layout decides, without Textual's second layout.

After a layout pass Textual hands each widget its new size; a widget whose virtual size changed then
asks for another layout of the whole screen (its `virtual_size` is a layout reactive), which finds
every widget where the first one put it. During a stream that echo was a third of the layouts, each
10-25 ms at 5,000 blocks, and a key typed meanwhile waited for it (issue #26). Scrollbars that come
or go still lay out again (their own reactive asks for it).

The echo measured every block again, which hid the stream layout's gap for a grown widget inside a
block: the conversation closes it itself (view/stream_layout.py), or a finished answer could stay off
the screen (a0f9cfc, reverted for that).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Size

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object  # a plain mixin: Textual takes a widget's CSS from its first DOMNode base only


class NoEchoLayout(_Base):
    """Put first in the bases (`class BlockView(NoEchoLayout, Static)`)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
