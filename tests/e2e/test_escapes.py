"""Nothing a model or a tool prints drives the terminal: the escape corpus through the real
headless CLI (plain and --json), an export and `--list`."""

from __future__ import annotations

import json

import pytest

from loopback import Turn, chunk, tool_turn, usage_chunk
from tests.security.corpus import ALL, controls_in

pytest.importorskip("mrsmith_tui.tools.builtin")

ODD_NAME = "name\x1b]0;FILE-TITLE\x07\u202eevil"


def corpus_answer() -> Turn:
    pieces = [ALL[i:i + 5] for i in range(0, len(ALL), 5)]  # every sequence cut across deltas somewhere
    return Turn(events=[chunk(role="assistant", content=""), *[chunk(reasoning=p) for p in pieces[:20]],
                        *[chunk(p) for p in pieces], chunk(finish="stop"), usage_chunk()])


def turns():
    return [
        tool_turn("shell", {"command": "printf '\\033]0;SHELL-TITLE\\007\\033[2J\\233H\\342\\200\\256x\\n'"}, call_id="c1"),
        tool_turn("list_dir", {"path": "odd"}, call_id="c2"),
        tool_turn("read_file", {"path": "missing\x1b[2J.txt"}, call_id="c3"),
        corpus_answer(),
    ]


def setup_project(cli):
    (cli.cwd / "odd").mkdir()
    (cli.cwd / "odd" / ODD_NAME).write_text("x")


def no_controls(text: str) -> None:
    assert controls_in(text) - {"\n", "\t"} == set(), sorted(controls_in(text))


@pytest.mark.parametrize("no_color", ["1", ""])
def test_plain_headless_writes_no_escape_at_all(cli, loopback, no_color):
    setup_project(cli)
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "go", "--yes", env={"NO_COLOR": no_color})
    assert done.code == 0, done.err
    no_controls(done.out)
    no_controls(done.err)
    assert "␛]52;c;" in done.out and "␛[2J" in done.out and "\\x9b2J" in done.out and "\\u202e" in done.out
    assert "␛]0;SHELL-TITLE␇␛[2J" in done.err and "missing␛[2J.txt does not exist" in done.err
    # the model still got the bytes as they were (it is data to the model)
    assert ODD_NAME in srv.requests[2]["messages"][-1]["content"]
    for path in done.sessions.glob("*/transcript.jsonl"):
        exported = cli.run("export", str(path))
        no_controls(exported.out)
        text = next(cli.cwd.glob("mrsmith-*.md")).read_text()
        no_controls(text)
        assert "␛]52;c;" in text
    listing = cli.run("--list")
    no_controls(listing.out)


def test_json_lines_escape_controls_and_keep_the_data(cli, loopback):
    setup_project(cli)
    srv = loopback(turns())
    done = cli.using(srv.base_url).run("-p", "go", "--yes", "--json")
    assert done.code == 0, done.err
    no_controls(done.out)
    no_controls(done.err)
    events = [json.loads(line) for line in done.out.splitlines()]
    answer = "".join(e["text"] for e in events if e["type"] == "TextDelta")
    assert answer == ALL  # exact data, escaped in the JSON text
    finished = [e for e in events if e["type"] == "ToolCallFinished" and e["name"] == "list_dir"]
    assert ODD_NAME in finished[0]["result"]
