"""The crash-safe journal: exact reopening, damaged lines, a real SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap

import chess
import pytest

from blindchess.base import paths
from blindchess.base.errors import UserError
from blindchess.game import Player, Session
from blindchess.storage import journal
from tests.support.paths import REPO

M = chess.Move.from_uci


def play_some(s: Session) -> None:
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.press_clock(chess.WHITE, 11.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 12.0)
    s.touch(chess.G8, 13.0)
    s.board_move("tactile", chess.Move.from_uci("g8f6"), 20.0)
    s.announce(M("g8f6"), "Springer Felix sechs", 21.0)
    s.press_clock(chess.BLACK, 22.0)
    s.board_move("sighted", chess.Move.from_uci("g8f6"), 23.0)
    s.write("blind", "e4", 24.0)
    s.write("blind", "Sf6", 24.5)
    s.write("sighted", "e4", 25.0)


def state(s: Session, now: float) -> tuple:
    return (s.board("sighted").fen(), s.board("tactile").fen(), s.snapshot.game_moves, s.snapshot.score("blind"),
            s.snapshot.score("sighted"),
            round(s.clock.remaining(chess.WHITE, now), 6), round(s.clock.remaining(chess.BLACK, now), 6),
            s.clock.running, len(s.snapshot.touches))


def test_reopen_restores_boards_scores_and_clocks_exactly(tmp_path):
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "40/5400+30:1800+30", journal=path, now=0.0)
    play_some(s)
    before = state(s, 25.0)
    s.close()
    # Reopened an hour later: the closed time is not counted by default.
    again = Session.open(path, now=3625.0)
    assert state(again, 3625.0) == before
    assert again.events[-1].TYPE == "reopened" and not again.events[-1].counted
    # The arbiter may decide the closed time counts.
    again.close()
    counted = Session.open(path, now=3625.0 + 100, count_closed_time=True)
    w = counted.clock.remaining(chess.WHITE, 3725.0)
    assert w == pytest.approx(before[5] - 100.0, abs=1e-6)  # the 100 s closed since the last reopening


def test_every_line_is_json_with_seq_type_time(tmp_path):
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0)
    play_some(s)
    s.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    events = [json.loads(x) for x in lines]
    assert events[0]["type"] == "session-start"
    assert all({"seq", "type", "t"} <= set(e) for e in events)
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)


def test_truncated_last_line_is_reported_and_the_rest_recovered(tmp_path):
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("A"), Player("B", True), "90+30", journal=path, now=0.0)
    play_some(s)
    before = state(s, 25.0)
    s.close()
    with path.open("ab") as f:
        f.write(b'{"seq": 999, "type": "board-move", "board": "sigh')  # cut off by a crash
    read = journal.read_journal(path)
    assert read.problems == [(len(path.read_bytes().split(b"\n")), "truncated")]
    again = Session.open(path)
    assert state(again, 25.0)[:5] == before[:5]
    assert again.snapshot.journal_problems and again.snapshot.journal_problems[0][1] == "truncated"
    damaged = [e for e in again.events if e.TYPE == "journal-damaged"]
    assert damaged and damaged[0].lines == (read.problems[0][0],)
    # Writing goes on after the damaged line without merging into it.
    again.board_move("sighted", chess.Move.from_uci("d2d4"), 30.0)
    again.close()
    third = Session.open(path)
    assert third.snapshot.moves("sighted")[-1] == M("d2d4")


def test_corrupt_line_in_the_middle_is_skipped(tmp_path):
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.close()
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b"\x00\xffgarbage")
    path.write_bytes(b"\n".join(lines))
    again = Session.open(path)
    assert list(again.snapshot.game_moves) == [M("e2e4")]
    assert list(again.snapshot.journal_problems) == [(3, "corrupt")]


def test_not_a_journal_is_a_user_error(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(UserError):
        Session.open(bad)
    with pytest.raises(UserError):
        Session.open(tmp_path / "missing.jsonl")


def test_journal_folder_listing_and_last_unfinished():
    finished = Session.new(Player("A"), Player("B", True), None, journal=True, now=0.0)
    finished.resign(chess.BLACK, 1.0)
    finished.close()
    open_game = Session.new(Player("Cleo"), Player("Dan", True), None, journal=True, now=0.0)
    open_game.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    open_game.close()
    assert open_game.snapshot.journal_path.parent == paths.journal_dir()
    infos = journal.list_journals()
    assert {i.finished for i in infos} == {True, False}
    assert journal.last_unfinished() == open_game.snapshot.journal_path
    info = next(i for i in infos if i.path == open_game.snapshot.journal_path)
    assert (info.white, info.black, info.plies) == ("Cleo", "Dan", 1)


def test_new_refuses_to_overwrite_a_journal(tmp_path):
    path = tmp_path / "g.jsonl"
    Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0).close()
    with pytest.raises(FileExistsError):
        Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0)


CHILD = textwrap.dedent("""
    import sys
    import chess
    from blindchess.game import Player, Session

    path = sys.argv[1]
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    seen = len(s.events)

    def ack():
        global seen
        for e in s.events[seen:]:
            print("ACK", e.seq, e.TYPE, flush=True)
        seen = len(s.events)

    ack()
    s.start_clock(0.0); ack()
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
             "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5"]
    t = 0.0
    for i, uci in enumerate(moves):
        t += 1.0
        if i % 2 == 0:
            s.board_move("sighted", chess.Move.from_uci(uci), t); ack()
            s.press_clock(chess.WHITE, t + 0.1); ack()
            s.board_move("tactile", chess.Move.from_uci(uci), t + 0.2); ack()
            s.write("sighted", getattr(s.events[-1], "san", uci), t + 0.3); ack()
        else:
            s.touch(chess.parse_square(uci[:2]), t); ack()
            s.board_move("tactile", chess.Move.from_uci(uci), t + 0.1); ack()
            s.announce(chess.Move.from_uci(uci), uci, t + 0.2); ack()
            s.press_clock(chess.BLACK, t + 0.3); ack()
            s.board_move("sighted", chess.Move.from_uci(uci), t + 0.4); ack()
            s.write("blind", uci, t + 0.5); ack()
    print("DONE", flush=True)
