"""A whole session against the real llama.cpp server of `make test-real` (a 4k context): the size is
read from the server, the fixed prompt cost stays small, and 20 tool turns run without a context error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.usage_report import usage_report
from mrsmith_tui.tools.approval import PolicyApprover

BASE_URL = os.environ.get("MRSMITH_REAL_BASE_URL", "")
MODEL = os.environ.get("MRSMITH_REAL_MODEL", "gemma")

pytestmark = [pytest.mark.real, pytest.mark.skipif(not BASE_URL, reason="MRSMITH_REAL_BASE_URL is not set"),
              pytest.mark.timeout(1800)]  # 20 turns of a CPU model: minutes, more on a busy machine


def test_context_size_from_the_server_and_a_20_turn_tool_session(tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    for name in ("notes.txt", "todo.txt", "main.py"):
        (work / name).write_text(f"the file {name}\n" * 20)
    config = Config(providers=[ProviderConfig(name="real", base_url=BASE_URL, read_timeout=300)],
                    agents=[AgentConfig(name="default", provider="real", model=MODEL)],
                    sessions_dir=str(tmp_path / "sessions"))
    sink = msgs.ListSink()
    session = compose_session(config=config, cwd=work, sink=sink, approver=PolicyApprover(yes=True))
    session.wait_for_context_size()
    report = usage_report(session.ledger)
    assert "of 4,096 tokens" in report and "size from the server (llama.cpp /props n_ctx)" in report, report
    system, schemas, tools = session.conversation.prompt_overhead()
    assert (system + schemas) < 0.3 * 4096, (system, schemas, tools)

    prompts = ["List the files in this folder with the list_dir tool.", "Read notes.txt with read_file.",
               "Find the Python files with the glob tool.", "Read main.py and say what it holds."]
    errors = []
    for turn in range(20):
        result = session.run(prompts[turn % len(prompts)], CancelToken())
        if result.error:
            errors.append(f"turn {turn + 1}: {result.error}")
    tool_calls = len(sink.of(msgs.ToolCallStarted))
    print(f"\n20 turns, {tool_calls} tool calls; {usage_report(session.ledger)}")
    assert not errors, errors
    assert not [m for m in sink.of(msgs.Error) if "context" in m.text]
    session.close()
