"""/compact over a real loopback socket, auto-compact at 90 %, and the /usage report."""

from __future__ import annotations

from sessionkit import Factory, new_session, two_agents

from core.fakes import ScriptedApprover, answer
from loopback import text_turn, usage_chunk
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.compact import COMPACT_INSTRUCTION, compact, maybe_auto_compact
from mrsmith_tui.core.resume import resume_session
from mrsmith_tui.core.session import build_session
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.core.usage_report import usage_report
from mrsmith_tui.history import UserEntry
from mrsmith_tui.msgs import UsageInfo
from mrsmith_tui.session.rebuild import SUMMARY_PREFIX, rebuild, rebuild_history
from mrsmith_tui.session.transcript import read_transcript

LONG = "word " * 200  # an answer a summary is shorter than


def loopback_config(tmp_path, base_url, **agent_kw) -> Config:
    return Config(
        providers=[ProviderConfig(name="lb", base_url=base_url)],
        agents=[AgentConfig(name="main", provider="lb", model="test-model", **agent_kw)],
        sessions_dir=str(tmp_path / "sessions"),
    )


def test_compact_summarises_older_turns_in_the_context_not_the_history(tmp_path, loopback):
    def turn(text, prompt_tokens):
        t = text_turn(text, usage=False)
        t.events.append(usage_chunk(prompt_tokens, 400))
        return t

    long_answer = "word " * 400
    srv = loopback([turn(long_answer, 1000), turn(long_answer, 1500), turn("SUMMARY: did two things", 1600), turn("ok", 900)])
    sink = msgs.ListSink()
    s = build_session(config=loopback_config(tmp_path, srv.base_url), agent_name=None, cwd=tmp_path, sink=sink,
                      approver=ScriptedApprover())
    s.run("one", CancelToken())
    s.run("two", CancelToken())
    before = s.ledger.context_tokens
    history_before = list(s.history)

    assert compact(s, CancelToken()) == "SUMMARY: did two things"
    asked = srv.requests[2]["messages"]
    assert asked[-1]["content"] == COMPACT_INSTRUCTION and asked[1]["content"] == "one" and not srv.requests[2].get("tools")
    assert all(m["content"] != "two" for m in asked)  # the newest turn is kept, not summarised
    # the history keeps everything; the context drops the first turn for the summary
    assert [m.text for m in s.history if isinstance(m, UserEntry)][:1] == ["one"]
    assert all(m.compacted for m in s.history[:2]) and s.history[2].kind == "summary"
    assert len(s.history) == len(history_before) + 1
    assert s.ledger.context_tokens < before
    assert sink.of(msgs.Notice)[-1].text.startswith("compacted 2 messages into a summary: the context is now ~")
    gauge = sink.of(msgs.UsageReported)[-1]
    assert gauge.context_tokens == s.ledger.context_tokens

    s.run("three", CancelToken())
    sent = srv.requests[3]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "user", "assistant", "user"]
    assert sent[1]["content"] == SUMMARY_PREFIX + "SUMMARY: did two things" and sent[2]["content"] == "two"

    # the transcript records it; rebuild and resume compact the same way
    records, _ = read_transcript(s.transcript_path)
    (compaction,) = [r for r in records if isinstance(r, msgs.Compacted)]
    assert compaction.replaces == 2 and compaction.summary == "SUMMARY: did two things"
    usage = records[records.index(compaction) - 1]  # the summary's model call, right before it
    assert isinstance(usage, msgs.UsageReported) and rebuild(records).usage[-2][0] == "compact"
    assert rebuild_history(records) == s.history
    s.close()
    factory = Factory(answer("fine"))
    r = resume_session(config=loopback_config(tmp_path, srv.base_url), cwd=tmp_path, sink=msgs.ListSink(),
                       approver=ScriptedApprover(), provider_factory=factory)
    r.run("four", CancelToken())
    assert [m["content"] for m in factory.requests[0].messages][1] == SUMMARY_PREFIX + "SUMMARY: did two things"


def test_compact_with_a_single_turn_does_nothing(tmp_path):
    s, sink, factory = new_session(two_agents(tmp_path), tmp_path, answer("a"))
    s.run("only", CancelToken())
    assert compact(s, CancelToken()) == ""
    assert len(factory.requests) == 1
    assert "nothing to compact" in sink.of(msgs.Notice)[-1].text


def test_a_summary_no_shorter_than_what_it_replaces_leaves_the_context_and_says_so(tmp_path):
    summary = "The person said one and I answered a; then they said two. No files were read or changed."
    s, sink, _ = new_session(two_agents(tmp_path), tmp_path, answer("a"), answer("b"), answer(summary))
    s.run("one", CancelToken())
    s.run("two", CancelToken())
    history = list(s.history)
    assert compact(s, CancelToken()) == ""
    assert s.history == history  # no summary in, nothing marked compacted
    note = sink.of(msgs.Notice)[-1].text
    assert note.startswith("nothing worth compacting: the summary of 2 earlier messages is no shorter than they are")
    assert "context is unchanged" in note and "now" not in note
    assert not sink.of(msgs.Compacted)
    # the call was spent: counted in the totals and in the transcript, and a resume sees the same history
    assert s.ledger.turns[-1][0] == "compact"
    records, _ = read_transcript(s.transcript_path)
    assert not [r for r in records if isinstance(r, msgs.Compacted)]
    assert rebuild(records).usage[-1][0] == "compact" and rebuild_history(records) == history


