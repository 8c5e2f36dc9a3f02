"""Session behaviours a mutation run showed unpinned ("tests that would fail if it broke").

FIDE Laws Appendix D: D.2.1 (moves announced), D.2.3 (the opponent's move mirrored on
the other board), D.2.8 (a correction before the opponent's clock is started), and the
journal as the game's record (a resumed game says which lines were damaged). The rules
engine words nothing: what a person hears or sees is checked at the table.
"""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.game import Player, Session
from blindchess.game.events import (
    Announce,
    AnnounceIgnored,
    EnvelopeOpened,
    Flag,
    FlagFallen,
    GameEnd,
    JournalDamaged,
    Mirrored,
    MoveMade,
    MoveWithdrawn,
    Note,
    SessionStart,
)
from blindchess.laws.adjournment import commitment
from blindchess.table.commands import BlindSays, Claims, ClockPress, Finish, Tick
from blindchess.table.events import ClaimDecided, Ended, Moved, Said, Shown
from blindchess.table.table import Table
from tests.support.table import Run

M = chess.Move.from_uci


def white_blind(**kw) -> Session:
    kw.setdefault("now", 0.0)
    return Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "90+30", **kw)


def test_the_start_of_the_journal_names_the_blind_players_colour():
    start = white_blind().events[0]
    assert isinstance(start, SessionStart) and start.blind == "white"
    black = Session.new(Player("A"), Player("B", visually_impaired=True), None, now=0.0)
    assert black.events[0].blind == "black"
    nobody = Session.new(Player("A"), Player("B"), None, now=0.0)
    assert nobody.events[0].blind is None


def test_a_new_announcement_of_the_first_move_before_the_press_is_a_correction():
    # D.2.8: the blind player's first move, made but not yet pressed, may still be corrected
    s = white_blind()
    s.announce(M("e2e4"), "Bauer Eva vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 2.0)
    assert list(s.snapshot.game_moves) == [M("e2e4")]
    ev = s.announce(M("d2d4"), "Bauer David vier", 3.0)[0]
    assert isinstance(ev, Announce)
    assert ev.correction is True
    assert ev.ply == 1
    assert MoveWithdrawn in [type(e) for e in s.events[-3:]]
    assert list(s.snapshot.game_moves) == []


def test_an_announcement_out_of_turn_is_refused_and_the_refusal_is_returned():
    s = white_blind()
    s.announce(M("d2d4"), "Bauer David vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("d2d4"), 2.0)
    s.press_clock(chess.WHITE, 3.0)
    [ev] = s.announce(M("g1f3"), "Springer Felix drei", 4.0)
    assert isinstance(ev, AnnounceIgnored) and ev.reason == "not-turn"
    assert list(s.snapshot.game_moves) == [M("d2d4")]
    # At the table the blind player hears why.
    run = Run(white="Anna", black="Bert", blind="white", time_control="90+30", tactile="none")
    run.table.handle(BlindSays("Bauer David vier", None), 1.0)
    run.table.handle(ClockPress(chess.WHITE), 3.0)
    run.table.handle(BlindSays("Springer Felix sechs", None), 4.0)
    run.table.handle(Finish(), 10.0)
    assert [x.text for x in run.said() if x.t >= 4.0] == ["Der sehbehinderte Spieler ist nicht am Zug."]
    assert list(run.table.session.snapshot.game_moves) == [M("d2d4")]


def test_a_mirror_is_reported_with_the_ply_it_mirrors():
    # D.2.3: the sighted player mirrors the blind player's first move on his board
    s = white_blind()
    s.announce(M("d2d4"), "Bauer David vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("d2d4"), 2.0)
    s.press_clock(chess.WHITE, 3.0)
    s.board_move("sighted", chess.Move.from_uci("d2d4"), 4.0)
    mirrored = [e for e in s.events if isinstance(e, Mirrored)]
    assert [(e.board, e.ply) for e in mirrored] == [("sighted", 1)]


def test_a_clean_journal_resumes_without_a_damage_report(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), "Bauer Eva vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 2.0)
    s.close()
    again = Session.open(path, 10.0)
    assert list(again.snapshot.game_moves) == [M("e2e4")]
    assert not [e for e in again.events if isinstance(e, JournalDamaged)
                or (isinstance(e, Note) and e.text == "journal-damaged")]
    again.close()


def test_a_damaged_journal_line_is_reported_when_the_game_resumes(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), "Bauer Eva vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 2.0)
    s.note("first", 3.0)
    s.close()
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = next(i for i, line in enumerate(lines) if '"first"' in line)
    lines[damaged] = lines[damaged].replace('"first"', '"fjrst"')
    path.write_text("".join(lines), encoding="utf-8", newline="")   # the journal's own line ends, on Windows too
    again = Session.open(path, 10.0)
    reports = [e for e in again.events if isinstance(e, JournalDamaged)]
    assert reports and reports[0].lines == (damaged + 1,)
    again.close()


def test_a_ruling_proposed_without_a_language_speaks_the_sessions_language():
    # D.2.9: a wrong mirror on the sighted board, both scores agree -> the board is corrected
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "90+30", now=0.0, lang="en")
    s.announce(M("e2e4"), "Pawn Echo four", 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 2.0)
    s.press_clock(chess.WHITE, 3.0)
    s.board_move("sighted", chess.Move.from_uci("e2e3"), 4.0)
    s.write("blind", "e4", 5.0, index=0)
    s.write("sighted", "e4", 5.0, index=0)
    r = s.propose_ruling()
    assert r is not None and r.kind == "correct-board"
    assert r.lang == "en"
    assert s.propose_ruling("de").lang == "de"


def test_no_flag_falls_before_the_time_is_up():
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "10s", now=0.0)
    s.start_clock(0.0)
    assert s.tick(5.0) == []
    assert [type(e) for e in s.tick(11.0)] == [Flag, FlagFallen, GameEnd]      # seen, and the game ends (Art. 6.9)


def test_the_sighted_players_flag_tells_the_assistant_he_may_claim():
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "10s", now=0.0)
    s.start_clock(0.0)
    fallen = [e for e in s.tick(11.0) if isinstance(e, FlagFallen)]
    assert len(fallen) == 1 and fallen[0].color == "white"
    # With the arbiter watching (Art. 6.8) the table sees the flag itself: said to both sides, the game ends.
    run = Run(white="Anna", black="Bert", blind="black", time_control="10s", tactile="none")
    run.table.handle(Tick(), 11.0)
    assert [x.text for x in run.of(Shown) if x.t == 11.0][0] == "Die Zeit von Weiß ist abgelaufen (Art. 6.9)."
    assert [(e.result, e.reason) for e in run.of(Ended)] == [("0-1", "time_forfeit")]
    # D.2.10 e: where only a claim counts (blitz without adequate supervision), the assistant — on the sighted
    # side of the table — claims the sighted player's flag for the blind player, and wins the game for him.
    run = Run(white="Anna", black="Bert", blind="black", time_control="10s", tactile="none", supervised=False)
    run.table.handle(Tick(), 11.0)
    assert not run.of(Ended)
    run.table.handle(Claims("sighted", "time"), 12.0)
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", "time", True)]
    assert [(e.result, e.reason) for e in run.of(Ended)] == [("0-1", "time_forfeit")]


