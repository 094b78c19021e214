"""Adversary (#25, `!command`): the note saying how much of a long output was cut was itself cut. The shell
tool keeps the start and end of stdout (and of stderr) with `[... N characters cut from the middle of
TOTAL ...]` between them; `!command` then cut the result again to the same size, and that second cut fell
on the first note: `!yes | head -c 200000000` said "79 characters cut from the middle of 50079". The
person and the model must be told the true size of what was cut."""

from __future__ import annotations

import pytest

from loopback import text_turn

SIZES = [50_001, 60_000, 100_000, 1_000_000, 5_000_000]
ROWS = [(out, err) for out in SIZES for err in (0, 70_000)]


@pytest.mark.parametrize(("out", "err"), ROWS)
def test_the_cut_note_names_the_true_total(cli, loopback, out, err):
    srv = loopback([text_turn("never")])
    command = f"!yes y | tr -d '\\n' | head -c {out}" + (f"; yes e | tr -d '\\n' | head -c {err} >&2" if err else "")
    done = cli.using(srv.base_url).run("-p", command)
    assert done.code == 0, done.err
    assert f"characters cut from the middle of {out} ...]" in done.out, done.out[-400:]
    if err:
        assert f"characters cut from the middle of {err} ...]" in done.out
    assert "cut from the middle of 5" not in done.out.replace(f"of {out} ", "").replace(f"of {err} ", "")
    assert len(done.out) < 2 * 50_000 + 2_000 and not srv.requests
