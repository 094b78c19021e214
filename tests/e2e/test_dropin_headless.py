"""Drop-in tools through the real CLI against the scripted loopback model: called end to end, a broken
and a hanging one each reported in one line, a project tool only when trusted."""

from __future__ import annotations

import json
import os
from pathlib import Path

from loopback import text_turn, tool_turn

SHOUT = '''NAME = "shout"
DESCRIPTION = "Shout the text back in capitals."
PARAMETERS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def run(args):
    return args["text"].upper() + "!"
'''
HANG = '''NAME = "hang"
DESCRIPTION = "Never answers."
PARAMETERS = {"type": "object", "properties": {}}


def run(args):
    import time
    time.sleep(600)
'''


def user_tools() -> Path:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "mrsmith" / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def tool_message(request: dict) -> dict:
    return request["messages"][-1]


def test_a_user_tool_is_offered_and_called_end_to_end(cli, loopback):
    (user_tools() / "shout.py").write_text(SHOUT)
    srv = loopback([tool_turn("shout", {"text": "hello"}, call_id="c1"), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "shout hello", "--allow", "shout", "--json")
    assert done.code == 0, done.err
    offered = [t["function"] for t in srv.requests[0]["tools"] if t["function"]["name"] == "shout"]
    assert offered == [{"name": "shout", "description": "Shout the text back in capitals.",
                        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}]
    assert tool_message(srv.requests[1]) == {"role": "tool", "tool_call_id": "c1", "content": "HELLO!"}
    finished = [json.loads(line) for line in done.out.splitlines() if '"ToolCallFinished"' in line]
    assert finished[0]["name"] == "shout" and finished[0]["ok"] is True


def test_without_allow_a_drop_in_call_is_refused_headless(cli, loopback):
    (user_tools() / "shout.py").write_text(SHOUT)
    srv = loopback([tool_turn("shout", {"text": "hello"}, call_id="c1"), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "shout hello")
    assert done.code == 0, done.err
    assert "--allow 'shout'" in tool_message(srv.requests[1])["content"]


def test_a_broken_tool_is_one_warning_and_the_others_still_work(cli, loopback):
    folder = user_tools()
    (folder / "shout.py").write_text(SHOUT)
    (folder / "broken.py").write_text(SHOUT.replace('"shout"', "0x" + "f" * 4000))
    srv = loopback([tool_turn("shout", {"text": "x"}, call_id="c1"), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "go", "--allow", "shout")
    assert done.code == 0, done.err
    lines = [line for line in done.err_lines if "broken.py" in line]
    assert len(lines) == 1 and lines[0].startswith("warning: drop-in tool ~/.config/mrsmith/tools/broken.py not loaded") and "NAME must be a string" in lines[0]
    assert tool_message(srv.requests[1])["content"] == "X!"


def test_a_hanging_tool_is_stopped_at_its_timeout_in_one_line(cli, loopback):
    (user_tools() / "hang.py").write_text(HANG)
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "mrsmith" / "config.toml"
    srv = loopback([tool_turn("hang", {}, call_id="c1"), text_turn("done")])
    config.write_text(f'dropInToolTimeout = 1\n\n[[providers]]\nname = "local"\nbaseUrl = "{srv.base_url}"\napiKey = "sk-x"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "local"\nmodel = "m"\n')
    done = cli.using(srv.base_url).run("-p", "go", "--allow", "hang")
    assert done.code == 0, done.err
    content = tool_message(srv.requests[1])["content"]
    assert content.splitlines()[0].startswith("Error: drop-in tool hang timed out after 1 s (dropInToolTimeout): its process group (")


def test_a_project_tool_loads_only_when_trusted(cli, loopback):
    folder = cli.cwd / ".mrsmith" / "tools"
    folder.mkdir(parents=True)
    (folder / "shout.py").write_text(SHOUT)
    srv = loopback([text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 0, done.err
    assert "shout" not in [t["function"]["name"] for t in srv.requests[0]["tools"]]
    assert [line for line in done.err_lines if "shout.py" in line] == [
        'warning: project tool .mrsmith/tools/shout.py not loaded: not trusted in this folder; rerun with '
        '--trust-project-tools, or start mrsmith here and answer "always"']
    srv2 = loopback([tool_turn("shout", {"text": "p"}, call_id="c1"), text_turn("done")])
    done = cli.using(srv2.base_url).run("-p", "hi", "--trust-project-tools", "--allow", "shout")
    assert done.code == 0, done.err
    assert tool_message(srv2.requests[1])["content"] == "P!"
