"""/model and /reasoning on a real AgentSession: the switch for the next request, the list, the refusals."""

from __future__ import annotations

import uuid

import pytest

from loopback import LoopbackServer
from messages_loopback import MessagesServer
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.load import ConfigError
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.session import build_session
from mrsmith_tui.provider.factory import make_provider
from mrsmith_tui.session.transcript import read_transcript
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.update import completions, initial_model, update
from tests.tui.commands.fake_context import FakeContext

from .fakes import FakeProvider, ScriptedApprover, answer


def model_command(session, arg: str) -> list[str]:
    """What `/model ARG` says (its job's lines), run as the app runs it."""
    ctx = FakeContext(session=session, config=session.config)
    run_command(REGISTRY, ctx, "/model", arg)
    return ctx.run_jobs()

def real_session(tmp_path, provider_config: ProviderConfig, *, model="m1", provider_factory=None, **agent_kw):
    config = Config(providers=[provider_config],
                    agents=[AgentConfig(name="main", provider=provider_config.name, model=model, **agent_kw)],
                    sessions_dir=str(tmp_path / "sessions"))
    sink = msgs.ListSink()
    session = build_session(config=config, agent_name=None, cwd=tmp_path, sink=sink, approver=ScriptedApprover(),
                            provider_factory=provider_factory or (lambda pc: make_provider(pc, pc.api_key, True)))
    return session, sink


def test_set_model_switches_the_next_request_and_records_it(tmp_path):
    fake = FakeProvider(answer("one"), answer("two"))
    s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"),
                           provider_factory=lambda pc: fake)
    s.run("first", CancelToken())
    s.set_model("m2")
    s.run("second", CancelToken())
    assert [r.model for r in fake.requests] == ["m1", "m2"] and s.agent.model == "m2"
    records = read_transcript(s.transcript_path)[0]
    assert any(isinstance(r, msgs.AgentChanged) and r.model == "m2" for r in records)


def test_set_model_refuses_a_model_whose_knobs_break_a_rule(tmp_path):
    pc = ProviderConfig(name="c", base_url="http://127.0.0.1:9", protocol="anthropic")
    s, _ = real_session(tmp_path, pc, model="claude-opus-4-6", reasoning_effort="high", max_tokens=8000)
    with pytest.raises(ConfigError) as info:
        s.set_model("claude-sonnet-4-5")  # a budget model: 8000 cannot hold the high budget
    assert "max tokens 8000" in info.value.message and s.agent.model == "claude-opus-4-6"
    with pytest.raises(ConfigError):
        s.set_model("  ")


@pytest.mark.parametrize(("protocol", "bogus"), [("openai", "bogus"), ("anthropic", "minimal"), ("zai", "xhigh")])
def test_reasoning_refuses_an_effort_the_protocol_does_not_take(tmp_path, protocol, bogus):
    s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9", protocol=protocol))
    with pytest.raises(ConfigError) as info:
        s.set_reasoning_effort(bogus)
    assert repr(bogus) in info.value.message and s.agent.reasoning_effort is None
    s.set_reasoning_effort("high")
    assert s.agent.reasoning_effort == "high"


def test_list_models_asks_the_server_on_its_own_wire(tmp_path):
    chat = LoopbackServer(models=["b-model", "a-model"]).start()
    messages = MessagesServer(get_routes={"/v1/models?limit=1000": {"data": [{"id": "claude-x"}, {"id": "claude-y"}]}}).start()
    try:
        s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url=chat.base_url))
        assert s.list_models() == ["a-model", "b-model"]
        s2, _ = real_session(tmp_path, ProviderConfig(name="c", base_url=messages.base_url, protocol="anthropic"))
        assert s2.list_models() == ["claude-x", "claude-y"]
    finally:
        chat.stop()
        messages.stop()


