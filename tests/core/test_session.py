"""AgentSession / build_session: composition, transcript, agent switch, reset, hooks, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.load import ConfigError
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.session import build_session, open_session
from mrsmith_tui.core.session_api import SessionAddOns
from mrsmith_tui.core.session_parts import session_parts
from mrsmith_tui.history import UserEntry
from mrsmith_tui.session.transcript import read_transcript
from mrsmith_tui.tools.approval import PolicyApprover
from mrsmith_tui.tools.services import Services

from .fakes import EchoTool, FakeProvider, ScriptedApprover, answer, calls

KEY = "sk-test-key-0123456789"


def config(tmp_path: Path, base_url: str = "http://127.0.0.1:9/v1", **agent_kw) -> Config:
    return Config(
        providers=[ProviderConfig(name="p", base_url=base_url, api_key=KEY), ProviderConfig(name="q", base_url=base_url)],
        agents=[
            AgentConfig(name="main", provider="p", model="m1", **agent_kw),
            AgentConfig(name="other", provider="q", model="m2", max_context_tokens=500),
        ],
        sessions_dir=str(tmp_path / "sessions"),
    )


def session(tmp_path, *scripts, approver=None, persist=True, **agent_kw):
    providers: list[FakeProvider] = []

    def factory(pc):
        providers.append(FakeProvider(*scripts))
        providers[-1].name = pc.name
        return providers[-1]

    sink = msgs.ListSink()
    s = build_session(
        config=config(tmp_path, **agent_kw), agent_name=None, cwd=tmp_path, sink=sink,
        approver=approver or ScriptedApprover(), persist=persist, provider_factory=factory,
    )
    return s, sink, providers


def test_build_announces_the_session_and_writes_nothing_before_a_run(tmp_path):
    s, sink, _ = session(tmp_path, answer("hi"))
    started = sink.of(msgs.SessionStarted)[0]
    assert started.session_id == s.session_id and started.agent == "main" and started.provider == "p"
    assert s.transcript_path == tmp_path / "sessions" / s.session_id / "transcript.jsonl"
    assert not s.transcript_path.exists()
    assert (s.provider_name, s.agent.name, s.cwd) == ("p", "main", tmp_path.resolve())


def test_transcript_holds_header_then_the_turn_and_never_the_key(tmp_path):
    s, _sink, _ = session(tmp_path, calls(("echo", {"text": KEY})), answer("done", reasoning="thought"))
    s.add_tools([EchoTool()])
    assert s.run("hello", CancelToken()).final_text == "done"
    records, warnings = read_transcript(s.transcript_path)
    assert warnings == []
    assert [r.type for r in records] == [
        "TranscriptHeader", "UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded", "UsageReported",
        "ToolCallFinished", "AnswerRecorded", "UsageReported", "RunEnded"]
    header = records[0]
    assert isinstance(header, msgs.TranscriptHeader) and header.format == 2
    assert (header.session_id, header.agent, header.model, header.provider) == (s.session_id, "main", "m1", "p")
    assert header.cwd == str(tmp_path.resolve()) and header.version
    assert records[4].entry.tool_calls[0].name == "echo"
    assert records[7].entry.reasoning == "thought"
    assert KEY not in s.transcript_path.read_text()


def test_no_session_writes_no_file(tmp_path):
    s, _, _ = session(tmp_path, answer("hi"), persist=False)
    s.run("hello", CancelToken())
    assert s.transcript_path is None and not (tmp_path / "sessions").exists()


def test_a_transcript_write_failure_warns_once_and_the_session_goes_on(tmp_path):
    (tmp_path / "sessions").write_text("a file where the folder should be")
    s, sink, _ = session(tmp_path, answer("one"), answer("two"))
    assert s.run("a", CancelToken()).final_text == "one"
    assert s.run("b", CancelToken()).final_text == "two"
    assert [w.code for w in sink.of(msgs.Warning)] == ["transcript"]
    assert s.transcript_path is None


def test_system_sections_and_context_reach_the_request(tmp_path):
    (tmp_path / "AGENTS.md").write_text("House rules.")
    s, _, providers = session(tmp_path, answer("ok"))
    s.add_system_section("# Skills\n- review: reviews code")
    s.add_context(msgs.ContextAdded(entry=UserEntry(text="SKILL BODY", kind="context"), skill="review", path="x",
                                    body="SKILL BODY"))
    s.run("go", CancelToken())
    messages = providers[0].requests[0].messages
    assert "House rules." in messages[0]["content"] and "# Skills" in messages[0]["content"]
    assert messages[1] == {"role": "user", "content": "SKILL BODY"}
    assert [r.type for r in read_transcript(s.transcript_path)[0]][:2] == ["TranscriptHeader", "ContextAdded"]


def test_switch_agent_keeps_history_and_changes_provider_and_model(tmp_path):
    s, sink, providers = session(tmp_path, answer("ok"))
    s.run("first", CancelToken())
    s.switch_agent("other")
    s.run("second", CancelToken())
    assert [p.name for p in providers] == ["p", "q"]
    request = providers[1].requests[0]
    assert request.model == "m2" and [m["content"] for m in request.messages[1:]] == ["first", "ok", "second"]
    assert s.ledger.max_context_tokens == 500 and s.provider_name == "q"
    assert msgs.AgentChanged(agent="other", model="m2", provider="q", protocol="openai", at=sink.of(msgs.AgentChanged)[0].at) in (
        read_transcript(s.transcript_path)[0])
    with pytest.raises(ConfigError, match="'ghost' is not a configured agent"):
        s.switch_agent("ghost")


def test_reset_starts_a_fresh_session_and_runs_the_hooks(tmp_path):
    s, sink, providers = session(tmp_path, answer("ok"))
    resets: list[str] = []
    s.on_reset(lambda: resets.append("fleet stopped"))
    s.run("first", CancelToken())
    old_id, old_path = s.session_id, s.transcript_path
    s.reset()
    s.run("second", CancelToken())
    assert resets == ["fleet stopped"]
    assert s.session_id != old_id and old_path.exists() and s.transcript_path != old_path
    assert [m["content"] for m in providers[0].requests[-1].messages[1:]] == ["second"]
    assert len(sink.of(msgs.SessionStarted)) == 2
    assert s.ledger.context_tokens == 110  # only the new turn's usage


def test_set_reasoning_effort_and_close_hooks(tmp_path):
    s, _, providers = session(tmp_path, answer("ok"))
    closed: list[bool] = []
    s.on_close(lambda: closed.append(True))
    s.set_reasoning_effort("high")
    s.run("a", CancelToken())
    s.set_reasoning_effort("")
    s.run("b", CancelToken())
    assert [r.reasoning_effort for r in providers[0].requests] == ["high", None]
    s.close()
    s.close()
    assert closed == [True]


def test_add_ons_given_at_build_reach_the_tools_and_the_prompt(tmp_path):
    seen = []

    class Peek(EchoTool):
        name = "peek"

        def run(self, args, ctx):
            seen.append(ctx.services)
            return super().run(args, ctx)

    fleet, hosts = object(), []

    def add_ons(host):
        hosts.append(host)
        return SessionAddOns(services=Services(fleet=fleet), tools=(Peek(),), system_sections=("# Fleet",))

    cfg = config(tmp_path)
    provider = FakeProvider(calls(("peek", {"text": "x"})), answer("ok"))
    parts = session_parts(config=cfg, agent=cfg.agents[0], cwd=tmp_path, sink=msgs.ListSink(),
                          approver=ScriptedApprover(), provider_factory=lambda pc: provider)
    s = open_session(parts, agent=cfg.agents[0], add_ons=add_ons)
    s.run("go", CancelToken())
    assert hosts == [s] and "peek" in s.tools
    assert seen == [Services(approval_gate=s.gate, fleet=fleet)] and s.services == seen[0]
    assert "# Fleet" in provider.requests[0].messages[0]["content"]


def test_sliding_builder_from_the_config_drops_old_turns(tmp_path):
    estimated = msgs.UsageInfo(prompt_tokens=0, completion_tokens=0, estimated=True)  # no real usage: ~4 characters a token
    s, _, providers = session(
        tmp_path, answer("ok " + "z" * 400, usage=estimated), max_context_tokens=400, context_builder="sliding")
    for n in range(4):
        s.run(f"prompt {n} " + "y" * 400, CancelToken())
    last = providers[0].requests[-1].messages
    assert last[0]["role"] == "system" and last[1]["content"].startswith("prompt 3")


# --------------------------------------------------------------------------- end to end over a real socket


def test_end_to_end_through_the_real_provider_and_loopback(tmp_path, loopback):
    srv = loopback([
        tool_turn("echo", {"text": "pong"}, call_id="call_e2e"),
        text_turn("all done", reasoning="let me see"),
    ])
    sink = msgs.ListSink()
    s = build_session(
        config=config(tmp_path, base_url=srv.base_url), agent_name="main", cwd=tmp_path, sink=sink,
        approver=PolicyApprover(),
    )
    s.add_tools([EchoTool()])
    result = s.run("ping", CancelToken())
    assert result == type(result)(final_text="all done")
    tool_msg = srv.requests[1]["messages"][-1]
    assert tool_msg == {"role": "tool", "tool_call_id": "call_e2e", "content": "pong"}
    assert srv.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert [b.text for b in sink.of(msgs.BlockEnded)] == ["let me see", "all done"]
    assert sink.of(msgs.UsageReported)[0].usage.prompt_tokens == 10
    s.run("again", CancelToken())
    assert "let me see" not in json.dumps(srv.requests[2]["messages"])  # reasoning stripped
    assert KEY not in s.transcript_path.read_text()
    s.close()


def test_end_to_end_stream_cut_keeps_partial_text(tmp_path, loopback):
    turn = text_turn("partial answer that is cut", pieces=4)
    turn.cut_after = 3
    srv = loopback([turn])
    sink = msgs.ListSink()
    s = build_session(
        config=config(tmp_path, base_url=srv.base_url), agent_name=None, cwd=tmp_path, sink=sink,
        approver=PolicyApprover(),
    )
    result = s.run("go", CancelToken())
    assert result.error and not result.cancelled
    assert sink.of(msgs.BlockEnded)[0].text and sink.of(msgs.RunEnded)[0].error == result.error
    records, warnings = read_transcript(s.transcript_path)
    assert warnings == [] and [r.type for r in records][-3:] == ["AnswerRecorded", "Error", "RunEnded"]
    assert records[-3].entry.text == sink.of(msgs.BlockEnded)[0].text and records[-3].entry.partial


def test_real_usage_calibrates_the_sliding_window(tmp_path):
    # The provider reports the context as tiny: the estimator believes it and keeps every turn.
    s, _, providers = session(
        tmp_path, answer("ok " + "z" * 400, usage=msgs.UsageInfo(prompt_tokens=50, completion_tokens=5)), max_context_tokens=1200, context_builder="sliding")
    # (1200: room for the built-in tools' specs, ~2k estimated tokens scaled down by the calibration)
    for n in range(4):
        s.run(f"prompt {n} " + "y" * 400, CancelToken())
    assert providers[0].requests[-1].messages[1]["content"].startswith("prompt 0")


def test_the_configs_allow_list_is_in_the_gate_with_its_origin(tmp_path):
    cfg = config(tmp_path).model_copy(update={"allow": ["write_file", "shell:make"]})
    s = build_session(config=cfg, agent_name=None, cwd=tmp_path, sink=msgs.ListSink(), approver=PolicyApprover(),
                      persist=False, provider_factory=lambda pc: FakeProvider())
    assert [(p.spec, p.origin) for p in s.gate.permissions()] == [("write_file", "config"), ("shell:make", "config")]
    assert s.gate.always_allowed("write_file") and not s.gate.always_allowed("edit")
    s.close()


def test_a_session_loads_no_pydantic_and_reading_a_msg_back_does():
    # A fresh interpreter: Msgs and history entries are plain records (mrsmith_tui.records), so making
    # them, and a whole session, loads no pydantic (start-up time, #26); a Msg read back is checked
    # with pydantic, loaded then.
    import os
    import subprocess
    import sys

    script = """
