"""Adjourned games (FIDE Laws, Guidelines I): every point the app handles, the envelope, the hidden move."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys

import chess
import pytest

from blindchess import envelope as env
from blindchess.cli import main
from blindchess.envelope import EnvelopeProcedure, AdjournmentError, Phase, SealedRecord
from blindchess.game.events import EnvelopeOpened, GameEvent, MoveMade, SealedMove, to_json
from blindchess.journal import read_envelope
from blindchess.records import files

# 1. d4 d5 2. Sf3 Sf6: both white knights can reach d2 -> "Sd2" is ambiguous.
TWO_KNIGHTS = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3"
# White to move, Qh5xf7 is mate (scholar's mate position).
MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def _adjourn(fen: str = TWO_KNIGHTS, text: str = "Sbd2", *, now: float = 1000.0, **kw) -> EnvelopeProcedure:
    adj = EnvelopeProcedure.begin(chess.Board(fen), white="Anna Blind", black="Bert Seher", white_used=3000.0,
                            black_used=2500.0, white_remaining=2400.0, black_remaining=2900.0, now=now,
                            nonce="fixed-nonce", **kw)
    adj.seal(text)
    return adj


def _sealed(fen: str = TWO_KNIGHTS, text: str = "Sbd2") -> EnvelopeProcedure:
    adj = _adjourn(fen, text)
    adj.stop_clock(1060.0)
    adj.set_resumption("2026-12-01", "10:00", "Spielsaal 2")
    return adj


# -- the sealed move checked at once (points 1, 8) ------------------------------------

@pytest.mark.parametrize("text,problem,point", [
    ("Sd2", "ambiguous", "8 a"),
    ("Zq9", "unreadable", "8 b"),
    ("Sd4", "illegal", "8 c"),
])
def test_a_losing_sealed_move_is_reported_at_once_with_point_8(text, problem, point):
    check = env.check_sealed_move(chess.Board(TWO_KNIGHTS), text, "de")
    assert check.problem == problem and check.point == point and not check.ok
    assert f"Punkt {point}" in check.message("de") and "ändern" in check.message("de")
    assert f"point {point}" in check.message("en")


def test_sealed_move_in_any_notation():
    board = chess.Board(TWO_KNIGHTS)
    expected = chess.Move.from_uci("b1d2")
    for text, lang in (("Sbd2", "de"), ("Nbd2", "en"), ("Cbd2", "fr"), ("Pbd2", "nl"), ("b1d2", "de")):
        check = env.check_sealed_move(board, text, lang)
        assert check.ok and check.move == expected, (text, lang)


def test_spoken_sealed_move():
    pytest.importorskip("blindchess.phonetic")
    board = chess.Board(TWO_KNIGHTS)
    ok = env.check_sealed_move(board, "Springer Bella David zwei", "de", spoken=True)
    assert ok.ok and ok.move == chess.Move.from_uci("b1d2")
    ambiguous = env.check_sealed_move(board, "Springer David zwei", "de", spoken=True)
    assert ambiguous.problem == "ambiguous" and set(ambiguous.candidates) == {
        chess.Move.from_uci("b1d2"), chess.Move.from_uci("f3d2")}
    assert env.check_sealed_move(board, "Springer David vier", "de", spoken=True).problem == "illegal"
    assert env.check_sealed_move(board, "Kaffee bitte", "de", spoken=True).problem == "unreadable"


# -- point 1: sealing ---------------------------------------------------------------

def test_point_1_changeable_until_the_clock_is_stopped_and_the_clock_runs_meanwhile():
    adj = _adjourn(text="Sd2")
    assert adj.sealed.problem == "ambiguous"
    adj.seal("Sbd2")  # changed his mind: the last one counts
    envelope = adj.stop_clock(1090.0)
    assert adj.phase == Phase.SEALED and adj.sealed.written == "Sbd2"
    assert envelope.white_used == 3090.0 and envelope.white_remaining == 2310.0  # sealing took 90 s
    with pytest.raises(AdjournmentError) as err:
        adj.seal("Sfd2")
    assert "Punkt 1" in err.value.message("de")


def test_point_1_nothing_sealed_cannot_stop():
    adj = EnvelopeProcedure.begin(chess.Board(), white="A", black="B", white_used=0, black_used=0, now=0)
    with pytest.raises(AdjournmentError):
        adj.stop_clock(10)


def test_point_1_a_move_made_on_the_board_must_be_sealed():
    adj = EnvelopeProcedure.begin(chess.Board(TWO_KNIGHTS), white="A", black="B", white_used=0, black_used=0, now=0)
    check = adj.moved_on_board(chess.Move.from_uci("c2c4"))
    assert check.ok and check.move == chess.Move.from_uci("c2c4")
    with pytest.raises(AdjournmentError) as err:
        adj.seal("e3")
    assert "c4" in err.value.message("de")
    adj.seal("c2-c4")  # the same move, written differently, is fine
    assert adj.sealed.move == chess.Move.from_uci("c2c4")


def test_point_1_adjourning_early_charges_up_to_the_end_of_the_session():
    adj = _adjourn(now=1000.0)
    adj.stop_clock(1060.0, session_end=1060.0 + 1800.0)
    assert adj.envelope.white_used == 3000.0 + 60.0 + 1800.0
    assert adj.envelope.black_used == 2500.0
    assert any("Ende der Spielzeit" in m for m in adj.messages("de"))


# -- point 2: the envelope -------------------------------------------------------------

def test_point_2_envelope_fields_a_to_g():
    adj = _adjourn(draw_offer=chess.BLACK, event="Blindenschach-EM", round="5")
    adj.set_resumption("2026-12-01", "10:00", "Spielsaal 2")
    e = adj.stop_clock(1060.0)
    assert (e.white, e.black) == ("Anna Blind", "Bert Seher")                 # (a)
    assert e.position == TWO_KNIGHTS                                           # (b)
    assert (e.white_used, e.black_used) == (3060.0, 2500.0)                   # (c)
    assert e.sealer == chess.WHITE and e.sealer_name == "Anna Blind"          # (d)
    assert e.move_number == 3                                                  # (e)
    assert e.draw_offer == chess.BLACK                                         # (f)
    assert e.resumption == env.Resumption("2026-12-01", "10:00", "Spielsaal 2")  # (g)
    de = e.text("de")
    for label in ("(a)", "(b)", "(c)", "(d)", "(e)", "(f)", "(g)"):
        assert label in de
    assert "Weiß: Anna Blind – Schwarz: Bert Seher" in de and "0:51:00" in de and "0:41:40" in de
    assert "Schwarz hat Remis angeboten" in de and "Spielsaal 2" in de and "Sf3" in de
    en = e.text("en")
    assert "(d) Sealed by: Anna Blind (White)" in en and "Black has offered a draw" in en and "Nf3" in en
    # the envelope never shows the sealed move
    assert "Sbd2" not in de and "Nbd2" not in en
    assert env.Envelope.from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_point_2_a_draw_offer_written_with_the_sealed_move():
    adj = _adjourn(text="Sbd2 (=)")
    assert adj.sealed.ok and adj.draw_offer == chess.WHITE
    assert adj.stop_clock(1001.0).draw_offer == chess.WHITE


def test_point_2_printable_pdf(tmp_path):
    pytest.importorskip("PySide6.QtGui")
    from blindchess.records.envelope_pdf import write_pdf

    e = _sealed().envelope
    path = write_pdf(e, tmp_path / "umschlag.pdf", "de")
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + data.count(b"/Type/Page\n") >= 1
    if shutil.which("pdftotext") is None:  # poppler-utils: see Makefile TEST_DEBS
        pytest.skip("pdftotext not installed")
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    for value in ("Anna Blind", "Bert Seher", TWO_KNIGHTS.split()[0], "0:51:00", "Spielsaal 2",
                  "(a) Spieler", "(g) Wiederaufnahme", "Punkt 7"):
        assert value in text, value
    assert "Sbd2" not in text
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M)


# -- the hidden move in the journal ------------------------------------------------------

def test_the_record_hides_the_move_and_detects_tampering():
    adj = _sealed()
    record = adj.record()
    public = json.dumps(record.public())
    assert "Sbd2" not in public and "b1d2" not in public
    assert record.hidden()["written"] == "Sbd2" and record.verify()
    line = json.loads(json.dumps(record.to_journal()))
    assert env.SealedRecord.from_journal(line) == record
    # a changed move no longer matches the commitment
    line["hidden"]["written"] = "Sfd2"
    forged = env.SealedRecord.from_journal(line)
    assert not forged.verify()
    adj.set_up()
    with pytest.raises(AdjournmentError):
        adj.open(2000.0, record=forged)
    assert adj.open(2000.0, record=record).ok


def test_public_view_until_the_envelope_is_opened():
    event = {"type": "note", "text": "adjourned", "public": {"white": "A"}, "hidden": {"written": "Sbd2"}}
    assert "hidden" not in env.public_view(event, [event])
    opened = {"type": "note", "text": "envelope-opened", "written": "Sbd2"}
    assert env.public_view(event, [event, opened])["hidden"]["written"] == "Sbd2"


def test_session_journal_round_trip(tmp_path):
    from blindchess.game import Session

    path = tmp_path / "game.jsonl"
    pgn = '[White "Anna Blind"]\n[Black "Bert Seher"]\n[TimeControl "5400+30"]\n\n1. d4 d5 2. Nf3 Nf6 *'
    s = Session.from_pgn(pgn, now=0.0, visually_impaired="white", journal=path)
    s.start_clock(0.0)
    t = 100.0
    s.adjourn(t)                                       # the arbiter adjourns: White is to seal (point 1)
    adj = env.begin_from_session(s, t + 5.0)
    assert adj.board.fen() == TWO_KNIGHTS and adj.white == "Anna Blind"
    assert adj.white_used == pytest.approx(105.0) and adj.white_remaining == pytest.approx(5295.0)
    adj.seal("Sbd2")
    adj.stop_clock(t + 30.0)
    record = adj.record()
    s.seal(record.public(), record.hidden(), t + 31.0)
    assert s.clock.paused  # the sealer stopped his clock without starting the opponent's
    s.close()
    assert "Sbd2" not in json.dumps([env.public_view(to_json(e)) for e in s.events])
    reopened = Session.open(path)
    public = [to_json(e) for e in reopened.events]
    assert env.sealed_record_from_events(public) is None  # not in the public events before opening
    record = SealedRecord.from_journal(to_json(reopened.sealed_move(reveal=True)))  # the arbiter's side
    assert record.verify()
    resumed = EnvelopeProcedure.restore(record, reopened.game_board())
    assert resumed.phase == Phase.SEALED and resumed.white_used == pytest.approx(adj.white_used)
    resumed.set_up()
    resumed.correct_clock(chess.BLACK, 10.0)  # point 13, before the first move
    env.set_session_clocks(reopened, resumed, 4999.0)
    assert reopened.clock.remaining(chess.WHITE, 4999.0) == pytest.approx(5400 - 130.0)
    assert reopened.clock.remaining(chess.BLACK, 4999.0) == pytest.approx(5400 - 10.0)
    assert resumed.open(5000.0, record=record).move == chess.Move.from_uci("b1d2")
    opened = reopened.open_envelope(5000.0)            # point 7; point 9 a: the sealed move is made
    assert reopened.game_moves[-1] == chess.Move.from_uci("b1d2")
    assert reopened.board("sighted").fen() == reopened.board("tactile").fen() == reopened.game_board().fen()
    assert reopened.clock.running == chess.BLACK and not reopened.clock.paused
    assert isinstance(opened[0], EnvelopeOpened) and opened[0].hidden["written"] == "Sbd2"
    assert any(isinstance(e, MoveMade) and e.uci == "b1d2" for e in opened)
    public = [to_json(e) for e in reopened.events]
    assert env.sealed_record_from_events(public) == record  # public once opened


# -- points 3-6: between the sessions ------------------------------------------------------

def test_point_3_the_arbiter_checks_the_envelope():
    adj = _adjourn()
    adj.stop_clock(1001.0)
    assert adj.arbiter_keeps() == ["g"]
    adj.set_resumption("2026-12-01", "10:00", "Saal")
    assert adj.arbiter_keeps() == []
    assert "Punkt 3" in adj.messages("de")[-1]


def test_point_4_a_draw_offer_after_sealing_stays_until_answered():
    adj = _sealed()
    adj.offer_draw(chess.BLACK)
    with pytest.raises(AdjournmentError):
        adj.answer_draw(chess.BLACK, True)  # not his own offer
    adj.set_up()
    assert adj.draw_offer == chess.BLACK  # still valid at resumption
    adj.answer_draw(chess.WHITE, False)
    assert adj.draw_offer is None and adj.phase == Phase.SET_UP


def test_point_6_draw_agreed_or_resignation_before_resumption_ends_the_game():
    adj = _sealed()
    adj.offer_draw(chess.BLACK)
    adj.answer_draw(chess.WHITE, True)
    assert adj.phase == Phase.ENDED and adj.result == "1/2-1/2" and "Punkt 6" in adj.messages("de")[-1]
    adj = _sealed()
    adj.resign(chess.BLACK)
    assert adj.result == "1-0" and "point 6" in adj.messages("en")[-1]
    with pytest.raises(AdjournmentError):
        adj.set_up()


# -- points 5, 7, 8, 9: resumption ---------------------------------------------------------

def test_point_5_position_and_clocks_are_set_up():
    adj = _sealed()
    board, used = adj.set_up()
    assert board.fen() == TWO_KNIGHTS and used == {chess.WHITE: 3060.0, chess.BLACK: 2500.0}
    assert "Punkt 5" in adj.messages("de")[-1]


def test_point_7_opened_only_with_the_responder_present():
    adj = _sealed()
    adj.set_up()
    with pytest.raises(AdjournmentError) as err:
        adj.open(5000.0, responder_present=False)
    assert "Schwarz" in err.value.message("de") and "Punkt 7" in err.value.message("de")


def test_point_9a_responder_present_move_made_and_his_clock_started():
    adj = _sealed()
    adj.set_up()
    check = adj.open(5000.0)
    assert check.ok and adj.phase == Phase.RESUMED
    assert adj.board.move_stack[-1] == chess.Move.from_uci("b1d2")
    assert adj.clock_running == chess.BLACK and adj.used(chess.BLACK, 5030.0) == 2530.0
    assert "Punkt 9 a" in adj.messages("de")[-1] and "Sbd2" in adj.messages("de")[-1]


@pytest.mark.parametrize("text,result_key,point", [
    ("Sd2", "adj_loses_ambiguous", "8 a"),
    ("Zq9", "adj_loses_unreadable", "8 b"),
    ("Sd4", "adj_loses_illegal", "8 c"),
])
def test_point_8_a_bad_sealed_move_loses_at_resumption(text, result_key, point):
    adj = _sealed(text=text)
    adj.set_up()
    check = adj.open(5000.0)
    assert not check.ok and adj.phase == Phase.ENDED and adj.result == "0-1"
    assert adj.notes[-1].key == result_key and f"Punkt {point}" in adj.messages("de")[-1]
    assert adj.board.fen() == TWO_KNIGHTS  # nothing was played


def test_point_8_exceptions_the_game_had_ended_otherwise():
    # the responder's flag had fallen before: he lost, whatever was sealed
    adj = _sealed(text="Sd4")
    adj.set_up()
    adj.open(5000.0, responder_flag_fallen=True)
    assert adj.result == "1-0" and adj.notes[-1].key == "adj_over_flag"
    # a dead position (bare kings): drawn, the illegal sealed move does not matter
    dead = "8/8/4k3/8/8/3K4/8/8 w - - 0 70"
    adj = EnvelopeProcedure.begin(chess.Board(dead), white="A", black="B", white_used=0, black_used=0, now=0)
    adj.seal("Kz9")
    adj.stop_clock(1)
    adj.set_up()
    adj.open(10)
    assert adj.result == "1/2-1/2" and adj.notes[-1].key == "adj_over_before"


def test_point_9b_responder_absent_his_clock_runs_then_he_arrives():
    adj = _sealed()
    adj.set_up()
    adj.responder_absent(5000.0)
    assert adj.phase == Phase.WAITING and adj.clock_running == chess.BLACK
    with pytest.raises(AdjournmentError):
        adj.open(5100.0)  # the envelope stays closed while he is away
    assert adj.responder_arrives(5600.0)
    assert adj.black_used == 2500.0 + 600.0 and adj.black_remaining == 2900.0 - 600.0
    adj.open(5620.0)
    assert adj.phase == Phase.RESUMED and adj.used(chess.BLACK, 5640.0) == 3100.0 + 20.0


def test_point_9c_sealer_absent_reply_in_a_new_envelope():
    adj = _sealed()
    adj.set_up()
    adj.open(5000.0)
    reply = adj.reply_in_new_envelope(5100.0)
    assert reply.sealer == chess.BLACK and reply.phase == Phase.SEALING
    assert reply.black_used == 2600.0  # Black's clock ran from the opening
    reply.seal("Sc6")
    assert reply.sealed.ok
    e = reply.stop_clock(5160.0)
    assert e.sealer == chess.BLACK and e.black_used == 2660.0 and e.move_number == 3
    # the absent player's clock is started, the new envelope opened on his arrival
    assert reply.phase == Phase.WAITING and reply.clock_running == chess.WHITE
    assert reply.responder_arrives(5460.0)
    assert reply.white_used == 3060.0 + 300.0
    reply.open(5470.0)
    assert reply.board.move_stack[-1] == chess.Move.from_uci("b8c6") and reply.clock_running == chess.WHITE


def test_point_10_late_arrival_loses_unless_the_arbiter_decides_otherwise():
    adj = _sealed()
    adj.set_up()
    adj.responder_absent(0.0)
    assert not adj.responder_arrives(3700.0, default_time=3600.0)
    assert adj.result == "1-0" and "Punkt 10" in adj.messages("de")[-1]
    adj = _sealed()
    adj.set_up()
    adj.responder_absent(0.0)
    assert adj.responder_arrives(3700.0, default_time=3600.0, arbiter_excuses=True)
    # the sealer late
    adj = _sealed()
    adj.set_up()
    assert not adj.sealer_late(1000.0, default_time=900.0) and adj.result == "0-1"


def test_point_10_a_sealed_mate_stands_even_when_the_responder_is_late():
    adj = _sealed(MATE_IN_ONE, "Dxf7")
    adj.set_up()
    adj.responder_absent(0.0)
    assert not adj.responder_arrives(4000.0, default_time=3600.0)
    assert adj.result == "1-0" and adj.board.is_checkmate()


def test_point_11_nobody_present_the_responder_loses_the_time_until_he_arrives():
    adj = _sealed()
    adj.set_up()
    start = 9 * 3600.0
    adj.responder_absent(start)  # clock started at the starting time, nobody there
    assert adj.responder_arrives(start + 900.0, default_time=3600.0)
    assert adj.black_used == 2500.0 + 900.0 and adj.white_used == 3060.0


def test_point_12_lost_envelope():
    adj = _sealed()
    check = adj.envelope_lost("Sbd2", 5000.0)
    assert check.ok and adj.phase == Phase.RESUMED and adj.white_used == 3060.0
    assert "Punkt 12" in adj.messages("de")[-2]
    # what he states is checked like a sealed move
    adj = _sealed()
    adj.envelope_lost("Sd2", 5000.0)
    assert adj.result == "0-1"
    # the position cannot be re-established: annulled and replayed
    adj = _sealed()
    assert adj.envelope_lost(None, 5000.0, position_known=False) is None
    assert adj.phase == Phase.ANNULLED and adj.result is None and "Punkt 12" in adj.next_steps("de")[0]


def test_point_13_clock_correction_only_before_the_first_move():
    adj = _sealed()
    adj.set_up()
    assert adj.correct_clock(chess.BLACK, 2400.0)
    assert adj.black_used == 2400.0 and adj.black_remaining == 3000.0
    adj.open(5000.0)
    assert not adj.correct_clock(chess.WHITE, 100.0)
    assert adj.white_used == 3060.0 and "Punkt 13" in adj.messages("de")[-1]
    assert adj.correct_clock(chess.WHITE, 100.0, arbiter_finds_serious=True)


def test_next_steps_lead_through_the_formalities():
    adj = _adjourn()
    steps = adj.next_steps("de")
    assert len(steps) == 3 and "Uhr anhalten" in steps[2]
    adj.stop_clock(1001.0)
    assert "Punkt 2" in adj.next_steps("de")[0]
    adj.set_up()
    assert any("Schwarz" in s and "Punkt 7" in s for s in adj.next_steps("de"))
    assert all(s for s in adj.next_steps("en"))


def test_steps_out_of_order_are_refused():
    adj = _adjourn()
    with pytest.raises(AdjournmentError) as err:
        adj.set_up()
    assert "sealing" in err.value.message("en")
    with pytest.raises(AdjournmentError):
        adj.responder_absent(0.0)


# -- the command --------------------------------------------------------------------------

def test_cli_check(capsys):
    assert main(["envelope", "check", "Sd2", "--fen", TWO_KNIGHTS, "--lang", "de"]) == 1
    assert "Punkt 8 a" in capsys.readouterr().out
    assert main(["envelope", "check", "Nbd2", "--fen", TWO_KNIGHTS, "--lang", "en", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["uci"] == "b1d2"
    assert main(["envelope", "check", "e4", "--fen", "not a fen"]) == 2
    assert "FEN" in capsys.readouterr().err


def test_cli_show_from_journal_and_errors(tmp_path, capsys):
    from blindchess.journal import JournalWriter

    path = tmp_path / "j.jsonl"
    writer = JournalWriter(path)
    writer.append({"seq": 1, "type": "note", "t": 0.0, "text": "adjourned", **{
        k: v for k, v in _sealed().record().to_journal().items() if k != "type"}})
    writer.close()
    assert main(["envelope", "show", "--journal", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "(a) Players: White: Anna Blind – Black: Bert Seher" in out and "Nbd2" not in out
    assert main(["envelope", "show"]) == 2
    assert main(["envelope", "show", "--journal", str(tmp_path / "missing.jsonl")]) == 2
    assert main(["envelope", "show", "--fen", TWO_KNIGHTS, "--white-used", "soon"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_show_pdf_subprocess(tmp_path):
    out_pdf = tmp_path / "envelope.pdf"
    proc = subprocess.run([sys.executable, "-m", "blindchess", "envelope", "show", "--fen", TWO_KNIGHTS,
                           "--white", "Anna", "--black", "Bert", "--white-used", "0:51:00", "--black-used", "2500",
                           "--date", "1.12.2026", "--time", "10:00", "--venue", "Saal", "--pdf", str(out_pdf),
                           "--lang", "de"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "(c) Verbrauchte Bedenkzeit: Weiß 0:51:00, Schwarz 0:41:40" in proc.stdout
    assert out_pdf.read_bytes().startswith(b"%PDF-")


def test_a_chess960_adjournment_keeps_its_castling():
    from blindchess import chess960

    board = chess960.start_board(0)  # rooks on f1 and h1, king on g1
    for square in (chess.B1, chess.C1, chess.D1, chess.E1):  # clear the way for the c-side castling
        board.remove_piece_at(square)
    adj = EnvelopeProcedure.begin(board, white="A", black="B", white_used=0, black_used=0, now=0)
    assert adj.seal("0-0-0").ok
    e = adj.stop_clock(1)
    assert e.board().chess960 and e.board().fen() == board.fen()
    adj.set_up()
    adj.open(2)
    assert adj.board.king(chess.WHITE) == chess.C1 and adj.board.piece_type_at(chess.D1) == chess.ROOK


# -- the sealed move as a first-class session event (Guidelines I; hidden until opened) ------

def _adjourned_session(path):
    """A game from PGN, adjourned with White (blind) to seal 3. Sbd2; the events the commands returned."""
    from blindchess.game import Session

    pgn = '[White "Anna Blind"]\n[Black "Bert Seher"]\n[TimeControl "5400+30"]\n\n1. d4 d5 2. Nf3 Nf6 *'
    s = Session.from_pgn(pgn, now=0.0, visually_impaired="white", journal=path)
    seen = s.start_clock(0.0) + s.adjourn(100.0)
    adj = env.begin_from_session(s, 100.0)
    adj.seal("Sbd2")
    adj.stop_clock(130.0)
    record = adj.record()
    shown = s.seal(record.public(), record.hidden(), 131.0)
    return s, adj, seen + shown, shown


def _mentions_move(data) -> bool:
    if isinstance(data, GameEvent):
        data = [data]
    if isinstance(data, list):
        data = [to_json(e) if isinstance(e, GameEvent) else e for e in data]
    text = json.dumps(data, ensure_ascii=False)
    return "Sbd2" in text or "b1d2" in text


def test_a_subscriber_never_sees_the_sealed_move_before_the_envelope_is_opened(tmp_path):
    path = tmp_path / "game.jsonl"
    s, adj, seen, shown = _adjourned_session(path)
    sealed = [e for e in seen if isinstance(e, SealedMove)]
    assert len(sealed) == 1 and sealed[0].public["commitment"] == adj.record().envelope.commitment
    assert not _mentions_move(seen) and not _mentions_move(s.events) and not _mentions_move(shown)
    assert s.envelope_sealed and not _mentions_move(s.sealed_move())
    # the arbiter's envelope beside the journal keeps it (he opens it at resumption); the journal never
    # holds it in clear
    assert "Sbd2" not in path.read_text(encoding="utf-8")
    assert read_envelope(path)["hidden"]["written"] == "Sbd2"
    assert s.sealed_move(reveal=True).hidden["written"] == "Sbd2"
    s.close()


def test_after_reopening_the_sealed_move_is_still_hidden_until_opened(tmp_path):
    from blindchess.game import Session

    path = tmp_path / "game.jsonl"
    s, adj, _, _ = _adjourned_session(path)
    s.close()
    reopened = Session.open(path, 4000.0)
    seen = reopened.note("resumption prepared", 4001.0)
    assert reopened.envelope_sealed
    assert not _mentions_move(reopened.events) and not _mentions_move(seen)
    assert [type(e) for e in reopened.events].count(SealedMove) == 1
    assert not _mentions_move(Session.load(path).events)  # the read-only replay too
    reopened.close()


def test_after_opening_the_sealed_move_is_visible(tmp_path):
    from blindchess.game import Session

    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    s.close()
    reopened = Session.open(path, 4000.0)
    record = SealedRecord.from_journal(to_json(reopened.sealed_move(reveal=True)))   # the arbiter's side
    resumed = EnvelopeProcedure.restore(record, reopened.game_board())
    resumed.set_up()
    assert resumed.open(5000.0, record=record).ok
    seen = reopened.open_envelope(5000.0)
    opened = seen[0]
    assert isinstance(opened, EnvelopeOpened) and opened.hidden["written"] == "Sbd2"
    # nothing before the opening showed it; the opening makes the sealed move (Guidelines I.9 a)
    assert [type(e) for e in seen][:2] == [EnvelopeOpened, MoveMade] and seen[1].uci == "b1d2"
    assert not reopened.envelope_sealed
    sealed = next(e for e in reopened.events if isinstance(e, SealedMove))
    assert sealed.hidden["written"] == "Sbd2"
    public = [to_json(e) for e in reopened.events]
    assert env.public_view(to_json(sealed), public) == to_json(sealed)
    with pytest.raises(ValueError):
        reopened.open_envelope(5001.0)  # nothing left to open
    assert reopened.game_moves[-1] == chess.Move.from_uci("b1d2")
    reopened.close()
    # and it stays open after the next reopening
    again = Session.open(path, 6000.0)
    assert not again.envelope_sealed and again.sealed_move().hidden["written"] == "Sbd2"
    assert again.game_moves[-1] == chess.Move.from_uci("b1d2")
    again.close()


@pytest.mark.parametrize("fen", ["8/8/8/8/8/8/8/8 w - - 0 1",                  # no kings
                                 "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",             # a pawn on the first rank
                                 "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"])           # the side not to move in check
def test_a_position_that_cannot_arise_is_refused(capsys, fen):
    # QA: an empty board was accepted and "e4" judged "regelwidrig" (point 8 c) there
    with pytest.raises(ValueError):
        env.board_from_fen(fen)
    assert main(["envelope", "check", "e4", "--fen", fen]) == 2
    assert "FEN" in capsys.readouterr().err


def test_cli_show_unusable_paths_are_plain_german(tmp_path, capsys, monkeypatch):
    # QA: "--pdf FOLDER" gave Qt's "QPainter::begin(): Returned false" and "kann nicht geschrieben werden: -";
    # "--journal FOLDER" the OS's English "Is a directory"
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(tmp_path)]) == 2
    assert "das ist ein Ordner" in capsys.readouterr().err
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(tmp_path / "fehlt" / "u.pdf")]) == 2
    assert "den Ordner gibt es nicht" in capsys.readouterr().err
    assert main(["envelope", "show", "--journal", str(tmp_path)]) == 2
    assert "das ist ein Ordner" in capsys.readouterr().err


def test_an_envelope_without_player_names_says_they_are_not_given():
    # QA round 2: "Weiß:  – Schwarz: " and "(d) ... :  (Weiß)" with empty names
    adj = EnvelopeProcedure.begin(chess.Board(TWO_KNIGHTS), white="", black="  ", white_used=3000.0, black_used=2500.0,
                            now=1000.0, nonce="fixed-nonce")
    adj.seal("Sbd2")
    e = adj.stop_clock(1060.0)
    assert (e.white, e.black) == ("", "  ")          # the record keeps what was given
    assert "a" in e.missing()
    de, en = e.text("de"), e.text("en")
    assert "Weiß: (nicht angegeben) – Schwarz: (nicht angegeben)" in de
    assert "(not given) (White)" in en and "White: (not given) – Black: (not given)" in en
    assert "Weiß:  –" not in de


def test_point_1_one_minute_to_the_end_of_the_session_is_singular():
    # QA round 2: "(1 Minuten, Punkt 1)"
    adj = _adjourn(now=1000.0)
    adj.stop_clock(1060.0, session_end=1060.0 + 60.0)
    assert any("(1 Minute, Punkt 1)" in m for m in adj.messages("de"))
    assert any("(1 minute, point 1)" in m for m in adj.messages("en"))
    adj = _adjourn(now=1000.0)
    adj.stop_clock(1060.0, session_end=1060.0 + 1800.0)
    assert any("(30 Minuten, Punkt 1)" in m for m in adj.messages("de"))


def test_cli_show_pdf_never_says_written_when_the_target_was_not_replaced(tmp_path, capsys, monkeypatch):
    # Issue 14.13: "PDF geschrieben" although the old file stayed (Qt wrote in place, a failure went unnoticed)
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    target = tmp_path / "umschlag.pdf"
    target.write_bytes(b"old envelope")

    def cannot_replace(src, dst):
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    real_replace = os.replace
    monkeypatch.setattr(files.os, "replace", cannot_replace)
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(target)]) == 2
    out, err = capsys.readouterr()
    assert "PDF geschrieben" not in out
    assert err.strip().splitlines() == [f"{target} kann nicht geschrieben werden: keine Berechtigung"]
    assert target.read_bytes() == b"old envelope"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["umschlag.pdf"]   # no temporary file left
    monkeypatch.setattr(files.os, "replace", real_replace)
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(target)]) == 0
    assert "PDF geschrieben" in capsys.readouterr().out
    assert target.read_bytes().startswith(b"%PDF-")
