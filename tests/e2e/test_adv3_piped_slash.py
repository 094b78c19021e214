"""Adversary (#25): a prompt piped on stdin is text the person did not type. Like its `!` and `@`, its
leading `/word` means nothing: `cat notes.md | mrsmith -c` must not put files back (/undo), ask for
AGENTS.md (/init) or expand a cloned repository's command file; the text goes to the model as it is."""

from __future__ import annotations

import pytest

from loopback import text_turn, tool_turn

PIPED = ["/undo", "/undo 2", "/undo 200", "/undo\nand a second line", "/init", "/review src", "/undo lots"]


@pytest.mark.parametrize("piped", PIPED)
def test_a_piped_slash_word_is_sent_as_text(cli, loopback, piped):
    (cli.cwd / ".mrsmith" / "commands").mkdir(parents=True)
    (cli.cwd / ".mrsmith" / "commands" / "review.md").write_text("REVIEW-EXPANDED $ARGUMENTS\n")
    (cli.cwd / "a.txt").write_text("before\n")
    srv = loopback([tool_turn("write_file", {"path": "a.txt", "content": "after\n"}, call_id="c1"),
                    text_turn("done"), text_turn("answered")])
    first = cli.using(srv.base_url).run("-p", "change it", "--yes")
    assert first.code == 0, first.err
    assert (cli.cwd / "a.txt").read_text() == "after\n"
    piped_run = cli.run("-c", input=piped + "\n")
    assert piped_run.code == 0, piped_run.err
    assert (cli.cwd / "a.txt").read_text() == "after\n"  # nothing was put back
    assert not (cli.cwd / "AGENTS.md").exists()
    sent = srv.requests[-1]["messages"][-1]["content"]
    assert sent.startswith(piped.strip()) and "REVIEW-EXPANDED" not in sent
