"""#23: an id a person can type: the start of the tail --list shows finds the session, as a short hash does."""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.session import store
from mrsmith_tui.session.session_ids import new_session_id
from mrsmith_tui.session.store import SessionNotFound, find_session, format_sessions, list_sessions


def _sessions(root, n: int) -> list[str]:
    ids = [new_session_id() for _ in range(n)]  # one minute: their starts are alike, their tails are not
    for i, sid in enumerate(ids):
        folder = root / sid
        folder.mkdir(parents=True)
        header = {"type": "TranscriptHeader", "format": 2, "session_id": sid, "created": 1000.0 + i, "cwd": "/w"}
        (folder / "transcript.jsonl").write_text(json.dumps(header) + "\n")
    return ids


def test_every_start_of_every_shown_tail_finds_its_session_or_says_it_is_ambiguous(tmp_path, monkeypatch):
    ids = _sessions(tmp_path, 300)
    shown = {row.split()[0]: row for row in format_sessions(list_sessions(tmp_path)).splitlines()[1:]}
    assert len(shown) == 300
    owner = {tail: next(i for i in ids if i.replace("-", "").endswith(tail)) for tail in shown}
    for tail, sid in owner.items():
        assert find_session(tmp_path, tail).id == sid  # the whole shown tail is always enough
    # The 2,000 look-ups of the table list the same 300 folders: listed once (as just above, each look-up
    # lists them afresh), the table costs the matching it tests, not 600,000 stats (25 s on a loaded machine).
    listed = store._transcripts(tmp_path)
    monkeypatch.setattr(store, "_transcripts", lambda root: list(listed) if root == tmp_path else [])
    found = ambiguous = 0
    for tail, sid in owner.items():
        for cut in range(4, len(tail) + 1):
            typed = tail[:cut]
            try:
                assert find_session(tmp_path, typed).id == sid
                found += 1
            except SessionNotFound as e:  # another session shares those few digits: said, never a wrong one
                assert "matches" in e.message and "give more of the id" in e.message
                ambiguous += 1
    assert found > 5 * ambiguous


@pytest.mark.parametrize("typed", ["01a2", "7000", "8000"])
def test_a_few_digits_of_the_time_or_version_never_pick_one_at_random(tmp_path, typed):
    ids = [f"01a2{n:04x}-0000-7000-8000-00000000{n:04x}" for n in range(3)]
    for i, sid in enumerate(ids):
        (tmp_path / sid).mkdir()
        (tmp_path / sid / "transcript.jsonl").write_text(json.dumps(
            {"type": "TranscriptHeader", "format": 2, "session_id": sid, "created": 1.0 + i, "cwd": "/w"}) + "\n")
    with pytest.raises(SessionNotFound) as e:
        find_session(tmp_path, typed)
    assert "matches 3 sessions" in e.value.message or "no session" in e.value.message


def test_the_start_of_the_shown_tail(tmp_path):
    sid = "01a2427f-5301-70d0-b83b-8055d086a159"
    (tmp_path / sid).mkdir()
    (tmp_path / sid / "transcript.jsonl").write_text(json.dumps(
        {"type": "TranscriptHeader", "format": 2, "session_id": sid, "created": 1.0, "cwd": "/w"}) + "\n")
    for typed in ("d086", "d086a1", "D086A159", "a159", "01a2427f", "01a2-427f"[:4]):
        assert find_session(tmp_path, typed).id == sid, typed
    for typed in ("086a", "5301", "d08"):  # inside the time part, or too short: not a typed tail
        with pytest.raises(SessionNotFound):
            find_session(tmp_path, typed)
