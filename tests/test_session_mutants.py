"""Session behaviours a mutation run showed unpinned (issue 14, "tests that would fail if it broke").

FIDE Laws Appendix D: D.2.1 (moves announced), D.2.3 (the opponent's move mirrored on
the other board), D.2.8 (a correction before the opponent's clock is started), and the
journal as the game's record (a resumed game says which lines were damaged).
"""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.game import Player, Session

M = chess.Move.from_uci


def white_blind(**kw) -> Session:
    kw.setdefault("now", 0.0)
    return Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "90+30", **kw)


def test_the_start_of_the_journal_names_the_blind_players_colour():
    assert white_blind().events[0]["blind"] == "white"
    black = Session.new(Player("A"), Player("B", visually_impaired=True), None, now=0.0)
    assert black.events[0]["blind"] == "black"
    nobody = Session.new(Player("A"), Player("B"), None, now=0.0)
    assert nobody.events[0]["blind"] is None


def test_a_new_announcement_of_the_first_move_before_the_press_is_a_correction():
    # D.2.8: the blind player's first move, made but not yet pressed, may still be corrected
    s = white_blind()
    s.announce(M("e2e4"), 1.0)
    s.tactile_move("e2e4", 2.0)
    assert s.game_moves == [M("e2e4")]
    ev = s.announce(M("d2d4"), 3.0)
    assert ev["type"] == "announce"
    assert ev["correction"] is True
    assert ev["ply"] == 1
    assert "move-withdrawn" in [e["type"] for e in s.events[-3:]]
    assert s.game_moves == []


def test_an_announcement_out_of_turn_is_refused_and_the_refusal_is_returned():
    s = white_blind()
    s.announce(M("d2d4"), 1.0)
    s.tactile_move("d2d4", 2.0)
    s.press_clock("white", 3.0)
    ev = s.announce(M("g1f3"), 4.0)
    assert ev["type"] == "announce-ignored"
    assert ev["message"] == "Der sehbehinderte Spieler ist nicht am Zug."
    assert s.game_moves == [M("d2d4")]


def test_a_mirror_is_reported_with_the_ply_it_mirrors():
    # D.2.3: the sighted player mirrors the blind player's first move on his board
    s = white_blind()
    s.announce(M("d2d4"), 1.0)
    s.tactile_move("d2d4", 2.0)
    s.press_clock("white", 3.0)
    s.sighted_move("d2d4", 4.0)
    mirrored = [e for e in s.events if e["type"] == "mirrored"]
    assert [(e["board"], e["ply"]) for e in mirrored] == [("sighted", 1)]


def test_a_clean_journal_resumes_without_a_damage_report(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), 1.0)
    s.tactile_move("e2e4", 2.0)
    s.close()
    again = Session.open(path, 10.0)
    assert again.game_moves == [M("e2e4")]
    assert not [e for e in again.events if e["type"] == "journal-damaged"
                or e.get("text") == "journal-damaged"]
    again.close()


def test_a_damaged_journal_line_is_reported_when_the_game_resumes(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), 1.0)
    s.tactile_move("e2e4", 2.0)
    s.note("first", 3.0)
    s.close()
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = next(i for i, line in enumerate(lines) if '"first"' in line)
    lines[damaged] = lines[damaged].replace('"first"', '"fjrst"')
    path.write_text("".join(lines), encoding="utf-8")
    again = Session.open(path, 10.0)
    reports = [e for e in again.events if e["type"] == "journal-damaged"]
    assert reports and reports[0]["lines"] == [damaged + 1]
    again.close()


def test_a_ruling_proposed_without_a_language_speaks_the_sessions_language():
    # D.2.9: a wrong mirror on the sighted board, both scores agree -> the board is corrected
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "90+30", now=0.0, lang="en")
    s.announce(M("e2e4"), 1.0)
    s.tactile_move("e2e4", 2.0)
    s.press_clock("white", 3.0)
    s.sighted_move("e2e3", 4.0)
    s.write("blind", "e4", 5.0)
    s.write("sighted", "e4", 5.0)
    r = s.propose_ruling()
    assert r is not None and r.kind == "correct-board"
    assert r.lang == "en"
    assert s.propose_ruling("de").lang == "de"


def test_no_flag_falls_before_the_time_is_up():
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "10s", now=0.0)
    s.start_clock(0.0)
    assert s.tick(5.0) == []
    assert [e["type"] for e in s.tick(11.0)] == ["flag", "flag-fallen"]


def test_the_sighted_players_flag_tells_the_assistant_he_may_claim():
    # D.2.10 e: the assistant may claim for the blind player when the sighted player's flag falls
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "10s", now=0.0)
    s.start_clock(0.0)
    fallen = [e for e in s.tick(11.0) if e["type"] == "flag-fallen"]
    assert len(fallen) == 1 and fallen[0]["color"] == "white"
    assert fallen[0]["message"] == ("Die Zeit des sehenden Spielers (Weiß) ist abgelaufen; der Assistent kann "
                                    "die Partie reklamieren (FIDE-Regeln D.2.10 e).")


def test_the_blind_players_flag_is_told_as_a_flag_under_article_6_9():
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "10s", now=0.0)
    s.start_clock(0.0)
    fallen = [e for e in s.tick(11.0) if e["type"] == "flag-fallen"]
    assert [e["message"] for e in fallen] == ["Die Zeit von Weiß ist abgelaufen (Art. 6.9)."]


def test_an_announcement_is_not_a_correction_unless_said_so():
    # D.2.8: only an explicit correction withdraws the move just made
    s = white_blind()
    ev = s.announce(M("e2e4"), 1.0)
    assert ev["type"] == "announce"
    assert ev["correction"] is False


def test_a_resumed_game_tells_its_listeners_only_what_happens_after_resuming(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = white_blind(journal=path)
    s.announce(M("e2e4"), 1.0)
    s.tactile_move("e2e4", 2.0)
    s.close()
    again = Session.open(path, 10.0)
    heard: list[str] = []
    again.subscribe(lambda ev: heard.append(ev["type"]))
    again.note("after", 11.0)
    assert "announce" not in heard and "move-made" not in heard
    assert "note" in heard
    again.close()


def test_opening_the_envelope_returns_the_public_event_with_the_sealed_move():
    # FIDE Guidelines I 7: the sealed move becomes public when the envelope is opened
    s = white_blind()
    s.seal_move({"by": "white"}, {"move": "e2e4"}, 5.0)
    ev = s.open_envelope(100.0)
    assert ev["type"] == "envelope-opened"
    assert ev["hidden"] == {"move": "e2e4"}