""")


def test_crash_with_sigkill_loses_nothing_acknowledged(tmp_path):
    """A real subprocess is killed at random points; every acknowledged event is recovered."""
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    rng = random.Random(4)
    kills = 0
    for round_ in range(5):
        path = tmp_path / f"crash{round_}.jsonl"
        proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True, env=env)
        stop_after = rng.randint(3, 150)
        acked: dict[int, str] = {}
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACK"):
                _, seq, kind = line.split()
                acked[int(seq)] = kind
                if len(acked) >= stop_after:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                    break
            elif line.startswith("DONE"):
                break
        proc.wait(timeout=30)
        recovered = Session.load(path)
        by_seq = {e.seq: e.TYPE for e in recovered.events}
        missing = {seq: kind for seq, kind in acked.items() if by_seq.get(seq) != kind}
        assert not missing, f"round {round_}: lost {missing}"
        # Whatever was acknowledged as made is on the recovered boards.
        made = [s for s, k in acked.items() if k == "move-made"]
        assert len(recovered.snapshot.game_moves) >= len(made)
    assert kills >= 4


def test_a_hand_edited_line_that_does_not_fit_is_reported_and_skipped(tmp_path):
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.close()
    writer = journal.JournalWriter(path)   # a well-formed, checked line that does not fit the game
    writer.append({"seq": 50, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "e2e5", "role": "own"})
    writer.close()
    again = Session.load(path)
    assert list(again.snapshot.game_moves) == [M("e2e4")]
    line = len(path.read_text().splitlines())
    assert list(again.snapshot.journal_problems) == [(line, "inapplicable")]


def test_journal_show_json_keeps_a_sealed_move_hidden_until_opened(tmp_path, capsys):
    from blindchess.cli import main
    from blindchess.laws.adjournment import commitment

    path = tmp_path / "adjourned.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.adjourn(5.0)
    fen = s.game_board().fen()
    s.seal({"white": "Anna", "black": "Bert", "position": fen, "commitment": commitment(fen, "Sf3", "x")},
           {"written": "Sf3", "nonce": "x"}, 10.0)
    s.close()
    assert "Sf3" not in path.read_text(encoding="utf-8")  # kept in the envelope beside the journal, never in it
    assert main(["journal", "show", str(path), "--json"]) == 0
    assert "Sf3" not in capsys.readouterr().out
    assert main(["journal", "show", str(path)]) == 0
    assert "Sf3" not in capsys.readouterr().out
    again = Session.open(path, 20.0)
    again.open_envelope(20.0)
    again.close()
    assert main(["journal", "show", str(path), "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    opened = next(e for e in events if e["type"] == "envelope-opened")
    assert opened["hidden"]["written"] == "Sf3"


@pytest.mark.parametrize("field, value", [("t", "zz99"), ("t", ""), ("t", None), ("seq", "a"), ("type", 5),
                                          ("text", -1), ("start_fen", 1e308)])
def test_a_line_with_a_damaged_field_is_reported_never_a_crash(tmp_path, capsys, field, value):
    # such lines ended "journal show" in "Interner Fehler: ValueError/TypeError/AttributeError"
    from blindchess.cli import main
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("A"), Player("B", True), None, journal=path, now=0.0)
    play_some(s)
    s.close()
    # An old (unchecked) journal edited by hand: in a checked one any edit is a failed CRC.
    lines = [{k: v for k, v in json.loads(line).items() if k not in journal.RESERVED_FIELDS}
             for line in path.read_text(encoding="utf-8").splitlines()]
    wanted = "session-start" if field == "start_fen" else "score"
    target = next(i for i, ev in enumerate(lines) if field in ev and ev["type"] == wanted)
    lines[target][field] = value
    path.write_text("".join(json.dumps(ev) + "\n" for ev in lines), encoding="utf-8")
    if field == "start_fen":
        with pytest.raises(UserError):
            Session.load(path)
    else:
        loaded = Session.load(path)
        # the damaged line first; a later line that depended on it is reported as inapplicable
        assert loaded.snapshot.journal_problems[0][0] == target + 1
        assert all(reason == "inapplicable" for _, reason in loaded.snapshot.journal_problems[1:])
    expected = 2 if field == "start_fen" else 1    # no game at all / a damaged game: never 0
    code = main(["journal", "show", str(path)])
    err = capsys.readouterr().err
    assert code == expected and "Interner Fehler" not in err
    assert main(["export", str(path), "--format", "pgn", "-o", str(tmp_path / "out.pgn")]) == expected
    assert "Interner Fehler" not in capsys.readouterr().err
    assert not (tmp_path / "out.pgn").exists()
