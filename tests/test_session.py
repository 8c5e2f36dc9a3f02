"""The game session: move completion (D.2.3, D.2.4, D.2.5), slips (D.2.8), touches and
time on request (D.2.10), divergence and the ruling applied (D.2.9)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session

M = chess.Move.from_uci


def new(**kw) -> Session:
    """White sighted (Anna), Black visually impaired (Bert), 90 min + 30 s."""
    kw.setdefault("now", 0.0)
    return Session.new(Player("Anna"), Player("Bert", visually_impaired=True, assistant="Carl"), "90+30", **kw)


def types(events):
    return [e["type"] for e in events]


def white_e4(s: Session, t: float = 10.0) -> None:
    """White plays e4 on the sighted board and presses; Black mirrors it on the tactile board."""
    s.sighted_move("e2e4", t)
    s.press_clock("white", t + 1)
    s.tactile_move("e2e4", t + 2)


def test_new_session_basics():
    s = new()
    assert s.blind_color == chess.BLACK
    assert s.board("sighted").fen() == chess.STARTING_FEN == s.board("tactile").fen()
    assert s.score("blind") == [] and s.events[0]["type"] == "session-start"
    assert s.time_control.base_seconds == 5400


def test_sighted_move_is_made_on_his_board_and_announced_d25():
    s = new()
    got = []
    s.subscribe(got.append)
    s.start_clock(0.0)
    s.sighted_move("g1f3", 5.0)
    assert s.game_moves == [M("g1f3")]
    made = next(e for e in got if e["type"] == "move-made")
    assert made["article"] == "D.2.5" and made["color"] == "white" and made["san"] == "Nf3"
    assert made["message"]  # the app says the move
    mirror = next(e for e in got if e["type"] == "mirror-needed")
    assert mirror["board"] == "tactile" and mirror["uci"] == "g1f3"


def test_blind_move_made_only_with_placement_and_announcement_d23_d24():
    s = new()
    s.start_clock(0.0)
    white_e4(s)
    # Placement alone: not made, the opponent's clock may not be started (D.2.4).
    s.tactile_move("e7e5", 20.0)
    assert len(s.game_moves) == 1
    refused = s.press_clock("black", 21.0)
    assert refused["type"] == "clock-refused" and refused["article"] == "D.2.4"
    assert s.clock.running == chess.BLACK
    # The announcement completes it (D.2.3 c).
    s.announce("Bauer Eva fünf", 22.0)
    assert s.game_moves == [M("e2e4"), M("e7e5")]
    made = [e for e in s.events if e["type"] == "move-made"][-1]
    assert made["article"] == "D.2.3" and made["text"] == "Bauer Eva fünf"
    ev = s.press_clock("black", 23.0)
    assert ev["type"] == "press" and s.clock.running == chess.WHITE
    mirror = [e for e in s.events if e["type"] == "mirror-needed"][-1]
    assert mirror["board"] == "sighted"


def test_announcement_before_placement_also_completes_on_placement():
    s = new()
    white_e4(s)
    s.announce("e5", 20.0)
    assert len(s.game_moves) == 1
    s.tactile_move("e7e5", 21.0)
    assert s.game_moves[-1] == M("e7e5")


def test_announcement_and_board_disagree_is_said_at_once():
    s = new()
    white_e4(s)
    got = []
    s.subscribe(got.append)
    s.tactile_move("g8f6", 20.0)
    s.announce("Springer Hector sechs", 21.0)
    mismatch = [e for e in got if e["type"] == "announce-mismatch"]
    assert mismatch and mismatch[0]["article"] == "D.2.3"
    assert "D.2.3" in mismatch[0]["message"]
    assert len(s.game_moves) == 1
    # A slip of the tongue corrected before the opponent's clock is started (D.2.8).
    s.correct("Springer Felix sechs", 22.0)
    assert s.game_moves[-1] == M("g8f6")


def test_placed_piece_moved_on_before_the_move_is_made():
    s = new()
    white_e4(s)
    s.tactile_move("g8f6", 20.0)
    # The peg is moved on from f6 to h6 before announcing: one move g8-h6.
    s.tactile_move("f6h6", 21.0)
    assert s.moves("tactile")[-1] == M("g8h6")
    s.announce("Springer Hector sechs", 22.0)
    assert s.game_moves[-1] == M("g8h6")


def test_correction_allowed_until_the_opponents_clock_starts_never_after_d28():
    s = new()
    white_e4(s)
    s.tactile_move("e7e5", 20.0)
    s.announce("e5", 21.0)
    assert s.game_moves[-1] == M("e7e5")
    # Made but the clock not pressed: a correction is still possible; it un-makes the move.
    s.take_back("tactile", 22.0)
    s.correct("e6", 23.0)
    assert len(s.game_moves) == 1
    assert s.events[-1]["type"] == "move-withdrawn" or any(e["type"] == "move-withdrawn" for e in s.events[-3:])
    s.tactile_move("e7e6", 24.0)
    assert s.game_moves[-1] == M("e7e6")
    s.press_clock("black", 25.0)
    # After the press: refused, the move stands.
    ev = s.correct("e5", 26.0)
    assert ev["type"] == "announce" and ev["refused"]
    refused = [e for e in s.events if e["type"] == "correction-refused"]
    assert refused and refused[0]["article"] == "D.2.8"
    assert s.game_moves[-1] == M("e7e6")


def test_unclear_announcement_changes_nothing():
    s = new()
    white_e4(s)
    s.tactile_move("e7e5", 20.0)
    s.announce("bla bla", 21.0)
    assert len(s.game_moves) == 1
    assert any(e["type"] == "announce-unclear" and e["message"] for e in s.events)


def test_touches_recorded_d22_d210e():
    s = new()
    white_e4(s)
    ev = s.touch("g8", 15.0)
    assert ev["article"] == "D.2.2" and ev["piece"] == "n" and ev["own"]
    assert "D.2.2" in ev["message"]
    ev = s.touch(chess.D2, 16.0, board="sighted")
    assert ev["article"] == "D.2.10 e" and ev["by"] == "white" and ev["own"]
    assert len(s.touches) == 2


def test_time_only_on_request_d210d():
    s = new()
    s.start_clock(0.0)
    s.sighted_move("e2e4", 65.0)
    s.press_clock("white", 65.0)
    s.tactile_move("e2e4", 70.0)
    # Nothing about the time is said unasked.
    assert not any("used" in e for e in s.events)
    info = s.request_time(100.0)
    assert info["white"] == {"moves": 1, "used": 65.0, "remaining": 5400 - 65 + 30}
    assert info["black"]["used"] == 35.0 and info["black"]["moves"] == 0
    assert "1:05" in info["message"]
    assert s.events[-1]["type"] == "time-request" and s.events[-1]["article"] == "D.2.10 d"


def test_hear_dispatches_requests_and_moves():
    s = new()
    white_e4(s)
    s.tactile_move("e7e5", 20.0)
    ev = s.hear("Bauer Eva fünf", 21.0)
    assert s.game_moves[-1] == M("e7e5")
    assert ev["type"] == "announce"


def test_divergence_first_ply_and_recovery():
    s = new()
    white_e4(s)
    s.tactile_move("e7e5", 20.0)
    s.announce("e5", 21.0)
    s.press_clock("black", 22.0)
    s.sighted_move("d7d5", 23.0)  # wrong mirror on the sighted board
    div = s.divergence
    assert div == {"ply": 2, "squares": ["d5", "e5", "d7", "e7"], "board": "sighted"}
    ev = [e for e in s.events if e["type"] == "divergence"][-1]
    assert ev["article"] == "D.2.9" and "D.2.9" in ev["message"]
    s.take_back("sighted", 24.0)
    assert s.divergence is None
    assert s.events[-1]["type"] == "boards-agree"
    s.sighted_move("e7e5", 25.0)
    assert s.divergence is None


def test_occupancy_only_tactile_board_cannot_see_a_wrong_promotion_piece():
    start = "8/4P3/8/8/8/8/k7/7K w - - 0 1"
    for senses, expect in ((False, None), (True, 1)):
        s = Session.new(Player("A"), Player("B", True), None, start_fen=start, now=0.0,
                        tactile_senses_pieces=senses)
        s.sighted_move("e7e8q", 1.0)
        s.tactile_move("e7e8n", 2.0)
        assert (s.divergence or {}).get("ply") == expect


def _game_with_wrong_mirror(s: Session) -> None:
    s.start_clock(0.0)
    t = 0.0
    for i, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
        t += 10
        if i % 2 == 0:
            s.sighted_move(uci, t)
            s.press_clock("white", t + 1)
            s.tactile_move(uci if uci != "g1f3" else "g1h3", t + 2)  # wrong mirror of Nf3
        else:
            s.tactile_move(uci, t)
            s.announce(M(uci), t + 1)
            s.press_clock("black", t + 2)
            s.sighted_move(uci, t + 3)


def test_ruling_correct_board_applied_and_journaled(tmp_path):
    s = new(journal=tmp_path / "g.jsonl")
    _game_with_wrong_mirror(s)
    assert s.divergence["ply"] == 3 and s.divergence["board"] == "tactile"
    for w in ("e4", "e5", "Nf3", "Nc6"):
        s.write("sighted", w, 50.0)
    for w in ("e4", "e5", "Sf3", "Sc6"):
        s.write("blind", w, 50.0)
    r = s.propose_ruling()
    assert r.kind == "correct-board" and r.fix_boards == ["b"]
    assert "Tastbrett" in r.explain("de")
    clocks_before = (s.clock.remaining(True, 60.0), s.clock.remaining(False, 60.0))
    s.apply_ruling(r, 60.0)
    assert s.board("tactile").board_fen() == s.board("sighted").board_fen() == r.position.board_fen()
    assert s.divergence is None
    assert (s.clock.remaining(True, 60.0), s.clock.remaining(False, 60.0)) == clocks_before
    s.close()
    again = Session.open(tmp_path / "g.jsonl")
    assert again.board("tactile").fen() == s.board("tactile").fen()
    assert again.rulings and again.rulings[0]["kind"] == "correct-board"


def test_ruling_retrace_restores_the_clocks_exactly():
    s = new()
    _game_with_wrong_mirror(s)
    times_at_2 = s.clock.times_at(2).remaining
    # The sighted score shows 2. Nf3, the blind player's 2. Sh3: the scores differ at ply 3.
    for w in ("e4", "e5", "Nf3", "Nc6"):
        s.write("sighted", w, 50.0)
    for w in ("e4", "e5", "Sh3", "Sc6"):
        s.write("blind", w, 50.0)
    s.pause(55.0)
    r = s.propose_ruling()
    assert r.kind == "retrace" and r.agreed_plies == 2
    assert (r.clocks["white"], r.clocks["black"]) == times_at_2
    s.apply_ruling(r, 60.0)
    assert s.game_moves == [M("e2e4"), M("e7e5")]
    assert s.board("sighted").board_fen() == s.board("tactile").board_fen()
    assert s.score("blind") == ["e4", "e5"] and s.score("sighted") == ["e4", "e5"]
    # Exactly the times recorded when ply 2 was completed; White (to move) runs after resuming.
    assert (s.clock.remaining(True, 60.0), s.clock.remaining(False, 60.0)) == times_at_2
    assert s.clock.running == chess.WHITE and s.clock.paused
    s.resume(70.0)
    assert s.clock.remaining(True, 75.0) == times_at_2[0] - 5.0
    # The game goes on from there.
    s.sighted_move("g1f3", 80.0)
    assert s.press_clock("white", 81.0)["type"] == "press"


def test_override_by_the_arbiter():
    s = new()
    _game_with_wrong_mirror(s)
    s.override(["e2e4", "e7e5"], 70.0, clocks={"white": 5000.0, "black": 4000.0}, note="Schiedsrichter")
    assert s.game_moves == [M("e2e4"), M("e7e5")]
    assert s.clock.remaining(True, 70.0) == 5000.0 and s.clock.remaining(False, 70.0) == 4000.0


def test_flag_fall_detected():
    s = Session.new(Player("A"), Player("B", True), "1+0", now=0.0)  # 1 minute
    s.start_clock(0.0)
    assert s.tick(59.0) == []
    ev = s.tick(61.0)
    assert [e["type"] for e in ev] == ["flag", "flag-fallen"]
    assert "D.2.10 e" in ev[-1]["article"]
    assert s.tick(62.0) == []


def test_scores_kept_as_written_and_deviation_reported():
    s = new()
    white_e4(s)
    s.write("blind", "e4", 12.0)
    s.write("sighted", "Sf3", 12.0)  # differs from the game
    assert s.score("blind") == ["e4"] and s.score("sighted") == ["Sf3"]
    dev = [e for e in s.events if e["type"] == "score-deviation"]
    assert dev and dev[0]["who"] == "sighted"
    s.write("sighted", "e4", 13.0, index=0)  # amended
    assert s.score("sighted") == ["e4"] and s.score_read("sighted").moves == [M("e2e4")]


def test_draw_offer_and_result():
    s = new()
    white_e4(s)
    s.offer_draw("white", 20.0)
    s.answer_draw("black", True, 21.0)
    assert s.result == "1/2-1/2" and s.finished
    assert s.events[-1]["type"] == "game-end"


def test_checkmate_ends_the_game():
    s = Session.new(Player("A", True), Player("B"), None, now=0.0)  # White blind
    t = 0.0
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        t += 1
        board = s.board("sighted")
        if board.turn == chess.WHITE:
            s.tactile_move(uci, t)
            s.announce(M(uci), t)
            s.sighted_move(uci, t)
        else:
            s.sighted_move(uci, t)
            s.tactile_move(uci, t)
    assert s.result == "0-1" and s.result_reason == "checkmate"


def test_auto_press_and_chess960():
    s = Session.new(Player("A"), Player("B", True), "5+3", chess960=99, now=0.0, auto_press=True)
    assert s.start.chess960
    s.start_clock(0.0)
    s.sighted_move(s.board("sighted").parse_san("g3"), 5.0)
    assert s.clock.running == chess.BLACK  # pressed automatically once made
    assert s.clock.remaining(True, 5.0) == 300 - 5 + 3


def test_illegal_board_move_rejected_with_message():
    s = new()
    ev = s.sighted_move("e2e5", 1.0)
    assert ev["type"] == "board-move-rejected" and ev["message"]
    assert s.moves("sighted") == []


# -- property: a game with random wrong mirrors and score slips, then the ruling applied --

from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from blindchess import notation  # noqa: E402


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_property_applied_ruling_leaves_equal_boards_reachable_from_the_scores(data):
    s = Session.new(Player("A"), Player("B", True), "90+30", now=0.0)
    s.start_clock(0.0)
    game = chess.Board()
    t = 0.0
    for _ in range(data.draw(st.integers(1, 14))):
        legal = sorted(game.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        m = legal[data.draw(st.integers(0, len(legal) - 1))]
        own, other = ("sighted", "tactile") if game.turn == chess.WHITE else ("tactile", "sighted")
        if not s.board(own).is_legal(m):
            break  # the own board drifted too far for this move
        t += 1.0
        s.board_move(own, m, t)
        if own == "tactile":
            s.announce(m, t)
        s.press_clock(game.turn, t)
        mirror = m
        if data.draw(st.integers(0, 5)) == 0:  # a wrong mirror now and then
            options = sorted(s.board(other).legal_moves, key=lambda x: x.uci())
            if options:
                mirror = options[data.draw(st.integers(0, len(options) - 1))]
        if s.board(other).is_legal(mirror):
            s.board_move(other, mirror, t)
        game.push(m)
    moves = s.game_moves
    b = chess.Board()
    en, de = [], []
    for m in moves:
        en.append(b.san(m))
        de.append(notation.write(b, m, "de"))
        b.push(m)
    # Score slips: a different move, an unreadable entry, or the last move not yet written.
    slip = data.draw(st.sampled_from(["none", "other", "garbage", "short"]))
    if de and slip != "none":
        j = data.draw(st.integers(0, len(de) - 1))
        if slip == "garbage":
            de[j] = "Qq"
        elif slip == "short":
            de = de[:j]
        else:
            pos = chess.Board()
            for m in moves[:j]:
                pos.push(m)
            alt = [x for x in sorted(pos.legal_moves, key=lambda x: x.uci()) if x != moves[j]]
            if alt:
                de[j] = notation.write(pos, alt[0], "de")
    for w in en:
        s.write("sighted", w, t)
    for w in de:
        s.write("blind", w, t)
    r = s.propose_ruling(force=True)
    event(r.kind)
    ra, rb = s.score_read("sighted"), s.score_read("blind")
    common = 0
    while common < min(ra.plies, rb.plies) and ra.moves[common] == rb.moves[common]:
        common += 1
    before = (s.board("sighted").board_fen(), s.game_moves)
    s.apply_ruling(r, t + 1)
    assert r.agreed_plies == common
    assert r.moves[:common] == ra.moves[:common]
    if r.kind == "none":  # the boards agreed: nothing changes
        assert (s.board("sighted").board_fen(), s.game_moves) == before
        assert s.board("tactile").board_fen() == before[0]
        return
    assert s.board("sighted").board_fen() == s.board("tactile").board_fen() == r.position.board_fen()
    assert s.divergence is None and s.game_moves == r.moves
    if r.kind == "retrace":
        assert len(r.moves) == common
        # The clocks show exactly the times recorded when the agreed ply was completed.
        snap = r.clocks
        assert snap["ply"] == common
        assert (s.clock.remaining(chess.WHITE, t + 1), s.clock.remaining(chess.BLACK, t + 1)) == \
            (snap["white"], snap["black"])
        assert s.clock.running == s.to_move


def test_scores_behind_agreeing_boards_the_ruling_undoes_nothing():
    # 1. e4 e5 2. Nf3 on both boards, made and mirrored; both scores still end at 1... e5.
    s = new()
    white_e4(s)
    s.tactile_move("e7e5", 20.0)
    s.announce("Bauer Eva fünf", 21.0)
    s.press_clock("black", 22.0)
    s.sighted_move("e7e5", 23.0)
    s.sighted_move("g1f3", 30.0)
    s.press_clock("white", 31.0)
    s.tactile_move("g1f3", 32.0)
    for who, entries in (("sighted", ["e4", "e5"]), ("blind", ["e4", "e5"])):
        for text in entries:
            s.write(who, text, 40.0)
    assert s.divergence is None and s.propose_ruling() is None
    r = s.propose_ruling(force=True)
    assert r.kind == "none" and r.scores_behind and r.fix_boards == []
    assert r.position.board_fen() == s.board("sighted").board_fen()  # 2. Nf3 stands
    assert "ergänzen" in r.explain("de")
    s.apply_ruling(r, 50.0)
    assert s.game_moves[-1] == M("g1f3") and s.board("tactile").board_fen() == s.board("sighted").board_fen()
