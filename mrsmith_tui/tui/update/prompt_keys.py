"""The prompt's two helpers: Ctrl-R searches the prompt history incrementally (newest first; the
match is shown in the prompt while the query is typed; Ctrl-R again goes to the next older match,
Enter or Tab takes it into the prompt without sending, Esc puts back what was there), and Ctrl-G
hands the prompt to the person's editor (the shell opens it; EditorClosed brings the text back).
"""

from __future__ import annotations

from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import HistorySearch, Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import flash
from mrsmith_tui.tui.update.effects import Effects, Handler


def _find(history: tuple[str, ...], query: str, before: int) -> int | None:
    """The newest entry older than `before` that holds `query` (case folded)."""
    low = query.lower()
    for i in range(min(before, len(history)) - 1, -1, -1):
        if low in history[i].lower():
            return i
    return None


def _show(model: Model, search: HistorySearch | None, draft: str) -> Model:
    return replace(model, input=replace(model.input, search=search, draft=draft, recall=None, completions=()))


def _search(model: Model, msg: ui.SearchKey) -> tuple[Model, Effects]:
    inp = model.input
    s = inp.search
    if s is None:
        if msg.action != "start":
            return model, ()
        model = replace(model, input=replace(inp, stash=inp.draft))
        return _show(model, HistorySearch(), inp.draft), ()
    shown = inp.history[s.hit] if s.hit is not None else inp.stash
    if msg.action == "cancel":
        return _show(model, None, inp.stash), ()
    if msg.action == "accept":
        return _show(model, None, shown), ()
    if msg.action == "start":  # Ctrl-R again: the next older match
        before = s.hit if s.hit is not None else len(inp.history)
        query, hit = s.query, _find(inp.history, s.query, before)
    elif msg.action == "erase":
        query = s.query[:-1]
        hit = _find(inp.history, query, len(inp.history)) if query else None
    else:  # type: the current match is kept while it still holds the longer query
        query = s.query + msg.text
        hit = _find(inp.history, query, (s.hit + 1) if s.hit is not None else len(inp.history))
    if hit is None and query and msg.action != "erase":
        return _show(model, replace(s, query=query, failed=True), shown), ()
    found = HistorySearch(query=query, hit=hit)
    return _show(model, found, inp.history[hit] if hit is not None else inp.stash), ()


def _edit_prompt(model: Model, msg: ui.EditPrompt) -> tuple[Model, Effects]:
    if model.input.search is not None:
        model = _show(model, None, model.input.draft)
    return model, (fx.OpenEditor(msg.text),)


def _editor_closed(model: Model, msg: ui.EditorClosed) -> tuple[Model, Effects]:
    if msg.text is None:
        return flash(model, msg.problem or "the editor gave nothing back; the prompt is unchanged", msg.at), ()
    inp = replace(model.input, draft=msg.text, recall=None, completions=())
    return flash(replace(model, input=inp), "the prompt is back from the editor (Enter sends it)", msg.at), ()


HANDLERS: dict[type, Handler] = {
    ui.SearchKey: _search,
    ui.EditPrompt: _edit_prompt,
    ui.EditorClosed: _editor_closed,
}
