"""The rest of Guidelines I and the details of Appendices A and B at the table, as whole scripts.

Guidelines I as numbered in the Laws in force (the Dutch and Russian texts): I.1 a (a move made on
the board after the call to seal is the sealed move), I.1 b (adjourned before the session's end),
I.9 c (the sealer absent), I.10 (a player too late), I.12 b (the game annulled), I.13 (a clock
wrongly set at resumption). Appendices A and B in the edition of the project's FIDE texts: A a (a
wrong set-up claimed in time), A b (touch-move only on a claim), A c (the arbiter acts on both kings in
check or an incomplete promotion), B (an illegal move corrected by agreement). And the blind player's
board without a tactile board: the game itself.

Every scenario named here failed before the table knew the rule; the window plays the same scripts with
the same events (``tests/ui/test_ui_scenario.py``).
"""

from __future__ import annotations

import json

import chess
import pytest

from blindchess.cli import main
from blindchess.game.core import start_board
from blindchess.storage.journal import envelope_path, read_journal
from tests.support.journal_text import journal_words
from tests.support.scenario_report import SCENARIOS, Report, run


def _secret(r: Report, opened: float, *forms: str) -> None:
    """No event before ``opened`` — every type — holds any of ``forms``."""
    for e in r.events:
        if e["t"] < opened and e["type"] != "final":
            text = json.dumps(e, ensure_ascii=False)
            assert not any(form in text for form in forms), e


