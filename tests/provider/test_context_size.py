"""The context size is remembered per endpoint and model, asked only when unknown, never waited for,
and a cancelled probe reports nothing (issue #26)."""

from __future__ import annotations

import json
import stat
import threading

import pytest

from loopback import text_turn
from mrsmith_tui import msgs
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.usage_report import usage_report
from mrsmith_tui.provider import context_probe, context_size
from mrsmith_tui.provider.context_size import FRESH_SECONDS, MAX_ENTRIES, cache_path, remember, remembered

LLAMA_PROPS = {"/props": {"default_generation_settings": {"n_ctx": 4096}}}


def session_on(base_url, tmp_path, api_key=None):
    config = Config(providers=[ProviderConfig(name="local", base_url=base_url, api_key=api_key)],
                    agents=[AgentConfig(name="a", provider="local", model="m")])
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return compose_session(config=config, cwd=work, sink=msgs.ListSink(), approver=None, persist=False)


def test_what_a_server_told_is_remembered_and_not_asked_again(loopback, tmp_path):
    srv = loopback([text_turn("ok")], get_routes=LLAMA_PROPS)
    first = session_on(srv.base_url, tmp_path)
    first.wait_for_context_size(90)
    assert first.ledger.max_context_tokens == 4096
    first.close()
    srv.get_routes.clear()  # the server now tells nothing: only the cache can know
    second = session_on(srv.base_url, tmp_path)
    assert second.ledger.max_context_tokens == 4096  # at once, before any run or thread
    assert second._context_limit.probe is None  # nothing asked
    assert "size from the server (llama.cpp /props n_ctx; remembered)" in usage_report(second.ledger)
    second.close()


def test_the_cache_is_private_and_holds_no_url_or_key(tmp_path):
    url = "http://user:hunter2-PASSWORD@127.0.0.1:8080/v1?api_key=sk-secret-123"
    remember(url, "qwen", (8192, "llama.cpp /props n_ctx"))
    path = cache_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    text = path.read_text()
    for secret in ("hunter2", "PASSWORD", "sk-secret", "127.0.0.1", "qwen", "user"):
        assert secret not in text
    assert remembered(url, "qwen") == ((8192, "llama.cpp /props n_ctx"), True)
    assert remembered(url, "other") == (None, False)
    assert remembered(url + "x", "qwen") == (None, False)


def test_a_stale_answer_still_counts_but_is_asked_again(tmp_path):
    remember("http://h/v1", "m", (2048, "s"), now=lambda: 1000.0)
    assert remembered("http://h/v1", "m", now=lambda: 1000.0 + FRESH_SECONDS - 1) == ((2048, "s"), True)
    assert remembered("http://h/v1", "m", now=lambda: 1000.0 + FRESH_SECONDS + 1) == ((2048, "s"), False)
    assert remembered("http://h/v1", "m", now=lambda: 0.0) == ((2048, "s"), False)  # from the future: ask again


@pytest.mark.parametrize("content", [
    "", "not json", "[]", '{"k": 3}', json.dumps({"x": {"tokens": True, "source": "s", "at": 1}}),
    json.dumps({"x": {"tokens": -5, "source": "s", "at": 1}}), "{" * 100_000, " " * 300_000,
])
def test_a_damaged_cache_is_read_as_empty_and_written_over(content):
    path = cache_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    assert remembered("http://h/v1", "m") == (None, False)
    remember("http://h/v1", "m", (1024, "s"))
    assert remembered("http://h/v1", "m") == ((1024, "s"), True)


def test_the_cache_keeps_the_newest_entries_only(tmp_path):
    for i in range(MAX_ENTRIES + 20):
        remember("http://h/v1", f"m{i}", (1000 + i, "s"), now=lambda i=i: 1_000_000.0 + i)
    data = json.loads(cache_path().read_text())
    assert len(data) == MAX_ENTRIES
    assert remembered("http://h/v1", "m0")[0] is None
    assert remembered("http://h/v1", f"m{MAX_ENTRIES + 19}")[0] == (1000 + MAX_ENTRIES + 19, "s")


class HeldProbe:
    """A probe that answers only when let go."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()

    def __call__(self, base_url, model, api_key=None, *, client=None):
        assert client is not None and (api_key is None or client.headers["Authorization"] == f"Bearer {api_key}")
        self.started.set()
        self.release.wait(30)
        return 4096, "held"


def test_a_run_never_waits_for_the_probe_and_its_late_answer_still_counts(loopback, tmp_path, monkeypatch):
    held = HeldProbe()
    monkeypatch.setattr(context_probe, "probe_context_size", held)
    srv = loopback([text_turn("answer")])
    session = session_on(srv.base_url, tmp_path, api_key="sk-test-key-123")
    assert held.started.wait(30)
    result = session.run("hi", CancelToken())  # the probe is still held: the run went ahead
    assert result.final_text == "answer" and session.ledger.max_context_tokens == 128_000
    held.release.set()
    session.wait_for_context_size(90)
    assert session.ledger.max_context_tokens == 4096
    assert remembered(srv.base_url, "m")[0] == (4096, "held")
    session.close()


def test_a_probe_cancelled_at_exit_reports_and_remembers_nothing(loopback, tmp_path, monkeypatch):
    held = HeldProbe()
    monkeypatch.setattr(context_probe, "probe_context_size", held)
    srv = loopback([text_turn("answer")])
    session = session_on(srv.base_url, tmp_path)
    assert held.started.wait(30)
    probe = session._context_limit.probe
    session.close()  # at exit
    held.release.set()
    probe.join(30)
    assert not probe.thread.is_alive()
    assert session.ledger.max_context_tokens == 128_000
    assert remembered(srv.base_url, "m") == (None, False)


def test_the_background_probe_closes_its_connections_when_cancelled(monkeypatch):
    seen = {}

    def probe(base_url, model, api_key=None, *, client=None):
        seen["client"] = client
        raise RuntimeError("closed under it")

    answers = []
    p = context_size.BackgroundProbe("http://127.0.0.1:9/v1", "m", None, answers.append, probe=probe).start()
    p.join(30)
    assert answers == [] and seen["client"].is_closed
    assert remembered("http://127.0.0.1:9/v1", "m") == (None, False)  # a failure is not an answer


def test_a_late_answer_is_remembered_where_its_session_started(tmp_path, monkeypatch):
    """The cache's place is fixed when the probe starts: an answer that comes in after the environment
    changed (a later test's HOME, a changed XDG_STATE_HOME) lands in the first place, not the new one."""
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("XDG_STATE_HOME", str(first))
    gate = threading.Event()

    def held(*args, **kwargs):
        assert gate.wait(90)  # the safety net
        return 4096, "held"

    probe = context_size.BackgroundProbe("http://127.0.0.1:9/v1", "late", None, lambda answer: None, probe=held)
    probe.start()
    monkeypatch.setenv("XDG_STATE_HOME", str(second))
    gate.set()
    probe.join(90)
    assert (first / "mrsmith" / context_size.CACHE_NAME).exists()
    assert not (second / "mrsmith" / context_size.CACHE_NAME).exists()
