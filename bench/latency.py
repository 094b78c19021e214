"""Latency budgets that used to be timed assertions in the test suite (the suite now only checks
the behaviour, gated on events). Each figure is one wall-clock measurement on this machine.

  spawn_agent returns                a run that spawns a worker ends while the worker still runs
  fleet stop mid-stream              stop() -> the worker is stopped
  stop_agent mid-shell               the tool call -> returns with the process killed
  provider cancel mid-stream         cancel -> the stream iterator ends
  setup probe of 4 servers           four 0.3 s probes run at once
  list 300 long sessions             session.store.list_sessions
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from pathlib import Path

from bench.report import Figure


def _ms(seconds: float) -> float:
    return seconds * 1000


def _spawn_and_stop(workdir: Path) -> list[Figure]:
    from loopback import LoopbackServer, held, text_turn, tool_turn
    from mrsmith_tui import msgs
    from mrsmith_tui.agents.compose import compose_session
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
    from mrsmith_tui.tools.approval import PolicyApprover

    gate = threading.Event()

    def respond(body, n):
        system = body["messages"][0]["content"]
        if "# You are a background agent" in system:
            return held(text_turn("report " * 50, pieces=50), gate, at=3)
        rounds = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return tool_turn("spawn_agent", {"task": "bench worker"}) if rounds == 0 else text_turn("started")

    with LoopbackServer(responder=respond) as srv:
        config = Config(providers=[ProviderConfig(name="b", base_url=srv.base_url)],
                        agents=[AgentConfig(name="b", provider="b", model="m")], default_agent="b")
        session = compose_session(config=config, cwd=workdir, sink=msgs.ListSink(), approver=PolicyApprover(),
                                  persist=False, max_agents=4, agent_wait_ms=60_000)
        try:
            t0 = time.perf_counter()
            session.run("spawn one", CancelToken())
            spawn = time.perf_counter() - t0
            fleet = session.services.fleet
            assert fleet is not None, "compose_session gives every session a fleet"
            (record,) = fleet.list()
            t0 = time.perf_counter()
            fleet.stop(record.agent_id)
            stop = time.perf_counter() - t0 if record.state == "stopped" else None
        finally:
            session.close()
    return [Figure("spawn_agent: run ends while the worker runs", _ms(spawn), "ms", "< 400"),
            Figure("fleet stop mid-stream", _ms(stop) if stop is not None else None, "ms", "< 1000")]


def _provider_cancel() -> Figure:
    from loopback import LoopbackServer, Turn, chunk
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.history import UserEntry
    from mrsmith_tui.provider.openai_compat import OpenAICompatProvider
    from mrsmith_tui.provider.types import ChatRequest

    turn = Turn(events=[chunk(f"t{i} ") for i in range(200)], delay=0.05)
    with LoopbackServer([turn]) as srv:
        p = OpenAICompatProvider(name="b", base_url=srv.base_url, api_key=None)
        cancel = CancelToken()
        request = ChatRequest(model="m", system_prompt="", entries=(UserEntry(text="hi"),))
        t0 = None
        for n, _ in enumerate(p.stream(request, cancel)):
            if n == 3:
                t0 = time.perf_counter()
                cancel.cancel()
        took = time.perf_counter() - t0 if t0 else None
    return Figure("provider cancel mid-stream -> stream ends", _ms(took) if took else None, "ms", "< 1000")


def _probe() -> Figure:
    from mrsmith_tui.provider.probe import LocalServer, probe_servers

    def slow(url, key, timeout):
        time.sleep(0.3)
        return ["m"]

    servers = [LocalServer(str(p), str(p), p) for p in (1, 2, 3, 4)]
    t0 = time.perf_counter()
    probe_servers(servers, slow)
    return Figure("setup: probe 4 servers (0.3 s each)", _ms(time.perf_counter() - t0), "ms", "< 900")


def _listing(tmp: Path) -> Figure:
    from mrsmith_tui.session.store import list_sessions

    root = tmp / "sessions"
    big = "x" * 20_000
    for n in range(300):
        folder = root / f"s{n:04d}"
        folder.mkdir(parents=True)
        lines = [{"type": "header", "at": float(n), "format": 1, "id": f"s{n:04d}", "created": float(n),
                  "cwd": str(tmp), "agent": "a", "model": "m", "provider": "p", "version": "0"}]
        lines += [{"type": "user", "run_id": f"run{i}", "text": "p"} for i in (1, 2, 3)]
        lines += [{"type": "tool_result", "content": big}] * 10
        (folder / "transcript.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    t0 = time.perf_counter()
    list_sessions(root, cwd=tmp)
    return Figure("list 300 sessions of ~200 KB", _ms(time.perf_counter() - t0), "ms", "< 2000")


def measure() -> list[Figure]:
    import bench.workload  # noqa: F401  (puts tests/ on sys.path for the loopback server)

    with tempfile.TemporaryDirectory(prefix="mrsmith-bench-latency-") as d:
        tmp = Path(d)
        figures = _spawn_and_stop(tmp)
        figures.append(_provider_cancel())
        figures.append(_probe())
        figures.append(_listing(tmp))
    return figures
