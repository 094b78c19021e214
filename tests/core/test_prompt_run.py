"""core.prompt_run: only typed text has a syntax (adversary findings F1, F2). A wide generated table of
texts that start with or hold `!` and `@`: given as literal (piped stdin, a file, an expanded custom
command) each goes to the model byte for byte, nothing runs and nothing is read; typed, only a `!`
in the very first place runs."""

from __future__ import annotations

import itertools
from pathlib import Path

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config
from mrsmith_tui.core.prompt_run import CommandResult, command_exit_code, run_prompt
from mrsmith_tui.tools.approval import ApprovalGate, PolicyApprover


class Fake:
    """The parts of a Session run_prompt uses; `run` records what the model would get."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.agent = AgentConfig(name="a", provider="p", model="m")
        self.config = Config()
        self.gate = ApprovalGate(PolicyApprover())
        self.sent: list[tuple[str, tuple]] = []
        self.context: list[str] = []

    def run(self, prompt, cancel, *, attachments=()):
        self.sent.append((prompt, tuple(attachments)))
        return "ran"

    def add_context(self, added):
        self.context.append(added)


def _texts() -> list[str]:
    leads = ["!", " !", "\t!", "\n!", "!!", "! ", "@", " @", "@.env ", "@./.env ", "!@", "@!", "\u200b!", "\ufeff!"]
    bodies = ["touch PWNED", "rm -rf PWNED_DIR", "cat .env > PWNED", "echo hi > PWNED", ".env", "notes.txt",
              "../outside", "PWNED"]
    tails = ["", "\n", " @.env", " @notes.txt", "\n!touch PWNED", " ; touch PWNED"]
    return [lead + body + tail for lead, body, tail in itertools.product(leads, bodies, tails)]


def test_the_table_is_wide():
    assert len(_texts()) >= 600


def test_literal_text_is_sent_as_it_is_and_nothing_runs_or_is_read(tmp_path):
    (tmp_path / ".env").write_text("SECRET_VALUE_1=abcdef\n")
    (tmp_path / "notes.txt").write_text("NOTES-BODY")
    shown: list[msgs.Msg] = []
    for text in _texts():
        fake = Fake(tmp_path)
        assert run_prompt(fake, text, CancelToken(), typed=False, sink=shown.append) == "ran"
        assert fake.sent == [(text, ())], repr(text)
        assert fake.context == []
    assert shown == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [".env", "notes.txt"]


def test_typed_only_a_first_bang_runs(tmp_path):
    for text in _texts():
        fake = Fake(tmp_path)
        result = run_prompt(fake, text, CancelToken(), typed=True)
        first_bang = text.startswith("!") and text[1:].strip() != ""
        assert isinstance(result, CommandResult) == first_bang, repr(text)
        if not first_bang:
            assert fake.sent and fake.sent[0][0] == text
            assert not (tmp_path / "PWNED").exists(), repr(text)
        else:
            assert fake.sent == [] and len(fake.context) == 1
        for p in tmp_path.iterdir():
            p.unlink() if p.is_file() else None


def test_a_command_result_gives_the_exit_code():
    assert command_exit_code(CommandResult("x", "", 5)) == 5
    assert command_exit_code(CommandResult("x", "", 0)) == 0
    assert command_exit_code(CommandResult("x", "", -9)) == 1
    assert command_exit_code(CommandResult("x", "", None)) == 1
    assert command_exit_code(CommandResult("x", "", -9, cancelled=True)) == 130
