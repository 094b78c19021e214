"""F1/F3/F4: hostile tool files, a wide generated table. Each is one warning line naming it; the good tool
still loads; nothing raises, nothing blocks, and discovery stays bounded."""

from __future__ import annotations

import ast
import os

import pytest

from tests.tools.dropin.helpers import GOOD, Approver

GOOD_PARAMS = '{"type": "object", "properties": {}}'
BAD_NAMES = [
    "0x" + "f" * 4000, "1" * 5000, '""', '"a b"', '"mcp__srv__x"', '"x__y"', "None", "[1]", '"A" * 3', '"' + "a" * 49 + '"',
    '"é"', '"shell"', '"a\\x1b[31m"', '"\\ud800"', "f'x'", "0.5", '"1abc"', '"a;b"', '"a/b"', 'b"bytes"',
]
BAD_PARAMS = [
    '{"type": {"a": 1}}', '{"type": "object", "properties": {"a": {"type": {"a": 1}}}}',
    '{"type": "object", "properties": [1]}', "{1: 2}", '{"type": "object", "x": {1, 2}}',
    "{" + '"a": {' * 400 + "}" * 401, '{"type": "object", "required": "a"}',
    '{"type": "object", "properties": {"a": {"type": "strin"}}}', '{"type": "object", "n": float("nan")}',
    '{"type": "object", "items": 5}', '"a string"', "[" * 150 + "]" * 150, '{"type": "object", "enum": 5}',
    '{"type": "object", "additionalProperties": 3}', '{"type": "object", "big": ' + "0x" + "f" * 4000 + "}",
    '{"type": "object", "properties": {"a": {"type": []}}}', "dict(type='object')", '{"type": "object", 5: 1}',
    '{"type": "object", "x": ' + '"' + "y" * 17000 + '"}', '{"type": "object", "x": b"bytes"}',
]
BAD_RUNS = ["", "async def run(args):\n    return ''\n", "def run():\n    return ''\n", "run = 5\n",
            "def run(*, args):\n    return ''\n", "class run:\n    pass\n"]


def source(name: str = '"hostile"', params: str = GOOD_PARAMS, run: str = "def run(args):\n    return ''\n",
           description: str = '"A tool."') -> str:
    return f"NAME = {name}\nDESCRIPTION = {description}\nPARAMETERS = {params}\n\n{run}"


RAW: list[tuple[str, bytes]] = [
    ("syntax", source().encode() + b"\ndef (:\n"),
    ("not-utf8", source().encode() + b"\n# \xff\xfe\xfa\n"),
    ("nul", source().encode() + b"\0"),
    ("too-big", source().encode() + b"#" * (65 * 1024)),
    ("deep-unary", source().encode() + b"\nx = " + b"-" * 60000 + b"1\n"),
    ("deep-plus", source().encode() + b"\nx = " + b"+".join([b"1"] * 30000) + b"\n"),
    ("deep-attr", source().encode() + b"\nx = a" + b".b" * 30000 + b"\n"),
    ("deep-parens", source().encode() + b"\nx = " + b"(" * 1000 + b"1" + b")" * 1000 + b"\n"),
    ("deep-lambda", source().encode() + b"\nx = " + b"lambda:" * 9000 + b"1\n"),
    ("empty", b""),
    ("markers-in-a-string", b'x = """\nNAME = "a"\nDESCRIPTION = "b"\nPARAMETERS = {}\ndef run(a):\n"""\n'),
    ("no-markers", b"print('hello')\n"),
    ("description-empty", source(description='""').encode()),
    ("description-long", source(description='"' + "d" * 3000 + '"').encode()),
    ("description-not-str", source(description="5").encode()),
    ("description-huge-int", source(description="0x" + "f" * 4000).encode()),
    ("indent-error", source().encode() + b"\n  x = 1\n"),
    ("tabs-mixed", source().encode() + b"\nif 1:\n\tx = 1\n        y = 2\n"),
    ("bom-then-junk", b"\xef\xbb\xbf" + source().encode() + b"\n)\n"),
    ("name-assigned-call", source(name="str('x')").encode()),
    ("only-name", b'NAME = "x"\n'),
    ("null-in-name", source(name='"a\\x00b"').encode()),
    ("newline-in-name", source(name='"a\\nb"').encode()),
]
CASES = ([(f"name-{i}", source(name=n).encode()) for i, n in enumerate(BAD_NAMES)]
         + [(f"params-{i}", source(params=p).encode()) for i, p in enumerate(BAD_PARAMS)]
         + [(f"run-{i}", source(run=r).encode()) for i, r in enumerate(BAD_RUNS)]
         + [(f"name-{i}-params-{j}", source(name=n, params=p).encode())
            for i, n in enumerate(BAD_NAMES) for j, p in enumerate(BAD_PARAMS) if (i + j) % 2 == 0]
         + RAW)


