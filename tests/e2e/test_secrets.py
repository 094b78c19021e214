"""Secrets stay secret, end to end: the real CLI against the loopback server (a scripted model).

Each case checks every way out: the requests sent to the model, stdout, stderr, --json, the
transcript and an export.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from loopback import Turn, chunk, text_turn, tool_turn, usage_chunk

pytest.importorskip("mrsmith_tui.tools.builtin")

SECRET = "S3CRET-VALUE-9f8e7d6c"
KEY = "sk-UNIQUE-4b3c2d1e0f"


def everything(done, srv, cli) -> str:
    """Every byte that left the program: requests to the model, stdout, stderr, transcripts, exports."""
    exports = "".join(p.read_text() for p in cli.cwd.glob("mrsmith-*.md"))
    transcripts = "".join(p.read_text() for p in done.sessions.glob("*/*.jsonl"))
    return json.dumps(srv.requests) + done.out + done.err + transcripts + exports


def export_all(cli, done) -> None:
    for path in done.sessions.glob("*/transcript.jsonl"):
        exported = cli.run("export", str(path), "--force")  # again after each run: the same sessions' files
        assert exported.code == 0, exported.err


@pytest.fixture
def project(cli):
    (cli.cwd / ".env").write_text(f"API_TOKEN={SECRET}\n")
    (cli.cwd / "id_rsa").write_text(f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n")
    (cli.cwd / ".ssh").mkdir()
    (cli.cwd / ".ssh" / "id_ed25519").write_text(SECRET)
    (cli.cwd / "notes.txt").symlink_to(".env")
    (cli.cwd / "config").mkdir()
    (cli.cwd / "config" / "aws-credentials.json").write_text(json.dumps({"secret": SECRET}))
    return cli


READS = [
    ("read_file", {"path": ".env"}, "read_file:.env", "reads a secret: .env"),
    ("read_file", {"path": "./id_rsa"}, "read_file:id_rsa", "reads a secret: id_rsa"),
    ("read_file", {"path": ".ssh/id_ed25519"}, "read_file:.ssh/id_ed25519", "reads a secret"),
    ("read_file", {"path": "notes.txt"}, "read_file:.env", "reads a secret: .env"),
    ("read_file", {"path": "config/aws-credentials.json"}, "read_file:config/aws-credentials.json", "reads a secret"),
    ("list_dir", {"path": ".ssh"}, "list_dir:.ssh", "reads a secret: .ssh"),
    ("edit", {"path": ".env", "old": "nothing like this", "new": "x"}, "edit:.env", "reads a secret: .env"),
]


@pytest.mark.parametrize(("tool", "args", "spec", "why"), READS, ids=[f"{r[0]} {r[1]['path']}" for r in READS])
def test_a_secret_read_is_refused_headless_and_says_which_allow(project, loopback, tool, args, spec, why):
    srv = loopback([tool_turn(tool, args), text_turn("done")])
    done = project.using(srv.base_url).run("-p", "look around")
    assert done.code == 0, done.err
    export_all(project, done)
    assert SECRET not in everything(done, srv, project)
    assert f"not approved ({why}" in done.err
    assert f"rerun with --allow '{spec}' or --yes" in done.err
    assert "not approved" in srv.requests[1]["messages"][-1]["content"]


def test_the_allow_spec_named_in_the_refusal_allows_that_read_only(project, loopback):
    srv = loopback([tool_turn("read_file", {"path": ".env"}), tool_turn("read_file", {"path": "id_rsa"}, call_id="c2"),
                    text_turn("done")])
    done = project.using(srv.base_url).run("-p", "read them", "--allow", "read_file:.env")
    assert done.code == 0, done.err
    # approved: the read runs, but the values of the tree's secret files are known to the redactor (#21)
    assert "API_TOKEN=[redacted]" in srv.requests[1]["messages"][-1]["content"]
    assert SECRET not in everything(done, srv, project)
    assert "rerun with --allow 'read_file:id_rsa'" in done.err  # the next secret still asks
    assert SECRET not in srv.requests[2]["messages"][-1]["content"]


def test_glob_leaves_secret_looking_paths_out(project, loopback):
    (project.cwd / "main.py").write_text("print(1)\n")
    srv = loopback([tool_turn("glob", {"pattern": "**/*"}), text_turn("done")])
    done = project.using(srv.base_url).run("-p", "list")
    result = srv.requests[1]["messages"][-1]["content"]
    assert "main.py" in result and "notes.txt" in result
    assert ".env" not in result.split("[")[0] and "id_rsa" not in result and "aws-credentials" not in result
    assert "secret-looking paths" in result
    assert done.code == 0


def env_dump_turns():
    # /proc/$PPID/environ and `ps` show mrsmith's *initial* environment and command line: what
    # they print is redacted (the README says to prefer the config file or apiKeyCommand).
    command = ("env; printenv; cat /proc/self/environ | tr '\\0' '\\n'; echo ==PARENT==; "
               "cat /proc/$PPID/environ | tr '\\0' '\\n'; "
               "cat /proc/$PPID/cmdline | tr '\\0' ' '")
    return [tool_turn("shell", {"command": command}), text_turn("seen")]


def test_the_api_key_is_nowhere_even_under_yes(cli, loopback):
    """--api-key sk-UNIQUE with a model that runs `env`: the key is in no tool result, stdout,
    stderr, --json, transcript or export; only in the Authorization header."""
    srv = loopback(env_dump_turns())
    done = cli.using(srv.base_url, api_key="placeholder").run(
        "-p", "show env", "--yes", "--api-key", KEY, "--json",
        env={"MRSMITH_OPENAI_API_KEY": KEY, "GITHUB_TOKEN": "ghp_" + SECRET, "HARMLESS_SETTING": "visible-value"})
    assert done.code == 0, done.err
    export_all(cli, done)
    assert srv.headers[0]["Authorization"] == f"Bearer {KEY}"
    result = srv.requests[1]["messages"][-1]["content"]
    assert "HARMLESS_SETTING=visible-value" in result  # env did run, and printed the rest
    for gone in ("OPENAI_API_KEY", "MRSMITH_OPENAI_API_KEY", "GITHUB_TOKEN"):
        assert f"{gone}=" not in result.split("==PARENT==")[0]  # the child's own environment
    # the parent's: unreadable to a non-root child (mrsmith is non-dumpable), redacted for root
    assert ("MRSMITH_OPENAI_API_KEY=[redacted]" in result or "Permission denied" in result) and "--api-key [redacted]" in result
    out = everything(done, srv, cli)
    assert KEY not in out and SECRET not in out


def test_a_key_echoed_by_the_model_or_the_provider_is_redacted(cli, loopback):
    """The key cut across deltas of the answer, in the reasoning, in tool arguments, in a
    provider's error message: [redacted] everywhere."""
    pieces = ["your key is sk-UN", "IQUE-4b3", "c2d1e0f, ", "bye"]
    turns = [
        tool_turn("read_file", {"path": f"{KEY}.txt"}),
        Turn(events=[chunk(role="assistant", content=""), chunk(reasoning=f"the key {KEY[:5]}"), chunk(reasoning=KEY[5:]),
                     *[chunk(p) for p in pieces], chunk(finish="stop"), usage_chunk()]),
    ]
    srv = loopback(turns)
    for flags in ([], ["--json"]):
        done = cli.using(srv.base_url, api_key=KEY).run("-p", "hi", *flags)
        assert done.code == 0, done.err
        export_all(cli, done)
        assert KEY not in done.out + done.err
        assert KEY not in json.dumps(srv.requests)  # the echo is not sent back, nor the tool's error quoting it
        assert KEY not in "".join(p.read_text() for p in done.sessions.glob("*/*.jsonl"))
        assert KEY not in "".join(p.read_text() for p in cli.cwd.glob("mrsmith-*.md"))
    assert "your key is [redacted], bye" in cli.using(srv.base_url, api_key=KEY).run("-p", "again").out

    failing = loopback([Turn(status=401, body={"error": {"message": f"Incorrect API key provided: {KEY}"}})])
    done = cli.using(failing.base_url, api_key=KEY).run("-p", "hi")
    assert done.code == 1 and KEY not in done.out + done.err and "[redacted]" in done.err