def test_model_command_lists_switches_and_completes(tmp_path):
    chat = LoopbackServer(models=["m1", "m2", "m3"]).start()
    try:
        s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url=chat.base_url))
        ctx = FakeContext(session=s, config=s.config)
        run_command(REGISTRY, ctx, "/model", "")
        (text,) = ctx.run_jobs()
        assert text.splitlines()[1:] == ["● m1", "○ m2", "○ m3"]
        (msg_type, fields), = ctx.emitted_later
        model, _ = update(initial_model(model="m1"), msg_type(**fields, at=1.0))
        assert completions(model, "/model m") == ("/model m2", "/model m3")
        assert model_command(s, "m3") == ["model m3 from the next request (agent main)"] and s.agent.model == "m3"
    finally:
        chat.stop()


def test_model_command_falls_back_to_the_configured_models(tmp_path):
    s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"))
    (text,) = model_command(s, "")
    assert "cannot list them" in text and "● m1" in text


def test_reasoning_bogus_is_refused_on_screen(tmp_path):
    s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"))
    ctx = FakeContext(session=s, config=s.config)
    run_command(REGISTRY, ctx, "/reasoning", "bogus")
    assert ctx.last_note[1] == "error" and ctx.last_note[0].startswith("/reasoning: effort 'bogus'")
    assert ctx.emitted == []




def test_a_vendor_protocol_knows_its_context_and_is_never_probed(tmp_path, monkeypatch):
    asked: list[str] = []
    monkeypatch.delenv("MRSMITH_NO_CONTEXT_PROBE", raising=False)
    import mrsmith_tui.provider.context_probe as probe

    monkeypatch.setattr(probe, "probe_context_size", lambda *a, **k: asked.append("probe") or (0, ""))
    s, _ = real_session(tmp_path, ProviderConfig(name="c", base_url="http://127.0.0.1:9", protocol="anthropic"))
    s.wait_for_context_size(90)
    assert asked == [] and s.ledger.max_context_tokens == 200_000
    assert "anthropic" in s.ledger.context_source
    # A model no other test uses: other tests' sessions on 127.0.0.1:9/v1 (model m1) leave probe threads that,
    # finishing late under load, wrote "does not tell" into this test's cache (the state folder is the one
    # in the environment when they write), so this session found a fresh answer and asked nothing.
    from mrsmith_tui.provider.context_size import remember

    remember("http://127.0.0.1:9/v1", "m1", (0, ""))  # such a late write, made here on purpose
    s2, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"),
                         model=f"probed-{uuid.uuid4().hex}")
    # the probe's thread imports httpx and builds a TLS context first: under load that took over 5 s.
    # Its end is the event waited for (join); 90 s is only the safety net.
    s2.wait_for_context_size(90)
    assert asked == ["probe"]  # the generic protocol may be a local server that says its size


def test_the_estimator_starts_from_the_vendors_tokenizer(tmp_path):
    s, _ = real_session(tmp_path, ProviderConfig(name="c", base_url="http://127.0.0.1:9", protocol="anthropic"))
    o, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"))
    assert s.conversation.estimator.scale > o.conversation.estimator.scale == 1.0


def test_a_model_the_server_does_not_list_is_switched_to_and_the_line_names_the_closest(tmp_path):
    chat = LoopbackServer(models=["gpt-4o", "gpt-4.1", "qwen3-coder"]).start()
    try:
        s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url=chat.base_url))
        (text,) = model_command(s, "gpt-nope")
        assert s.agent.model == "gpt-nope"  # a person may know better than the list
        assert text.startswith("model gpt-nope from the next request (agent main) · the server does not list it")
        assert "closest: gpt-4o" in text and "qwen3-coder" not in text
        assert model_command(s, "zzzz") == ["model zzzz from the next request (agent main) · the server does not list it "
                                  "(/model lists its 3)"]
    finally:
        chat.stop()


def test_a_server_that_cannot_list_its_models_switches_without_a_word(tmp_path):
    s, _ = real_session(tmp_path, ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"))
    assert model_command(s, "gpt-nope") == ["model gpt-nope from the next request (agent main)"] and s.agent.model == "gpt-nope"