# ---------------------------------------------------------------- Guidelines I.1 a
def test_a_move_made_on_the_board_after_the_call_to_seal_is_the_sealed_move(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_move_made_on_the_board_is_sealed.scn", capsys, "--journal", str(journal))
    # her 2...Nc6 on the board is sealed at once; the move written afterwards is refused
    assert r.of("sealed") == [{"t": 70.0, "type": "sealed", "by": "sighted"}]
    assert [e["t"] for e in r.of("refused", what="seal")] == [75.0]
    assert not r.of("refused", what="move")
    assert [e for e in r.of("shown") if e["t"] == 70.0 and "Abgabezug" in e["text"] and "I.1 a" in e["text"]]
    # it is the move made at resumption, not the one written later; nothing told which before the opening
    assert r.of("resumed") == [{"t": 86480.0, "type": "resumed", "uci": "b8c6"}]
    _secret(r, 86480.0, "b8c6", "Sc6", "Nc6", "Cäsar sechs", "c6")
    assert "b8c6" not in journal_words(journal, until="envelope-opened")
    assert r.final["scores"]["sighted"][:5] == ["e4", "e5", "Sf3", "Sc6", "Lb5"]


def test_a_move_made_on_the_pegs_after_the_call_to_seal_is_sealed_and_the_pegs_set_back_silently(capsys,
                                                                                                  tmp_path):
    script = tmp_path / "pegs.scn"
    text = (SCENARIOS / "adjournment_sealed_by_the_blind_player.scn").read_text(encoding="utf-8")
    text = text.replace("70.0 blind   seals Läufer Bella\n75.0 blind   seals Läufer Bella fünf\n",
                        "70.0 peg L f1\n70.4 peg P b5\n72.0 peg L b5\n72.4 peg P f1\n"
                        "75.0 blind seals Läufer Cäsar vier\n")
    script.write_text(text.replace("86490.0 peg  L f1\n86490.4 peg  P b5\n", "").replace("80.0 app     crash\n", ""),
                      encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("sealed") == [{"t": 70.9, "type": "sealed", "by": "blind"}]
    assert [e["t"] for e in r.of("refused", what="seal")] == [75.0]
    # no touch, no square, no piece of the move while he sealed and set the pegs back; then "they agree"
    _secret(r, 86480.0, "f1b5", "Lb5", "Bb5", "Bella fünf", "b5", "f1", "Felix eins")
    assert not [e for e in r.of("touched") if 60.0 <= e["t"] < 86480.0]
    assert [e for e in r.said("blind") if 72.0 < e["t"] < 86480.0 and e["text"] == "Das Tastbrett stimmt wieder."]
    assert r.of("resumed") == [{"t": 86480.0, "type": "resumed", "uci": "f1b5"}]


# ---------------------------------------------------------------- Guidelines I.1 b
def test_adjourned_before_the_session_end_the_sealing_counts_at_that_end(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_before_the_session_end.scn", capsys, "--journal", str(journal))
    assert r.of("sealed") == [{"t": 3010.0, "type": "sealed", "by": "blind"}]
    [sealed] = [ev for ev in read_journal(journal).events if ev.get("type") == "sealed-move"]
    white_before = r.of("clock", ply=4)[0]["white"]
    # his clock ran from his last press (8.5 s) until the session's end (3600 s), not until he sealed
    assert sealed["public"]["white_remaining"] == pytest.approx(white_before - (3600.0 - 11.5), abs=0.01)
    assert sealed["public"]["white_used"] == pytest.approx(2.5 + (8.5 - 5.5) + (3600.0 - 11.5), abs=0.01)
    # the next day he starts with that time: only his thinking after the opening is charged
    assert r.of("clock", ply=7)[0]["white"] == pytest.approx(white_before - (3600.0 - 11.5) - (90031.0 - 90021.0)
                                                              + 30, abs=0.01)


# ---------------------------------------------------------------- Guidelines I.9 c
def test_the_sealer_absent_the_reply_is_sealed_in_a_new_envelope(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_sealer_absent.scn", capsys, "--journal", str(journal))
    assert [e["uci"] for e in r.of("resumed")] == ["f1b5", "a7a6"]
    assert r.of("sealer-absent") == [{"t": 86400.0, "type": "sealer-absent", "sealer": "blind"}]
    assert [(e["t"], e["by"]) for e in r.of("sealed")] == [(75.0, "blind"), (86460.0, "sighted")]
    assert not [e for e in r.of("refused") if e["t"] >= 86400.0]
    _secret(r, 87000.0, "a7a6", "a6", "Anna sechs")       # her reply, until the new envelope is opened
    # her clock ran from the opening until she sealed; his from her sealing until his press (I.9 c)
    clocks = {e["ply"]: e for e in r.of("clock")}
    assert clocks[7]["black"] == pytest.approx(clocks[4]["black"] - (86460.0 - 86400.0), abs=0.01)
    assert clocks[7]["white"] == pytest.approx(clocks[4]["white"] - (75.0 - 20.5) - (87021.5 - 86460.0) + 30,
                                               abs=0.01)
    # his pegs lacked both moves: said square by square, then that they agree again
    told = [e["text"] for e in r.said("blind") if 87000.0 <= e["t"] < 87010.0]
    assert any("Felix eins leer" in t and "Anna sechs" in t for t in told), told
    assert r.final["scores"]["blind"] == ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "La4"]


# ---------------------------------------------------------------- Guidelines I.10
def test_a_sealer_too_late_whose_sealed_move_mates_wins(capsys):
    r = run("adjournment_absent_sealer_mates.scn", capsys)
    assert r.of("resumed") == [{"t": 90000.0, "type": "resumed", "uci": "h5f7"}]
    assert r.of("ended") == [{"t": 90000.0, "type": "ended", "result": "1-0", "reason": "checkmate"}]
    assert [e["t"] for e in r.of("refused", what="result")] == [90010.0]


def test_a_player_too_late_loses_and_the_envelope_stays_closed(capsys, tmp_path):
    script = tmp_path / "late.scn"
    text = (SCENARIOS / "adjournment_responder_never_comes.scn").read_text(encoding="utf-8")
    script.write_text(text.replace("90001.0 arbiter result 1-0", "90001.0 arbiter late black"), encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("ended") == [{"t": 90001.0, "type": "ended", "result": "1-0", "reason": "late"}]
    assert not r.of("resumed")
    _secret(r, float("inf"), "f1b5", "Lb5", "Bb5", "Bella fünf")


# ---------------------------------------------------------------- Guidelines I.12 b
def test_a_position_that_cannot_be_re_established_annuls_the_game(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_position_cannot_be_re_established.scn", capsys, "--journal", str(journal))
    assert r.of("ended") == [{"t": 90000.0, "type": "ended", "result": "*", "reason": "annulled"}]
    assert r.final["result"] == "*" and r.final["plies"] == 2 and not r.of("resumed")
    said = [e["text"] for e in r.said() if e["t"] == 90000.0]
    assert said and "annulliert" in said[0]
    assert main(["export", str(journal), "--format", "pgn", "-o", str(tmp_path / "game.pgn")]) == 0
    assert '[Result "*"]' in (tmp_path / "game.pgn").read_text(encoding="utf-8")


# ---------------------------------------------------------------- Guidelines I.13
def test_a_clock_wrongly_set_at_resumption_is_corrected_before_the_first_move_only(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_clock_wrongly_set.scn", capsys, "--journal", str(journal))
    [sealed] = [ev for ev in read_journal(journal).events if ev.get("type") == "sealed-move"]
    recorded = sealed["public"]
    corrected = [e for e in r.of("shown") if e["t"] == 90020.0 and "I.13" in e["text"]]
    assert corrected and "Bernd Blind" in corrected[0]["text"]
    # his move after the correction: the recorded time less his thinking since the opening (90000 s)
    assert r.of("clock", ply=5)[0]["white"] == pytest.approx(recorded["white_remaining"] - 31.0 + 30, abs=0.01)
    assert r.of("clock", ply=5)[0]["black"] == pytest.approx(recorded["black_remaining"], abs=0.01)
    [late] = r.of("refused", what="clock")
    assert late["t"] == 90040.0 and "Zu spät" in late["text"]


# ---------------------------------------------------------------- Appendix A a
def test_a_wrong_set_up_is_claimed_until_each_player_made_three_moves(capsys):
    r = run("rapid_set_up_claimed.scn", capsys)
    assert [(e["t"], e["kind"], e["upheld"]) for e in r.of("claim")] == [(8.0, "setup", True), (14.0, "setup", False)]
    [late] = r.of("refused", what="claim")
    assert "3 Züge" in late["text"]
    assert [e for e in r.of("shown") if e["t"] == 14.0 and "Weiß" in e["text"] and "nicht rochiert" in e["text"]]
    assert [e for e in r.of("shown") if e["t"] == 8.0 and "Uhr" in e["text"] and "Schiedsrichter" in e["text"]]


@pytest.mark.parametrize("fen", ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1",
                                 "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
def test_a_king_set_up_on_the_queen_s_square_may_not_castle(fen):
    board = start_board(None, fen)
    swapped = chess.WHITE if fen.endswith("RNBKQBNR w KQkq - 0 1") else chess.BLACK
    rank = chess.BB_RANK_1 if swapped == chess.WHITE else chess.BB_RANK_8
    assert not board.castling_rights & rank
    assert board.castling_rights & (chess.BB_RANK_8 if swapped == chess.WHITE else chess.BB_RANK_1)
    # the king and the rook's squares cleared: still no castling for that king
    for sq in (chess.B1, chess.C1, chess.E1, chess.F1, chess.G1, chess.B8, chess.C8, chess.E8, chess.F8, chess.G8):
        if board.piece_type_at(sq) not in (None, chess.KING):
            board.remove_piece_at(sq)
    board.turn = swapped
    assert not any(board.is_castling(m) for m in board.legal_moves)


# ---------------------------------------------------------------- Appendix A b
def test_without_supervision_touch_move_is_ruled_only_on_a_claim(capsys, tmp_path):
    r = run("rapid_touch_move_claimed.scn", capsys)
    assert r.of("touched", square="g1", by="sighted")
    before_claim = [e["text"] for e in r.of("shown") if e["t"] < 12.0]
    assert not [t for t in before_claim if "4.3" in t], "nobody tells the arbiter unasked"
    assert r.of("claim") == [{"t": 12.0, "type": "claim", "by": "blind", "kind": "touch", "upheld": True}]
    [shown] = [e["text"] for e in r.of("shown") if e["t"] == 12.0]
    assert "g1" in shown and "Sc3" in shown
    # with supervision the table tells the arbiter at once
    script = tmp_path / "supervised.scn"
    script.write_text((SCENARIOS / "rapid_touch_move_claimed.scn").read_text(encoding="utf-8")
                      .replace("@rules rapid unsupervised", "@rules rapid"), encoding="utf-8")
    capsys.readouterr()
    assert main(["scenario", "run", str(script), "--json"]) == 0
    supervised = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert [e for e in supervised.of("shown") if e["t"] < 12.0 and "4.3" in e["text"]]


def test_a_touch_claim_without_a_breach_is_rejected(capsys, tmp_path):
    script = tmp_path / "no_breach.scn"
    script.write_text((SCENARIOS / "rapid_touch_move_claimed.scn").read_text(encoding="utf-8")
                      .replace("2.0    eboard  L g1\n2.6    eboard  P g1 N\n", ""), encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("claim") == [{"t": 12.0, "type": "claim", "by": "blind", "kind": "touch", "upheld": False}]


# ---------------------------------------------------------------- Appendix A c
def test_the_arbiter_acts_without_a_claim_when_both_kings_are_in_check(capsys):
    r = run("rapid_both_kings_in_check.scn", capsys)
    assert not r.of("claim")
    assert [e for e in r.of("shown") if e["t"] == 3.5 and "beide Könige" in e["text"]]
    assert r.moves() == ["f1b5", "a8a1", "e8f8"]
    final = r.final
    assert final["scores"]["blind"] == ["Lb5+", "Kf8"] and final["plies"] == 2
    assert r.of("clock", ply=2)[-1]["white"] == pytest.approx(1500 - 1.5 + 120, abs=0.01)   # two minutes (7.5.5)
    assert final["boards"]["tactile"] == final["game"]


def test_the_arbiter_acts_without_a_claim_on_a_promotion_not_completed(capsys, tmp_path):
    script = tmp_path / "promotion.scn"
    script.write_text("@white Bernd Blind\n@black Sabine Sehend\n@time 25+0\n@rules rapid unsupervised\n"
                      "@tactile none\n@start 4k3/8/8/8/8/8/3p4/7K b - - 0 1\n"
                      "1.0 sighted move d2d1\n1.5 clock press black\n3.0 sighted move d2d1q\n3.5 clock press black\n",
                      encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert [e for e in r.of("shown") if e["t"] == 1.5 and "Bauernumwandlung" in e["text"]]
    assert r.moves() == ["d2d1", "d2d1q"] and r.final["scores"]["sighted"] == ["d1D+"]


def test_in_rapid_the_arbiter_does_not_act_when_only_the_mover_s_king_is_left_in_check(capsys, tmp_path):
    # Appendix A c: the arbiter acts without a claim only on both kings in check; 1...Ra2 leaves her own king
    # in check and checks nobody — an illegal move that counts only when claimed
    script = tmp_path / "own_king.scn"
    script.write_text((SCENARIOS / "rapid_both_kings_in_check.scn").read_text(encoding="utf-8")
                      .replace("sighted move a8a1", "sighted move a8a2"), encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert not [e for e in r.of("shown") if "beide Könige" in e["text"]]
    assert r.moves()[:2] == ["f1b5", "a8a2"]
    assert r.of("clock", ply=2)[-1]["white"] == pytest.approx(1500 - 1.5, abs=0.01)   # no two minutes
    # the illegal move stands, and both scores hold it as played, from square to square
    assert r.final["scores"]["sighted"][:2] == ["Lb5+", "a8a2"] and r.final["scores"]["blind"][:2] == ["Lb5+", "a8a2"]


def test_in_blitz_the_arbiter_does_not_act_on_both_kings_in_check(capsys, tmp_path):
    script = tmp_path / "blitz.scn"
    script.write_text((SCENARIOS / "rapid_both_kings_in_check.scn").read_text(encoding="utf-8")
                      .replace("@time 25+0", "@time 5+0").replace("@rules rapid unsupervised",
                                                                  "@rules blitz unsupervised"), encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert not [e for e in r.of("shown") if "beide Könige" in e["text"]]
    assert r.moves()[:2] == ["f1b5", "a8a1"]


# ---------------------------------------------------------------- Appendix B
def test_in_blitz_an_illegal_move_is_corrected_by_both_players_agreement(capsys):
    r = run("blitz_illegal_move_corrected_by_agreement.scn", capsys)
    proposed = [e for e in r.of("shown") if e["t"] == 12.0]
    assert proposed and "Bernd Blind" in proposed[0]["text"]
    assert [e for e in r.of("shown") if e["t"] == 13.0 and "Halbzug 4" in e["text"]]
    # the position before 2...Ke6 again: his 3.Nc3 is gone with it, and she plays 2...Nc6
    final = r.final
    assert final["scores"]["blind"] == ["e4", "e5", "Sf3", "Sc6"] and final["plies"] == 4
    assert final["boards"]["tactile"] == final["boards"]["sighted"] == final["game"]
    assert not r.of("ended")


def test_the_correction_is_refused_outside_unsupervised_blitz(capsys, tmp_path):
    script = tmp_path / "rapid.scn"
    script.write_text((SCENARIOS / "blitz_illegal_move_corrected_by_agreement.scn").read_text(encoding="utf-8")
                      .replace("@time 5+0", "@time 25+0").replace("@rules blitz", "@rules rapid"), encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert [e["t"] for e in r.of("refused", what="correction")] == [12.0, 13.0]


# ---------------------------------------------------------------- the blind player's board without a tactile board
def test_without_a_tactile_board_an_illegal_move_stands_and_his_reply_is_made(capsys):
    r = run("no_tactile_board_illegal_move_stands.scn", capsys)
    assert r.moves() == ["e2e4", "e7e5", "g1f3", "b8c6", "d1h5", "f8b4"]
    assert not r.of("refused", what="move") and not r.of("refused", what="press")
    assert r.of("claim") == [{"t": 15.0, "type": "claim", "by": "blind", "kind": "illegal", "upheld": False}]
    assert [e for e in r.said() if e["t"] == 15.0 and "bleibt stehen" in e["text"]]
    assert r.final["boards"]["tactile"] == r.final["game"]


def test_on_the_peg_board_an_illegal_move_mirrored_by_hand_is_on_his_board(capsys):
    r = run("pegboard_illegal_move_stands.scn", capsys)
    assert r.moves() == ["e2e4", "e7e5", "g1f3", "b8c6", "d1h5", "f8b4"]
    assert r.of("mirrored", board="tactile", ply=5)             # once the pegs show the game
    assert not r.of("refused")
    assert r.of("claim") == [{"t": 15.0, "type": "claim", "by": "blind", "kind": "illegal", "upheld": False}]
    assert r.final["boards"]["tactile"] == r.final["game"] == r.final["boards"]["sighted"]


def test_without_a_tactile_board_a_claim_s_declared_move_is_read_in_the_game(capsys):
    r = run("no_tactile_board_claim_on_the_declared_move.scn", capsys)
    assert r.of("claim") == [{"t": 26.0, "type": "claim", "by": "blind", "kind": "threefold", "upheld": True}]
    assert r.of("ended")[0]["result"] == "1/2-1/2" and not r.of("refused")
    # his board followed every move of the game as it was made
    mirrored = {e["ply"] for e in r.of("mirrored") if e["board"] == "tactile"}
    assert mirrored == {2, 4, 6, 8}


def test_the_envelope_file_has_one_size_whatever_it_holds(capsys, tmp_path):
    sizes = set()
    for written in ("a6", "Läufer Bella fünf", "Springer Bella David zwei", "Лb5"):
        script = tmp_path / "seal.scn"
        journal = tmp_path / f"game{len(sizes)}{len(written)}.jsonl"
        lines = (SCENARIOS / "adjournment_sealed_by_the_blind_player.scn").read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines if not line.startswith(("70.0", "75.0", "80.0", "864", "865"))]
        script.write_text("\n".join(kept) + f"\n75.0 blind seals {written}\n76.0 blind seals {written}\n",
                          encoding="utf-8")
        assert main(["scenario", "run", str(script), "--journal", str(journal)]) == 0
        sizes.add(envelope_path(journal).stat().st_size)
    capsys.readouterr()
    assert len(sizes) == 1
