"""A `layout: stream` container that measures a child again when a widget inside it changed size.

The stream layout keeps the old place of every child above the first one that asked for a layout.
Textual 8 counts a child as asking only when the child itself asks: when a widget inside it asks (an
answer's lines, in its AnswerView), `Screen._on_layout` files the child as a key of its own but not
in the container's set, and the child kept its old height while its content grew, whenever a block
below it asked in the same frame (the finished answer's lines and the usage line under it): the
lines past its old height were never painted. A second layout, asked for by whatever changed size,
usually measured everything again and hid it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object  # a plain mixin: Textual takes a widget's CSS from its first DOMNode base only


class RemeasureNested(_Base):
    """Put first in the bases of the container (`class ConversationView(RemeasureNested, VerticalScroll)`)."""

    def pre_layout(self, layout: Any) -> None:
        super().pre_layout(layout)
        asked: dict[Any, set[Any]] = getattr(self.screen, "_layout_widgets", {})
        mine = asked.get(self)
        if not mine:
            return  # no child asked: the stream layout measures every child anyway
        for node in list(asked):
            while node is not None and node is not self and node.parent is not self:
                node = node.parent
            if node is not None and node is not self:
                mine.add(node)
