"""Adversary (#25): stdin had no bound. `-f FILE` refuses more than 1 MiB, but a prompt or attachment piped
on stdin was read whole: `mrsmith -p x < /dev/zero` (or `yes | mrsmith`) grew without end and never
answered, and a 2 GB log piped in was held in memory before anything said no. Now stdin is read up to the
same limit as -f and more is one line, exit 2, before any request."""

from __future__ import annotations

import subprocess

import pytest

from loopback import text_turn
from mrsmith_tui.cli.command import MAX_ATTACHMENT_BYTES

SIZES = [1, MAX_ATTACHMENT_BYTES - 1, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENT_BYTES + 1, 3 * MAX_ATTACHMENT_BYTES]
ROWS = [(size, with_p) for size in SIZES for with_p in (True, False)]


@pytest.mark.parametrize(("size", "with_p"), ROWS)
def test_piped_stdin_is_bounded_like_a_file(cli, loopback, size, with_p):
    srv = loopback([text_turn("ok")])
    argv = ("-p", "summarise it") if with_p else ()
    done = cli.using(srv.base_url).run(*argv, input="y" * size)
    if size <= MAX_ATTACHMENT_BYTES:
        assert done.code == 0, done.err
        assert len(srv.requests) == 1
    else:
        assert done.code == 2 and not srv.requests
        assert done.err_lines == [f"mrsmith: error: stdin: more than the {MAX_ATTACHMENT_BYTES} byte limit "
                                  "(as for -f FILE); pipe a part of it (tail -c 1M)"]


@pytest.mark.parametrize("with_p", [True, False])
def test_an_endless_stdin_is_refused_not_read_forever(cli, loopback, with_p):
    srv = loopback([text_turn("never")])
    cli.using(srv.base_url)
    argv = ("-p", "x") if with_p else ()
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(cli.args(*argv), stdin=zero, capture_output=True, text=True, cwd=cli.cwd,
                              env=cli.env, timeout=90)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    if with_p:  # /dev/zero is no pipe: with -p it is not read at all
        assert proc.returncode == 0 and len(srv.requests) == 1, proc.stderr
    else:
        assert proc.returncode == 2 and not srv.requests
        assert lines[-1].startswith("mrsmith: error: stdin: more than the")


def test_an_endless_pipe_with_p_is_refused(cli, loopback):
    srv = loopback([text_turn("never")])
    cli.using(srv.base_url)
    producer = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        proc = subprocess.run(cli.args("-p", "x"), stdin=producer.stdout, capture_output=True, text=True,
                              cwd=cli.cwd, env=cli.env, timeout=90)
    finally:
        producer.kill()
        producer.wait()
    assert proc.returncode == 2 and not srv.requests
    assert proc.stderr.strip().splitlines()[-1].startswith("mrsmith: error: stdin: more than the")