def test_passthrough_lets_a_named_variable_reach_the_shell_but_not_the_output(cli, loopback, tmp_path):
    srv = loopback([tool_turn("shell", {"command": "test -n \"$GITHUB_TOKEN\" && echo has-token; echo $GITHUB_TOKEN"}),
                    text_turn("ok")])
    config = tmp_path / "config.toml"
    config.write_text(f"""
[[providers]]
name = "loop"
baseUrl = "{srv.base_url}"
apiKeyCommand = "echo {KEY}"

[[agents]]
name = "default"
provider = "loop"
model = "m"
tools = ["shell"]
shellEnvPassthrough = ["GITHUB_*"]
""")
    done = cli.run("--config", str(config), "-p", "check", "--yes", env={"GITHUB_TOKEN": "ghp_" + SECRET})
    assert done.code == 0, done.err
    assert srv.headers[0]["Authorization"] == f"Bearer {KEY}"  # apiKeyCommand
    result = srv.requests[1]["messages"][-1]["content"]
    assert "has-token" in result and "[redacted]" in result and SECRET not in result


def test_transcripts_are_private(cli, loopback):
    srv = loopback([text_turn("hello")])
    done = cli.using(srv.base_url).run("-p", "hi")
    (path,) = done.sessions.glob("*/transcript.jsonl")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(done.sessions.stat().st_mode) == 0o700
    exported = cli.run("export", str(path))
    assert stat.S_IMODE(os.stat(exported.out.strip()).st_mode) == 0o600


