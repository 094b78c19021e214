"""The usage ledger: context gauge, thresholds once per crossing, cache-hit %, sub-agents apart."""

from __future__ import annotations

from mrsmith_tui import msgs
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.msgs import UsageInfo


def test_usage_reported_and_totals():
    sink = msgs.ListSink()
    ledger = UsageLedger(sink, max_context_tokens=1000, budget=ToolCallBudget(10))
    ledger.record("run1", UsageInfo(prompt_tokens=100, completion_tokens=20, cached_tokens=50))
    ledger.record("run1", UsageInfo(prompt_tokens=300, completion_tokens=30, cached_tokens=150))
    assert ledger.total == UsageInfo(prompt_tokens=400, completion_tokens=50, cached_tokens=200)
    assert ledger.context_tokens == 330 and ledger.context_percent == 33.0
    assert ledger.cache_hit_percent == 50.0
    reported = sink.of(msgs.UsageReported)
    assert [(r.context_tokens, r.context_limit) for r in reported] == [(120, 1000), (330, 1000)]
    assert [t[0] for t in ledger.turns] == ["run1", "run1"]
    assert (ledger.tool_calls_used, ledger.tool_calls_limit) == (0, 10)


def test_context_warnings_once_per_crossing():
    sink = msgs.ListSink()
    ledger = UsageLedger(sink, max_context_tokens=1000)
    for prompt in (800, 860, 870, 1000, 1100, 500, 900):
        ledger.record("r", UsageInfo(prompt_tokens=prompt, completion_tokens=0))
    assert [w.code for w in sink.of(msgs.Warning)] == ["context-85", "context-100", "context-85"]
    assert "86%" in sink.of(msgs.Warning)[0].text


def test_a_jump_past_both_thresholds_warns_for_both():
    sink = msgs.ListSink()
    ledger = UsageLedger(sink, max_context_tokens=100)
    ledger.record("r", UsageInfo(prompt_tokens=150, completion_tokens=0, estimated=True))
    assert [w.code for w in sink.of(msgs.Warning)] == ["context-85", "context-100"]
    assert sink.of(msgs.UsageReported)[0].usage.estimated


def test_reset_rearms_and_subagent_usage_is_apart():
    sink = msgs.ListSink()
    ledger = UsageLedger(sink, max_context_tokens=100)
    ledger.record("r", UsageInfo(prompt_tokens=90, completion_tokens=0))
    ledger.add_subagent_usage(UsageInfo(prompt_tokens=5000, completion_tokens=100))
    assert ledger.context_tokens == 90 and ledger.total.prompt_tokens == 90
    assert ledger.subagent_total == UsageInfo(prompt_tokens=5000, completion_tokens=100)
    ledger.reset_context()
    assert ledger.context_tokens == 0
    ledger.record("r", UsageInfo(prompt_tokens=90, completion_tokens=0))
    assert [w.code for w in sink.of(msgs.Warning)] == ["context-85", "context-85"]


def test_budget_counts_and_refuses_past_its_limit():
    budget = ToolCallBudget(5)
    spends = [budget.try_use() for _ in range(6)]
    assert [s.allowed for s in spends] == [True] * 5 + [False]
    assert [s.warn_80 for s in spends] == [False, False, False, True, False, False]
    assert [s.spent for s in spends] == [False] * 4 + [True, False]
    assert budget.exhausted
    budget.refill()
    assert not budget.exhausted and budget.try_use().allowed
    unlimited = ToolCallBudget(None)
    assert all(unlimited.try_use().allowed for _ in range(100)) and not unlimited.exhausted
