"""`cache —` when no server said how much was cached; a percentage once one did (status bar and footer)."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.model import status_fields
from mrsmith_tui.tui.update import initial_model, update


def fold(model, *msgs_):
    for msg in msgs_:
        model, _ = update(model, msg)
    return model


def run(*usages: m.UsageInfo):
    model = fold(initial_model(agent="a", model="claude"), m.RunStarted(run_id="r1", agent="a", model="claude", at=1))
    model = fold(model, *(m.UsageReported(usage=u, context_tokens=100, context_limit=1000, at=2) for u in usages))
    return fold(model, m.RunEnded(run_id="r1", at=3))


def texts(model) -> list[str]:
    return [text for _, text, _ in status_fields(model)]


def test_not_reported_shows_a_dash_not_zero():
    model = run(m.UsageInfo(prompt_tokens=1000, completion_tokens=10))
    assert "cache —" in texts(model) and not any(t.startswith("cache 0") for t in texts(model))
    assert "cache —" in model.conv.blocks[-1].text and model.ledger.cache_pct is None


def test_reported_zero_is_zero_percent():
    model = run(m.UsageInfo(prompt_tokens=1000, completion_tokens=10, cache_reported=True))
    assert "cache 0%" in texts(model) and "cache 0%" in model.conv.blocks[-1].text


def test_a_messages_wire_usage_shows_its_cache_read_share():
    model = run(m.UsageInfo(prompt_tokens=1000, completion_tokens=10, cached_tokens=900, cache_reported=True))
    assert "cache 90%" in texts(model) and model.ledger.cache_pct == 90


def test_nothing_before_any_usage():
    assert not any(t.startswith("cache") for t in texts(initial_model(agent="a", model="m")))