def test_web_fetch_asks_per_host_and_the_allow_spec_names_it(cli, loopback):
    srv = loopback([tool_turn("web_fetch", {"url": "LATER"}), text_turn("done")])
    url = srv.base_url + "/models"
    srv.turns[0] = tool_turn("web_fetch", {"url": url})
    done = cli.using(srv.base_url).run("-p", "fetch")
    assert done.code == 0, done.err
    assert "talks to a new host: 127.0.0.1 is a loopback address (127.0.0.1)" in done.err
    assert "rerun with --allow 'web_fetch:127.0.0.1@private' or --yes" in done.err
    assert "test-model" not in srv.requests[1]["messages"][-1]["content"]
    for broad in ("web_fetch", "web_fetch:127.0.0.1"):  # the host, or the tool, covers public answers only
        refused = loopback([tool_turn("web_fetch", {"url": url}), text_turn("done")])
        done = cli.using(refused.base_url).run("-p", "fetch", "--allow", broad)
        assert "not approved" in done.err and "test-model" not in refused.requests[1]["messages"][-1]["content"]
    allowed = loopback([tool_turn("web_fetch", {"url": url}), text_turn("done")])
    done = cli.using(allowed.base_url).run("-p", "fetch", "--allow", "web_fetch:127.0.0.1@private")
    assert done.code == 0, done.err
    assert "HTTP 200" in allowed.requests[1]["messages"][-1]["content"]


ROUNDABOUT = [
    ("read_file", "/proc/self/cwd/.env", "read_file:.env"),
    ("read_file", "/proc/thread-self/cwd/sub/.env.local", "read_file:sub/.env.local"),
    ("read_file", "ALIAS/.env", "read_file:.env"),
    ("list_dir", "/proc/self/cwd/.ssh", "list_dir:.ssh"),
]


@pytest.mark.parametrize(("tool", "path", "spec"), ROUNDABOUT, ids=[f"{t} {p}" for t, p, _ in ROUNDABOUT])
def test_an_absolute_path_back_into_the_project_still_asks(project, loopback, tmp_path, tool, path, spec):
    (project.cwd / "sub").mkdir()
    (project.cwd / "sub" / ".env.local").write_text(SECRET)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "alias").symlink_to(project.cwd)
    path = path.replace("ALIAS", str(tmp_path / "x" / "alias"))
    srv = loopback([tool_turn(tool, {"path": path}), text_turn("done")])
    done = project.using(srv.base_url).run("-p", "look around")
    assert done.code == 0, done.err
    assert SECRET not in everything(done, srv, project) and "id_ed25519" not in json.dumps(srv.requests)
    assert f"rerun with --allow '{spec}' or --yes" in done.err


WRITES = [
    ("write_file", {"path": ".env", "content": "X=1\n"}, ["--allow", "write_file"], "write_file:.env"),
    ("edit", {"path": ".env", "old": "API_TOKEN", "new": "TOKEN"}, ["--allow", "edit"], "edit:.env"),
]


@pytest.mark.parametrize(("tool", "args", "allow", "spec"), WRITES, ids=[w[0] for w in WRITES])
def test_a_bare_tool_allow_does_not_cover_a_secret(project, loopback, tool, args, allow, spec):
    srv = loopback([tool_turn(tool, args), text_turn("done")])
    done = project.using(srv.base_url).run("-p", "change it", *allow)
    assert done.code == 0, done.err
    assert SECRET not in everything(done, srv, project)
    assert f"rerun with --allow '{spec}' or --yes" in done.err
    assert SECRET in (project.cwd / ".env").read_text()  # untouched


