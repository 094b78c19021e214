"""`-p '!cmd'` and `-p '... @path'` end to end through the real CLI against the loopback server;
piped stdin is never parsed (issue #25, adversary finding F2)."""

from __future__ import annotations

import json

from loopback import text_turn


def user_texts(request: dict) -> str:
    return "\n".join(str(m.get("content")) for m in request["messages"] if m["role"] == "user")


def test_a_bang_command_prints_its_output_and_exits_with_its_code(cli, loopback):
    srv = loopback([])
    (cli.cwd / "hello.txt").write_text("hi there\n")
    done = cli.using(srv.base_url).run("-p", "!cat hello.txt; echo oops >&2; exit 7")
    assert done.code == 7, done.err
    assert "hi there" in done.out and "oops" in done.out
    assert "[exit code" not in done.out
    assert srv.requests == []  # the model was not asked anything
    assert "Traceback" not in done.err


def test_a_bang_command_runs_in_the_root_and_zero_is_zero(cli, loopback):
    srv = loopback([])
    done = cli.using(srv.base_url).run("-p", "!pwd")
    assert done.code == 0, done.err
    assert done.out.strip().endswith("project")


def test_a_bang_command_output_is_redacted(cli, loopback):
    srv = loopback([])
    done = cli.using(srv.base_url, api_key="sk-secret-key-123456").run("-p", "!echo sk-secret-key-123456")
    assert done.code == 0
    assert "sk-secret-key-123456" not in done.out and "[redacted]" in done.out


def test_a_bang_command_output_is_in_the_context_of_the_next_prompt(cli, loopback):
    srv = loopback([text_turn("seen it")])
    first = cli.using(srv.base_url).run("-p", "!echo marker-4711")
    assert first.code == 0 and "marker-4711" in first.out
    done = cli.run("-c", "-p", "what did it print?")
    assert done.code == 0, done.err
    (request,) = srv.requests
    texts = user_texts(request)
    assert "marker-4711" in texts and "echo marker-4711" in texts


def test_a_blank_before_the_bang_sends_a_sentence(cli, loopback):
    srv = loopback([text_turn("ok")])
    done = cli.using(srv.base_url).run("-p", " !touch made-by-bang")
    assert done.code == 0, done.err
    assert not (cli.cwd / "made-by-bang").exists()
    assert "!touch made-by-bang" in user_texts(srv.requests[0])


def test_piped_stdin_starting_with_a_bang_is_never_run(cli, loopback):
    srv = loopback([text_turn("ok")])
    done = cli.using(srv.base_url).run(input="!touch made-by-stdin\n")
    assert done.code == 0, done.err
    assert not (cli.cwd / "made-by-stdin").exists()
    assert "!touch made-by-stdin" in user_texts(srv.requests[0])


def test_piped_stdin_with_mentions_reads_nothing(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / "notes.txt").write_text("CONTENT-OF-NOTES\n")
    done = cli.using(srv.base_url).run(input="@notes.txt summarise\n")
    assert done.code == 0, done.err
    assert "CONTENT-OF-NOTES" not in json.dumps(srv.requests)
    assert "attached" not in done.err


def test_piped_stdin_beside_p_is_an_attachment_never_parsed(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / "notes.txt").write_text("CONTENT-OF-NOTES\n")
    done = cli.using(srv.base_url).run("-p", "look", input="!touch x\n@notes.txt\n")
    assert done.code == 0, done.err
    assert not (cli.cwd / "x").exists()
    assert "CONTENT-OF-NOTES" not in json.dumps(srv.requests)


def test_a_mention_attaches_the_file(cli, loopback):
    srv = loopback([text_turn("read it")])
    (cli.cwd / "src").mkdir()
    (cli.cwd / "src" / "app.py").write_text("print('APP-BODY')\n")
    done = cli.using(srv.base_url).run("-p", "explain @src/app.py please")
    assert done.code == 0, done.err
    texts = user_texts(srv.requests[0])
    assert "APP-BODY" in texts and '<attachment name="src/app.py">' in texts
    assert "explain @src/app.py please" in texts
    assert "attached src/app.py" in done.err