def test_the_table_is_wide():
    assert len(CASES) >= 250


@pytest.mark.parametrize(("label", "data"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_user_file_is_one_warning_and_the_rest_still_load(env, label, data):
    env.user_tool("a_good.py", GOOD)
    env.user_tool(f"z_{label}.py", data)
    names = [t.name for t in env.service().current_tools()]
    warnings = env.warnings()
    assert names == ["shout"], warnings
    assert len(warnings) == 1, warnings
    assert f"z_{label}.py" in warnings[0] and "\n" not in warnings[0] and len(warnings[0]) < 600


@pytest.mark.parametrize(("label", "data"), CASES[::7], ids=[c[0] for c in CASES[::7]])
def test_a_hostile_project_file_trusted_with_yes_is_one_warning_too(env, label, data):
    env.project_tool("a_good.py", GOOD)
    (env.project / f"z_{label}.py").write_bytes(data)
    assert [t.name for t in env.service(mode="yes").current_tools()] == ["shout"]
    assert len(env.warnings()) == 1 and f"z_{label}.py" in env.warnings()[0]


def test_links_fifos_and_folders_are_one_warning_each_and_never_block(env, tmp_path):
    env.user_tool("a_good.py", GOOD)
    outside = tmp_path / "outside.py"
    outside.write_text(GOOD.replace('"shout"', '"other"'))
    (env.user / "link.py").symlink_to(outside)
    os.mkfifo(env.user / "fifo.py")
    (env.user / "folder.py").mkdir()
    assert [t.name for t in env.service().current_tools()] == ["shout"]
    warnings = sorted(env.warnings())
    assert len(warnings) == 3
    assert "fifo.py: not a regular file" in warnings[0]
    assert "folder.py: not a regular file" in warnings[1]
    assert "link.py: a link, not read" in warnings[2]


def test_a_linked_project_tools_folder_is_not_followed(env, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "shout.py").write_text(GOOD)
    (env.root / ".mrsmith").mkdir()
    (env.root / ".mrsmith" / "tools").symlink_to(elsewhere)
    assert env.service(mode="yes").current_tools() == []
    assert env.warnings() == [f"drop-in tools: {env.root}/.mrsmith/tools: not a folder of its own (a link or a file)"]


def _parses(monkeypatch) -> list:
    seen: list = []
    real = ast.parse

    def counting(*a, **kw):
        seen.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(ast, "parse", counting)
    return seen


def test_a_hundred_large_untrusted_project_files_cost_no_parse(env, monkeypatch):
    big = source().encode() + b"\n" + b"x = 1\n" * 10_000
    assert 60_000 < len(big) <= 64 * 1024
    env.project.mkdir(parents=True)
    for i in range(100):
        (env.project / f"t{i:03}.py").write_bytes(big)
    parses = _parses(monkeypatch)
    assert env.service(mode="stored").current_tools() == []
    assert parses == []
    warnings = env.warnings()
    assert len(warnings) == 3  # more than MAX_FILES; the byte budget; the untrusted ones, in one line
    assert "only the first 64" in warnings[0] and "left out" in warnings[1] and "not trusted in this folder" in warnings[2]


def test_a_hundred_large_user_files_are_parsed_within_the_budget(env, monkeypatch):
    for i in range(100):
        env.user_tool(f"t{i:03}.py", source(name=f'"t{i:03}"').encode() + b"\n" + b"x = 1\n" * 10_000)
    parses = _parses(monkeypatch)
    tools = env.service().current_tools()
    assert 0 < len(tools) == len(parses) <= 9  # 512 KiB of ~60 KiB files (and the one that passed it), no more
    assert any("left out" in w for w in env.warnings())


@pytest.mark.parametrize(("label", "data"), CASES[::5], ids=[c[0] for c in CASES[::5]])
def test_a_hostile_project_file_is_one_warning_and_never_a_question(env, label, data):
    import threading

    env.project_tool("a_good.py", GOOD)
    (env.project / f"z_{label}.py").write_bytes(data)
    asker = Approver("yes", "yes")
    box: list = []
    worker = threading.Thread(target=lambda: box.append(env.service(mode="ask", approver=asker).current_tools()))
    worker.start()
    worker.join(90)
    assert [t.name for t in box[0]] == ["shout"]
    assert [q.tool for q in asker.queries] == ["project tool .mrsmith/tools/a_good.py"]
    assert len(env.warnings()) == 1 and f"z_{label}.py" in env.warnings()[0] and "\n" not in env.warnings()[0]