@pytest.mark.parametrize(("tool", "args", "allow", "spec"), WRITES, ids=[w[0] for w in WRITES])
def test_an_allowed_change_of_a_secret_does_not_send_its_old_content(project, loopback, tool, args, allow, spec):
    srv = loopback([tool_turn(tool, args), text_turn("done")])
    done = project.using(srv.base_url).run("-p", "change it", "--allow", spec)
    assert done.code == 0, done.err
    export_all(project, done)
    assert SECRET not in everything(done, srv, project)
    result = srv.requests[1]["messages"][-1]["content"]
    assert "a secret file's content is not shown" in result and "1 removed" in result
    assert (project.cwd / ".env").read_text() != f"API_TOKEN={SECRET}\n"  # it was changed


def test_config_allow_of_a_bare_tool_does_not_cover_a_secret(project, loopback, tmp_path):
    srv = loopback([tool_turn("write_file", {"path": ".env", "content": "X=1\n"}), text_turn("done")])
    config = tmp_path / "config.toml"
    config.write_text(f'allow = ["write_file"]\n[[providers]]\nname = "p"\nbaseUrl = "{srv.base_url}"\napiKey = "sk-test"\n'
                      '[[agents]]\nname = "a"\nprovider = "p"\nmodel = "m"\n')
    done = project.using(srv.base_url).run("-p", "change it", "--config", str(config))
    assert done.code == 0, done.err
    assert "rerun with --allow 'write_file:.env' or --yes" in done.err
    assert SECRET in (project.cwd / ".env").read_text()


@pytest.mark.parametrize("target", ["outside", ".env", "config-with-key"])
def test_an_agents_md_link_to_a_secret_stays_out_of_the_system_prompt(cli, loopback, tmp_path, target):
    outside = tmp_path / "home" / ".ssh" / "id_rsa"
    outside.parent.mkdir(parents=True)
    outside.write_text(SECRET)
    (cli.cwd / ".env").write_text(SECRET)
    srv = loopback([text_turn("done")])
    if target == "config-with-key":  # a regular AGENTS.md that quotes the key is redacted
        (cli.cwd / "AGENTS.md").write_text(f"Use the key {KEY} and be kind.")
    else:
        (cli.cwd / "AGENTS.md").symlink_to(outside if target == "outside" else ".env")
    done = cli.using(srv.base_url, api_key=KEY).run("-p", "hi")
    assert done.code == 0, done.err
    system = srv.requests[0]["messages"][0]["content"]
    assert SECRET not in system and KEY not in json.dumps(srv.requests)
    if target == "config-with-key":
        assert "be kind" in system and "[redacted]" in system


