"""A headless run against a provider that takes the request and says nothing: a line on stderr says who
is awaited and how to stop, and the `--json` stdout stays the machine's. A real loopback socket and a
real session; the server answers only once the line has been written, so nothing races a delay."""

from __future__ import annotations

import io
import json
import re
import threading

from loopback import held, text_turn
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.headless import HeadlessPrinter, run_headless
from mrsmith_tui.skills.catalog import SkillDirs
from mrsmith_tui.tools.approval import PolicyApprover


class Watched(io.StringIO):
    """stderr that lets the server go on once a waiting line is written."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def write(self, text: str) -> int:
        written = super().write(text)
        if "waiting for" in self.getvalue():
            self.release.set()
        return written


def test_a_silent_provider_gets_a_waiting_line_on_stderr_and_none_in_the_json(tmp_path, loopback):
    answer = threading.Event()
    srv = loopback([held(text_turn("late but here"), answer)])  # accepts, reads the request, holds its answer
    config = Config(providers=[ProviderConfig(name="slow", base_url=srv.base_url, api_key="sk-waiting-test-key",
                                              connect_timeout=5, read_timeout=90)],
                    agents=[AgentConfig(name="main", provider="slow", model="m")], sessions_dir=str(tmp_path / "s"))
    out, err = io.StringIO(), Watched(answer)
    printer = HeadlessPrinter(out, err, json_lines=True, quiet_after=0)
    work = tmp_path / "work"
    work.mkdir()
    session = compose_session(config=config, cwd=work, sink=printer, approver=PolicyApprover(), persist=False,
                              skills_dirs=SkillDirs(()))
    try:
        assert run_headless(session, "hi", printer=printer) == 0
    finally:
        session.close()
    waiting = err.getvalue().splitlines()[0]
    assert re.fullmatch(r"waiting for slow \(\d+ s, nothing received yet; gives up at 90 s \(readTimeout\); Ctrl-C stops\)",
                        waiting), waiting
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "waiting for" not in out.getvalue() and lines[-1]["type"] == "RunEnded" and not lines[-1]["error"]
    assert len(srv.requests) == 1


def test_the_waiting_line_shows_a_hostile_provider_name_as_text():
    """A provider's name comes from a config file (a cloned repository's, perhaps): its terminal controls
    reach stderr as visible stand-ins, never as a sequence the terminal obeys."""

    class Session:
        class agent:  # the one field the printer reads
            provider = "evil\x1b]0;pwned\x07\x1b[2J"

        class config:
            @staticmethod
            def provider(name):
                return ProviderConfig(name=name, base_url="http://127.0.0.1:9/v1", read_timeout=60)

    err = io.StringIO()
    printer = HeadlessPrinter(io.StringIO(), err, quiet_after=0)
    printer.waiting(Session())  # type: ignore[arg-type]  # the two fields it reads
    assert "waiting for evil" in err.getvalue() and "\x1b" not in err.getvalue() and "\x07" not in err.getvalue()
