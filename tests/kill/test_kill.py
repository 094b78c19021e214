"""Durability: SIGKILL the real headless CLI at random moments; every transcript must still
read (at worst its torn last line dropped) and resume into a well-formed conversation.

Each chain of runs shares a folder: the first run starts a session, the next ones go on
with `-c`, so a kill can land in a fresh session, in a resumed one, mid-stream, mid-tool
(write_file, shell) or mid-write. Runs go in parallel threads until 100 kills have landed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from core.fakes import FakeProvider, ScriptedApprover, answer
from loopback import Turn, chunk, usage_chunk
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.resume import resume_session
from mrsmith_tui.history import AssistantEntry, HistoryEntry, ToolResultEntry
from mrsmith_tui.session.rebuild import rebuild
from mrsmith_tui.session.replay import for_screen
from mrsmith_tui.session.transcript import read_transcript

REPO = Path(__file__).resolve().parents[2]
KILLS_WANTED = 100
MAX_RUNS = 220
CHAIN_LENGTH = 4
WORKERS = 4
DELAY = 0.008  # seconds between streamed events


def _tool(name: str, args: dict, call_id: str) -> Turn:
    text = json.dumps(args)
    events = [chunk(role="assistant", content="")]
    events += [chunk(reasoning=f"step {i} ") for i in range(6)]
    events.append(chunk(tool_calls=[{"index": 0, "id": call_id, "type": "function", "function": {"name": name, "arguments": text[:9]}}]))
    events.append(chunk(tool_calls=[{"index": 0, "function": {"arguments": text[9:]}}]))
    events += [chunk(finish="tool_calls"), usage_chunk(200, 20)]
    return Turn(events=events, delay=DELAY)


def _final() -> Turn:
    events = [chunk(role="assistant", content="")] + [chunk(f"word{i} ") for i in range(12)]
    events += [chunk(finish="stop"), usage_chunk(300, 30)]
    return Turn(events=events, delay=DELAY)


def responder(body: dict, n: int) -> Turn:
    """Per request, from the conversation itself (parallel clients share the server)."""
    messages = body["messages"]
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    tools_done = sum(1 for m in messages[last_user:] if m["role"] == "tool")
    if tools_done == 0:
        return _tool("write_file", {"path": f"notes-{n}.txt", "content": "x" * 200}, f"call_w{n}")
    if tools_done == 1:
        return _tool("shell", {"command": "echo hi > shell.txt; sleep 0.05; echo done"}, f"call_s{n}")
    return _final()


class Chains:
    def __init__(self, tmp_path: Path, base_url: str) -> None:
        self.tmp_path = tmp_path
        self.base_url = base_url
        self.lock = threading.Lock()
        self.kills = 0
        self.runs = 0
        self.rng = random.Random(os.environ.get("MRSMITH_KILL_SEED", "7"))

    def _take_run(self) -> float | None:
        """A random kill moment for the next run, or None when enough kills have landed."""
        with self.lock:
            if self.kills >= KILLS_WANTED or self.runs >= MAX_RUNS:
                return None
            self.runs += 1
            return self.rng.uniform(0.0, 0.3) * (1 if self.rng.random() < 0.85 else -1)  # < 0: from spawn

    def chain(self, number: int) -> None:
        folder = self.tmp_path / f"chain{number}"
        cwd, sessions = folder / "project", folder / "sessions"
        cwd.mkdir(parents=True)
        env = {**os.environ, "OPENAI_BASE_URL": self.base_url, "MODEL": "test-model", "NO_COLOR": "1",
               "MRSMITH_SESSIONS_DIR": str(sessions), "PYTHONPATH": str(REPO)}
        for step in range(CHAIN_LENGTH):
            delay = self._take_run()
            if delay is None:
                return
            existing = list(sessions.glob("*/transcript.jsonl"))
            follow_up = ["-c"] if existing else []
            argv = [sys.executable, "-m", "mrsmith_tui", *follow_up, "-p", f"chain {number} step {step}", "--yes"]
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if delay >= 0:
                self._wait_for_writing(proc, sessions, existing)
            time.sleep(abs(delay))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=90)
            if proc.returncode == -signal.SIGKILL:
                with self.lock:
                    self.kills += 1

    @staticmethod
    def _wait_for_writing(proc: subprocess.Popen, sessions: Path, existing: list[Path]) -> None:
        """Until this run has written to a transcript (or ended): the kill then lands mid-run."""
        sizes = {p: p.stat().st_size for p in existing}
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            for p in sessions.glob("*/transcript.jsonl"):
                try:
                    if p.stat().st_size != sizes.get(p, -1):
                        return
                except OSError:
                    pass
            time.sleep(0.002)


def _well_formed(entries: Sequence[HistoryEntry]) -> None:
    """Every tool call is answered before the conversation goes on (else providers refuse it)."""
    waiting: set[str] = set()
    for m in entries:
        if isinstance(m, ToolResultEntry):
            assert m.call_id in waiting, m
            waiting.discard(m.call_id)
            continue
        assert not waiting, f"unanswered tool calls {waiting} before {m.role}"
        waiting = {c.id for c in m.tool_calls} if isinstance(m, AssistantEntry) else set()
    assert not waiting


def test_transcripts_survive_100_random_sigkills(tmp_path, loopback):
    srv = loopback(responder=responder)
    chains = Chains(tmp_path, srv.base_url)
    started = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        number = 0
        futures = []
        while chains.kills < KILLS_WANTED and chains.runs < MAX_RUNS:
            futures = [f for f in futures if not f.done()]
            while len(futures) < WORKERS:
                futures.append(pool.submit(chains.chain, number))
                number += 1
            futures[0].result() if futures[0].done() else time.sleep(0.01)
        for f in futures:
            f.result()
    took = time.monotonic() - started
    assert chains.kills >= KILLS_WANTED, f"only {chains.kills} kills landed in {chains.runs} runs"

    transcripts = sorted(tmp_path.glob("chain*/sessions/*/transcript.jsonl"))
    assert len(transcripts) >= 20
    config_for = lambda sessions: Config(  # noqa: E731
        providers=[ProviderConfig(name="openai", base_url=srv.base_url)],
        agents=[AgentConfig(name="default", provider="openai", model="test-model")],
        sessions_dir=str(sessions),
    )
    resumed = 0
    for path in transcripts:
        records, warnings = read_transcript(path)
        # at worst the last, torn record is dropped: never a broken record in the middle
        assert len(warnings) <= 1 and all("torn last line" in w for w in warnings), (path, warnings)
        assert [r.type for r in records].count("TranscriptHeader") <= 1
        if not records:
            continue
        state = rebuild(records)
        _well_formed(state.history)
        replay = for_screen(records)
        assert sum(isinstance(m, msgs.RunEnded) for m in replay) == state.runs

        made: list[FakeProvider] = []
        factory = lambda pc: made.append(FakeProvider(answer("resumed fine"))) or made[-1]  # noqa: E731, B023 (called in this iteration)
        session = resume_session(
            config=config_for(path.parent.parent), cwd=path.parent.parent.parent / "project", sink=msgs.ListSink(),
            approver=ScriptedApprover(), target=path, provider_factory=factory,
        )
        assert session.run("after the kill", CancelToken()).final_text == "resumed fine"
        _well_formed(made[-1].requests[-1].entries)
        session.close()
        after, warnings = read_transcript(path)
        assert warnings == [] and isinstance(after[-1], msgs.RunEnded)
        resumed += 1
    assert resumed >= 20
    print(f"{chains.kills} kills in {chains.runs} runs, {len(transcripts)} transcripts, {took:.1f}s")