def test_an_agents_md_link_inside_the_project_is_still_read(cli, loopback):
    (cli.cwd / "docs").mkdir()
    (cli.cwd / "docs" / "agents.md").write_text("Always write tests.")
    (cli.cwd / "AGENTS.md").symlink_to("docs/agents.md")
    srv = loopback([text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 0, done.err
    assert "Always write tests." in srv.requests[0]["messages"][0]["content"]


URL_PASSWORD = "PASSWORD-in-URL-777"


@pytest.mark.parametrize("form", ["userinfo", "query", "unreachable"])
def test_credentials_in_the_base_url_are_never_printed(cli, loopback, form):
    srv = loopback([text_turn(f"the url had {URL_PASSWORD}")])
    if form == "userinfo":
        base = srv.base_url.replace("http://", f"http://user:{URL_PASSWORD}@")
    elif form == "query":
        base = srv.base_url + f"?api_key={URL_PASSWORD}"
    else:
        base = f"http://user:{URL_PASSWORD}@127.0.0.1:1/v1"
    done = cli.using(base).run("-p", "hi", "--json")
    export_all(cli, done)
    transcripts = "".join(p.read_text() for p in done.sessions.glob("*/*.jsonl"))
    assert URL_PASSWORD not in done.out + done.err + transcripts + "".join(p.read_text() for p in cli.cwd.glob("*.md"))
    if form == "unreachable":
        assert done.code != 0 and "127.0.0.1:1/v1" in done.err and "user:" not in done.err
    else:
        assert done.code == 0, done.err


def test_passwords_in_env_names_and_urls_are_nowhere_and_paths_stay(cli, loopback, tmp_path):
    srv = loopback(env_dump_turns())
    secrets = {"DB_PASS": "dbpass-HUNTER2-zz", "SENTRY_DSN": "https://abcdefSECRETDSN@o1.ingest.example/1",
               "DATABASE_URL": "postgres://u:PGPASSWORD-XYZ@db/x", "SMTP_PASSWD": "smtp-PASSWD-1234"}
    done = cli.using(srv.base_url).run("-p", "show env", "--yes", "--json",
                                       env={**secrets, "PASSWORD_STORE_DIR": "/usr/bin", "SECRETS_DIR": str(tmp_path)})
    assert done.code == 0, done.err
    export_all(cli, done)
    out = everything(done, srv, cli)
    for value in ("dbpass-HUNTER2-zz", "abcdefSECRETDSN", "PGPASSWORD-XYZ", "smtp-PASSWD-1234"):
        assert value not in out
    child = srv.requests[1]["messages"][-1]["content"].split("==PARENT==")[0]
    assert "\nPATH=" in child and "/usr/bin" in child and "HOME=" in child  # not blanked by PASSWORD_STORE_DIR


def test_a_json_escaped_key_in_tool_arguments_is_redacted_too(cli, loopback):
    escaped = "\\u0073" + KEY[1:]  # "sk-…" with its first letter written as a JSON escape
    srv = loopback([tool_turn("read_file", '{"path": "' + escaped + '.txt"}'), text_turn("done")])
    done = cli.using(srv.base_url, api_key=KEY).run("-p", "hi", "--json")
    assert done.code == 0, done.err
    export_all(cli, done)
    (transcript,) = done.sessions.glob("*/transcript.jsonl")
    viewed = cli.run("view", str(transcript))
    for text in (done.out, done.err, transcript.read_text(), viewed.out + viewed.err,
                 "".join(p.read_text() for p in cli.cwd.glob("mrsmith-*.md"))):
        assert KEY not in text and KEY[1:] not in text


def test_a_key_under_an_innocent_name_is_known_by_its_format(cli, loopback):
    """DEPLOY_HELPER=ghp_… or NOTES=sk-proj-…: the name says nothing, the value is a key all the same;
    it stays out of the shell's environment and out of every output."""
    srv = loopback(env_dump_turns())
    secrets = {"DEPLOY_HELPER": "ghp_" + "Q" * 36, "NOTES": "sk-proj-" + "R" * 40, "CHAT": "xoxb-1234-5678-SLACKVALUE",
               "CLOUD_ID": "AKIA" + "Z" * 16, "SIGNER": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n"
                                                       "-----END OPENSSH PRIVATE KEY-----"}
    done = cli.using(srv.base_url).run("-p", "show env", "--yes", "--json", env={**secrets, "HARMLESS_SETTING": "visible-value"})
    assert done.code == 0, done.err
    export_all(cli, done)
    child = srv.requests[1]["messages"][-1]["content"].split("==PARENT==")[0]
    assert "HARMLESS_SETTING=visible-value" in child
    for name in secrets:
        assert f"{name}=" not in child
    out = everything(done, srv, cli)
    for value in ("Q" * 36, "R" * 40, "SLACKVALUE", "Z" * 16, "b3BlbnNzaC1rZXktdjEAAAA"):
        assert value not in out


@pytest.mark.parametrize("how", ["-f", "stdin", "prompt"])
def test_the_key_inside_an_attachment_or_piped_text_does_not_reach_the_model(cli, loopback, how):
    """`mrsmith -p x -f .env` where .env holds mrsmith's own key (or the same piped in): the file goes
    to the model, the key as [redacted], like a tool result that read it."""
    (cli.cwd / "cfg.txt").write_text(f"OPENAI_API_KEY={KEY}\nPLAIN=kept-line\nDB_PASS=dbpass-HUNTER2-zz\n")
    srv = loopback([text_turn("ok")])
    args = {"-f": ["-p", "look", "-f", "cfg.txt"], "stdin": ["-p", "look"], "prompt": ["-p", f"key {KEY} ok"]}[how]
    stdin = (cli.cwd / "cfg.txt").read_text() if how == "stdin" else None
    done = cli.using(srv.base_url).run(*args, "--api-key", KEY, "--json", input=stdin,
                                       env={"DB_PASS": "dbpass-HUNTER2-zz"})
    assert done.code == 0, done.err
    sent = json.dumps(srv.requests)
    assert ("kept-line" in sent) if how != "prompt" else ("[redacted] ok" in sent)
    assert KEY not in sent and "dbpass-HUNTER2-zz" not in sent
