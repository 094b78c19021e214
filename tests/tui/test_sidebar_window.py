"""The agent panel draws only the agents that fit (issue #26): its work per frame is bounded by what
is visible, and the selected agent is always among them."""

from __future__ import annotations

import pytest

from mrsmith_tui.records import replace
from mrsmith_tui.tui.model import AgentRow, Sidebar
from mrsmith_tui.tui.view.sidebar import agent_facts, agent_window, sidebar_lines


def panel(n: int, selected: int | None = None, action: str = "writing") -> Sidebar:
    rows = tuple(AgentRow(agent_id=f"agent-{i}", label=f"task {i}", started=0.0, last_action=action) for i in range(n))
    return Sidebar(agents=rows, selected=None if selected is None else f"agent-{selected}")


@pytest.mark.parametrize("count", [0, 1, 5, 11, 12, 100, 500])
@pytest.mark.parametrize("selected", [None, 0, 1, 57, 250, 499])
@pytest.mark.parametrize("rows", [-3, 0, 1, 2, 7, 12, 40])
def test_the_window_holds_the_selected_agent_and_never_more_than_fit(count, selected, rows):
    sel = selected if selected is not None and selected < count else None
    first, last = agent_window(count, sel, rows)
    assert 0 <= first <= last <= count
    assert last - first == min(count, max(1, rows))
    if sel is not None:
        assert first <= sel < last


@pytest.mark.parametrize("height", [5, 12, 38, 80])
@pytest.mark.parametrize("selected", [None, 0, 250, 499])
def test_500_agents_draw_no_more_lines_than_the_panel_has(height, selected):
    text, owners = sidebar_lines(panel(500, selected), now=10.0, width=38, height=height)
    lines = text.plain.split("\n")
    assert len(lines) <= max(height, 1 + 2 + 3)  # a tiny panel still shows one agent
    shown = set(owners.values())
    assert 1 <= len(shown) <= max(1, height // 3)
    if selected is not None:
        assert f"agent-{selected}" in shown and f"▶ ● agent-{selected}" in text.plain
    assert ("more" in lines[1]) == (min(shown, key=lambda a: int(a.split("-")[1])) != "agent-0")
    assert "more" in lines[-1] or "agent-499" in shown
    for line_no, agent_id in owners.items():  # a click on a line still finds its agent
        assert lines[line_no].startswith(("│", "▶", "●")) and (agent_id in lines[line_no] or lines[line_no].startswith("│"))


def test_agents_that_fit_are_all_drawn_with_no_more_markers():
    text, owners = sidebar_lines(panel(12), now=10.0, width=38, height=40)
    assert len(set(owners.values())) == 12 and "more" not in text.plain
    unbounded, _ = sidebar_lines(panel(12), now=10.0, width=38)
    assert unbounded.plain == text.plain


def test_an_agents_tokens_show_only_once_it_has_reported_usage():
    row = AgentRow(agent_id="agent-1", label="tests", started=0.0, tool_calls=1)
    assert agent_facts(row, now=3.0) == ["running", "3.0s", "1 tool"]  # not "0 tok" before a figure is known
    assert agent_facts(replace(row, tokens=0, tool_calls=2), now=3.0)[2:] == ["2 tools", "0 tok"]
    text, _ = sidebar_lines(Sidebar(agents=(row,)), now=3.0, width=38)
    assert "tok" not in text.plain