def test_a_failed_compaction_leaves_the_context_unchanged(tmp_path):
    from core.fakes import failing

    s, sink, _ = new_session(two_agents(tmp_path), tmp_path, answer("a"), answer("b"), failing("provider 'p' answered 500"))
    s.run("one", CancelToken())
    s.run("two", CancelToken())
    history = list(s.history)
    assert compact(s, CancelToken()) == ""
    assert s.history == history
    assert sink.of(msgs.Error)[-1].text == "compaction failed: provider 'p' answered 500"


def test_auto_compact_only_at_90_percent_with_auto_compact(tmp_path):
    config = two_agents(tmp_path, auto_compact=True, max_context_tokens=1000)
    s, _sink, _ = new_session(config, tmp_path, answer(LONG, usage=UsageInfo(prompt_tokens=500, completion_tokens=10)),
                             answer("b", usage=UsageInfo(prompt_tokens=950, completion_tokens=10)), answer("the summary"))
    s.run("one", CancelToken())
    assert maybe_auto_compact(s, CancelToken()) is None  # 51 %
    s.run("two", CancelToken())
    assert maybe_auto_compact(s, CancelToken()) == "the summary"  # 96 %
    assert s.ledger.context_percent < 90
    off = two_agents(tmp_path / "b", max_context_tokens=1000)
    s2, _, _ = new_session(off, tmp_path, answer("b", usage=UsageInfo(prompt_tokens=990, completion_tokens=10)))
    s2.run("one", CancelToken())
    s2.run("two", CancelToken())
    assert maybe_auto_compact(s2, CancelToken()) is None


def test_usage_report_shows_turns_totals_context_cache_budget_and_subagents():
    ledger = UsageLedger(lambda m: None, max_context_tokens=10_000)
    ledger.record("run1", UsageInfo(prompt_tokens=1000, completion_tokens=100, cached_tokens=0))
    ledger.record("run1", UsageInfo(prompt_tokens=1200, completion_tokens=50, cached_tokens=1000))
    ledger.record("run2", UsageInfo(prompt_tokens=2000, completion_tokens=80, estimated=True))
    ledger.add_subagent_usage(UsageInfo(prompt_tokens=300, completion_tokens=30))
    ledger.budget.limit = 10
    ledger.budget.try_use()
    text = usage_report(ledger)
    assert "turn 1       2,200 in (1,000 cached) · 150 out · 2 calls · real" in text
    assert "turn 2       2,000 in · 80 out · 1 call · estimated" in text
    assert "total        4,200 in (1,000 cached) · 230 out · 4,430 tokens · estimated" in text
    assert "Context      2,080 of 10,000 tokens (21%)" in text
    assert "Cache hits   24% of prompt tokens" in text
    assert "Tool calls   1 of 10" in text
    assert "Sub-agents   300 in · 30 out · real · not in the main context" in text


def test_the_session_auto_compacts_before_the_next_turn_and_offers_compact(tmp_path):
    config = two_agents(tmp_path, auto_compact=True, max_context_tokens=1000)
    s, _sink, factory = new_session(config, tmp_path, answer(LONG, usage=UsageInfo(prompt_tokens=400, completion_tokens=10)),
                                   answer(LONG, usage=UsageInfo(prompt_tokens=950, completion_tokens=10)), answer("auto summary"), answer("c"))
    s.run("one", CancelToken())
    s.run("two", CancelToken())
    s.run("three", CancelToken())  # 96 % before it: compacted first, then the turn
    assert factory.requests[2].messages[-1]["content"] == COMPACT_INSTRUCTION
    assert factory.requests[3].messages[1]["content"] == SUMMARY_PREFIX + "auto summary"
    assert s.compact(CancelToken()) == "c"  # /compact: the summary and "two" go, "three" stays
    assert [m["content"] for m in factory.requests[4].messages[1:-1]] == [SUMMARY_PREFIX + "auto summary", "two", LONG]


def test_auto_compact_waits_for_the_context_to_grow_after_a_summary_no_shorter(tmp_path):
    """Above 90 % with a summary no shorter than what it replaces, auto-compact would spend a model
    call on every turn for nothing: it tries again once the context has grown by 5 % of the window."""
    config = two_agents(tmp_path, auto_compact=True, max_context_tokens=1000)
    wordy = "The person said one and I answered a; then they said two. No files were read or changed."

    def at(tokens):
        return UsageInfo(prompt_tokens=tokens - 10, completion_tokens=10)

    s, sink, factory = new_session(config, tmp_path, answer("a", usage=at(500)), answer("b", usage=at(950)),
                                   answer(wordy), answer("c", usage=at(960)), answer("d", usage=at(980)),
                                   answer("e", usage=at(1001)), answer("the summary"), answer("f"))
    for prompt in ("one", "two", "three", "four", "five", "six"):
        s.run(prompt, CancelToken())
    asked = [r.messages[-1]["content"] for r in factory.requests]
    # 95 % before "three": one summary, no shorter; "four" (96 %) and "five" (98 %) go on without one;
    # before "six" the context has grown by 51 tokens since the attempt (950): it is tried again, and kept
    assert asked == ["one", "two", COMPACT_INSTRUCTION, "three", "four", "five", COMPACT_INSTRUCTION, "six"]
    assert len(sink.of(msgs.Compacted)) == 1