def test_the_blind_players_flag_is_told_as_a_flag_under_article_6_9():
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "10s", now=0.0)
    s.start_clock(0.0)
    assert [e.color for e in s.tick(11.0) if isinstance(e, FlagFallen)] == ["white"]
    run = Run(white="Anna", black="Bert", blind="white", time_control="10s", tactile="none")
    run.table.handle(Tick(), 11.0)
    assert [x.text for x in run.of(Shown) if x.t == 11.0][0] == "Die Zeit von Weiß ist abgelaufen (Art. 6.9)."
    assert [x.text for x in run.said() if x.to == "all"][0] == "Die Zeit von Weiß ist abgelaufen."


def test_an_announcement_is_not_a_correction_unless_said_so():
    # D.2.8: only an explicit correction withdraws the move just made
    s = white_blind()
    ev = s.announce(M("e2e4"), "Bauer Eva vier", 1.0)[0]
    assert isinstance(ev, Announce)
    assert ev.correction is False


def test_a_resumed_game_tells_its_listeners_only_what_happens_after_resuming(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), "Bauer Eva vier", 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 2.0)
    s.close()
    again = Session.open(path, 10.0)
    heard = [type(ev) for ev in again.note("after", 11.0)]
    assert Announce not in heard and MoveMade not in heard
    assert Note in heard
    again.close()
    # At the table: a game resumed from its journal tells its listener what it says on resuming, never the
    # moves made before.
    table = Table.resume(path, 20.0)
    told: list = []
    table.subscribe(told.append)
    table.handle(Tick(), 21.0)
    assert told and not [e for e in told if isinstance(e, Moved)]
    assert any(isinstance(e, (Said, Shown)) for e in told)
    table.close()


def test_opening_the_envelope_returns_the_public_event_with_the_sealed_move():
    # FIDE Guidelines I 7: the sealed move becomes public when the envelope is opened
    s = white_blind()
    s.adjourn(4.0)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "e4", "n")}, {"written": "e4", "nonce": "n"}, 5.0)
    ev = s.open_envelope(100.0)[0]
    assert isinstance(ev, EnvelopeOpened)
    assert ev.hidden == {"written": "e4", "nonce": "n"}