import sys
from mrsmith_tui import msgs
from tests.core.test_session import session
import pathlib, tempfile
session(pathlib.Path(tempfile.mkdtemp()))
print("pydantic" in sys.modules)
line = msgs.to_json(msgs.TextDelta(block_id="t1", text="x"))
assert msgs.from_json(line) == msgs.TextDelta(block_id="t1", text="x", at=line["at"])
print("pydantic" in sys.modules)
"""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=root, env=env)
    assert done.returncode == 0, done.stderr[-4000:]  # what went wrong, not only that it did
    out = done.stdout.split("\n")
    assert out[:2] == ["False", "True"]


THREADED_FIRST_USE = """
import random, sys, threading
from pydantic import ValidationError
from mrsmith_tui import history, msgs, records_check
from mrsmith_tui.msgs import msg_base
todo, models = [msgs.Msg, msg_base._Record, history.HistoryModel], []
while todo:
    cls = todo.pop(); todo += cls.__subclasses__(); models.append(cls)
start, failures = threading.Barrier(8), []
def first_uses(seed):
    order = models[:]
    random.Random(seed).shuffle(order)
    start.wait()
    for cls in order:
        try:
            cls.model_validate({"no such field": 1})
        except ValidationError:
            pass  # its checker was built and it checked
        except Exception as e:
            failures.append(f"{cls.__name__}: {e!r}")
threads = [threading.Thread(target=first_uses, args=(n,)) for n in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
print(len(failures), sum(c in records_check._TWINS for c in models), len(models))
print("\\n".join(failures[:5]))
"""


def test_first_uses_of_the_checkers_from_many_threads_at_once_are_safe():
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", THREADED_FIRST_USE], capture_output=True, text=True, timeout=120,
                              cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
        assert done.returncode == 0, done.stderr[-4000:]
        out = done.stdout.split("\n")
        failures, built, total = map(int, out[0].split())
        assert failures == 0, out[1:]
        assert built == total > 40
