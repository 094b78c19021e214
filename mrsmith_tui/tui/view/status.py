"""The one-row status-bar ledger. Drawn with `update(..., layout=False)` and only when its text changes."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from mrsmith_tui.tui.model import SEPARATOR, Model, fit_status, status_fields

STYLES = {
    "state-idle": "$text-muted",
    "state-thinking": "$accent",
    "state-streaming": "$accent",
    "state-tool": "$accent",
    "state-waiting": "bold $warning",
    "agent": "bold",
    "model": "",
    "dim": "$text-muted",
    "ctx-ok": "",
    "ctx-warning": "bold $warning",
    "ctx-error": "bold $error",
    "agents": "$accent",
    "agents-waiting": "bold $warning",
    "mode-ask": "$text-muted",
    "mode-accept-edits": "bold $accent",
    "mode-plan": "bold $success",
    "mode-auto": "bold $text on $error",  # the red badge
}


def status_content(model: Model, width: int) -> Content:
    parts: list[Content] = []
    kept = fit_status(status_fields(model), width)
    kept = [f for f in kept if f[1].startswith("mode-")] + [f for f in kept if not f[1].startswith("mode-")]  # the badge
    for i, (text, style) in enumerate(kept):
        if i:
            parts.append(Content.styled(SEPARATOR, "$text-muted"))
        parts.append(Content.styled(text, STYLES.get(style, "")))
    return Content(" ") + Content.assemble(*parts)


class StatusBar(Static):
    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self._shown: str | None = None

    def show(self, model: Model) -> None:
        content = status_content(model, model.screen.width or self.size.width)
        key = content.plain + "|" + "".join(str(s.style) for s in content.spans)
        if key == self._shown:
            return
        self._shown = key
        self.update(content, layout=False)