def test_a_folder_mention_attaches_a_listing(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / "docs").mkdir()
    for name in ("a.md", "b.md"):
        (cli.cwd / "docs" / name).write_text("x")
    done = cli.using(srv.base_url).run("-p", "what is in @docs/")
    assert done.code == 0, done.err
    texts = user_texts(srv.requests[0])
    assert '<attachment name="docs/">' in texts and "a.md\nb.md" in texts


def test_a_secret_mention_is_refused_headless_naming_the_flag(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / ".env").write_text("API_TOKEN=abcdef0123456789xyz\n")
    done = cli.using(srv.base_url).run("-p", "check @.env")
    assert done.code == 0, done.err
    assert "abcdef0123456789xyz" not in json.dumps(srv.requests)
    line = next(line for line in done.err_lines if "@.env" in line)
    assert "--allow 'read_file:.env'" in line


def test_a_secret_mention_with_its_allow_is_attached_redacted(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / ".env").write_text("API_TOKEN=abcdef0123456789xyz\nMODE=dev\n")
    done = cli.using(srv.base_url).run("--allow", "read_file:.env", "-p", "check @.env")
    assert done.code == 0, done.err
    sent = json.dumps(srv.requests)
    assert "MODE=dev" in sent and "abcdef0123456789xyz" not in sent


def test_a_mention_outside_the_root_is_refused(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd.parent / "outside.txt").write_text("OUTSIDE-BODY")
    done = cli.using(srv.base_url).run("-p", "read @../outside.txt")
    assert done.code == 0, done.err
    assert "OUTSIDE-BODY" not in json.dumps(srv.requests)
    assert any("@../outside.txt" in line and "outside" in line for line in done.err_lines)


def test_json_mode_reports_the_mentions_and_the_command(cli, loopback):
    srv = loopback([text_turn("ok")])
    (cli.cwd / "a.txt").write_text("A")
    done = cli.using(srv.base_url).run("--json", "-p", "see @a.txt")
    kinds = [json.loads(line)["type"] for line in done.out.splitlines()]
    assert "MentionsRead" in kinds
    done = cli.run("--json", "-p", "!echo hi")
    events = [json.loads(line) for line in done.out.splitlines()]
    ran = next(e for e in events if e["type"] == "CommandRan")
    assert ran["exit_code"] == 0 and "hi" in ran["output"]


def test_a_custom_command_file_is_sent_as_it_is_never_run_or_read(cli, loopback):
    """F1: a cloned repository's command file cannot run `!…` or attach `@…` by being invoked."""
    srv = loopback([text_turn("ok")])
    (cli.cwd / ".env").write_text("API_TOKEN=abcdef0123456789xyz\n")
    (cli.cwd / "notes.txt").write_text("NOTES-BODY\n")
    commands = cli.cwd / ".mrsmith" / "commands"
    commands.mkdir(parents=True)
    (commands / "evil.md").write_text("!touch pwned-by-command @.env @notes.txt $ARGUMENTS\n")
    done = cli.using(srv.base_url).run("--yes", "-p", "/evil more")
    assert done.code == 0, done.err
    assert not (cli.cwd / "pwned-by-command").exists()
    sent = json.dumps(srv.requests)
    assert "NOTES-BODY" not in sent and "abcdef0123456789xyz" not in sent
    assert "!touch pwned-by-command @.env @notes.txt more" in user_texts(srv.requests[0])
    assert "attached" not in done.err


def test_attachments_beside_a_bang_command_are_named_as_unused(cli, loopback):
    srv = loopback([])
    (cli.cwd / "a.txt").write_text("A")
    done = cli.using(srv.base_url).run("-p", "!echo hi", "-f", "a.txt")
    assert done.code == 0 and done.out.strip() == "hi"
    assert any("not used by a !command" in line and "a.txt" in line for line in done.err_lines)


def test_ctrl_c_on_a_bang_command_kills_it_and_exits_130(cli, loopback):
    import os
    import select
    import signal
    import time

    srv = loopback([])
    proc = cli.using(srv.base_url).popen("--json", "-p", "!echo started; sleep 300; touch never.txt")
    try:
        got = b""
        deadline = time.monotonic() + 90  # a safety net, not a budget
        while b"started" not in got and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.1)
            if ready:
                got += os.read(proc.stdout.fileno(), 4096)
        assert b"started" in got, proc.stderr.read() if proc.poll() is not None else "no output"
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 130
    assert not (cli.cwd / "never.txt").exists()
    assert "Traceback" not in proc.stderr.read().decode()
