"""Adjourned games (FIDE Laws, Guidelines I): the sealed move checked, the envelope, the move hidden until the opening."""

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

from blindchess.base import files
from blindchess.cli import main
from blindchess.game.events import EnvelopeLost, EnvelopeOpened, GameEvent, MoveMade, SealedMove, to_json
from blindchess.laws import adjournment as env
from blindchess.storage.journal import read_envelope

# 1. d4 d5 2. Sf3 Sf6: both white knights can reach d2 -> "Sd2" is ambiguous.
TWO_KNIGHTS = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3"
# White to move, Qh5xf7 is mate (scholar's mate position).
MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


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
    pytest.importorskip("blindchess.language.phonetic")
    board = chess.Board(TWO_KNIGHTS)
    ok = env.check_sealed_move(board, "Springer Bella David zwei", "de", spoken=True)
    assert ok.ok and ok.move == chess.Move.from_uci("b1d2")
    ambiguous = env.check_sealed_move(board, "Springer David zwei", "de", spoken=True)
    assert ambiguous.problem == "ambiguous" and set(ambiguous.candidates) == {
        chess.Move.from_uci("b1d2"), chess.Move.from_uci("f3d2")}
    assert env.check_sealed_move(board, "Springer David vier", "de", spoken=True).problem == "illegal"
    assert env.check_sealed_move(board, "Kaffee bitte", "de", spoken=True).problem == "unreadable"


# -- point 2: the envelope -------------------------------------------------------------

# -- points 3-6: between the sessions ------------------------------------------------------

# -- points 5, 7, 8, 9: resumption ---------------------------------------------------------

@pytest.mark.parametrize("text,result_key,point", [
    ("Sd2", "adj_loses_ambiguous", "8 a"),
    ("Zq9", "adj_loses_unreadable", "8 b"),
    ("Sd4", "adj_loses_illegal", "8 c"),
])
def _envelope(fen: str = TWO_KNIGHTS, *, white: str = "Anna Blind", black: str = "Bert Seher",
              written: str = "Sbd2", **kw) -> env.Envelope:
    """The envelope the table seals (``blindchess.table.adjournment``): White seals his third move."""
    board = env.board_from_fen(fen)
    fields = dict(white=white, black=black, position=board.fen(), white_used=3060.0, black_used=2500.0,
                  sealer=board.turn, move_number=board.fullmove_number, white_remaining=2340.0,
                  black_remaining=2900.0, commitment=env.commitment(board.fen(), written, "fixed-nonce"))
    fields.update(kw)
    return env.Envelope(**fields)


# -- point 2: the envelope ---------------------------------------------------------------

def test_point_2_envelope_fields_a_to_g():
    e = _envelope(draw_offer=chess.BLACK, event="Blindenschach-EM", round="5",
                  resumption=env.Resumption("2026-12-01", "10:00", "Spielsaal 2"))
    assert e.sealer == chess.WHITE and e.sealer_name == "Anna Blind" and e.move_number == 3      # (d), (e)
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


def test_point_2_a_draw_offer_written_with_the_sealed_move_is_read():
    check = env.check_sealed_move(chess.Board(TWO_KNIGHTS), "Sbd2 (=)", "de")
    assert check.ok and check.draw_offer and check.move == chess.Move.from_uci("b1d2")


def test_point_2_printable_pdf(tmp_path):
    pytest.importorskip("PySide6.QtGui")
    from blindchess.adapters.exports.envelope_pdf import write_envelope_pdf

    e = _envelope(resumption=env.Resumption("2026-12-01", "10:00", "Spielsaal 2"))
    path = write_envelope_pdf(e, tmp_path / "umschlag.pdf", "de")
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
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


def test_the_commitment_binds_the_move_without_telling_it():
    e = _envelope()
    assert e.commitment == env.commitment(TWO_KNIGHTS, "Sbd2", "fixed-nonce")
    assert e.commitment != env.commitment(TWO_KNIGHTS, "Sfd2", "fixed-nonce")   # another move: another sum
    assert "Sbd2" not in json.dumps(e.to_dict())


def test_an_envelope_without_player_names_says_they_are_not_given():
    e = _envelope(white="", black="  ")
    assert (e.white, e.black) == ("", "  ")          # the record keeps what was given
    assert "a" in e.missing()
    de, en = e.text("de"), e.text("en")
    assert "Weiß: (nicht angegeben) – Schwarz: (nicht angegeben)" in de
    assert "(not given) (White)" in en and "White: (not given) – Black: (not given)" in en
    assert "Weiß:  –" not in de


def test_a_chess960_sealed_move_keeps_its_castling():
    from blindchess.laws import chess960

    board = chess960.start_board(0)  # rooks on f1 and h1, king on g1
    for square in (chess.B1, chess.C1, chess.D1, chess.E1):  # clear the way for the c-side castling
        board.remove_piece_at(square)
    check = env.check_sealed_move(board, "0-0-0", "de")
    assert check.ok and board.is_castling(check.move)
    e = _envelope(board.fen())
    assert e.board().chess960 and e.board().fen() == board.fen()
    after = e.board()
    after.push(check.move)
    assert after.king(chess.WHITE) == chess.C1 and after.piece_type_at(chess.D1) == chess.ROOK


def test_cli_show_from_journal_and_errors(tmp_path, capsys):
    from blindchess.storage.journal import JournalWriter

    path = tmp_path / "j.jsonl"
    writer = JournalWriter(path)
    writer.append({"seq": 1, "type": "sealed-move", "t": 0.0, "by": "white", "public": _envelope().to_dict()})
    writer.close()
    assert main(["envelope", "show", "--journal", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "(a) Players: White: Anna Blind – Black: Bert Seher" in out and "Nbd2" not in out
    assert main(["envelope", "show"]) == 2
    assert main(["envelope", "show", "--journal", str(tmp_path / "missing.jsonl")]) == 2
    assert main(["envelope", "show", "--fen", TWO_KNIGHTS, "--white-used", "soon"]) == 2
    assert "Traceback" not in capsys.readouterr().err


# -- the sealed move in a game (Guidelines I; hidden until the envelope is opened) ----------

def _adjourned_session(path):
    """A game from PGN, adjourned with White (blind) to seal 3. Sbd2; the events the commands returned."""
    from blindchess.game import Session

    pgn = '[White "Anna Blind"]\n[Black "Bert Seher"]\n[TimeControl "5400+30"]\n\n1. d4 d5 2. Nf3 Nf6 *'
    s = Session.from_pgn(pgn, now=0.0, visually_impaired="white", journal=path)
    seen = s.start_clock(0.0) + s.adjourn(100.0)
    envelope = _envelope(s.game_board().fen())
    hidden = {"written": "Sbd2", "lang": "de", "spoken": False, "nonce": "fixed-nonce"}
    shown = s.seal(envelope.to_dict(), hidden, 131.0)
    return s, envelope, seen + shown, shown


def _mentions_move(data) -> bool:
    if isinstance(data, GameEvent):
        data = [data]
    if isinstance(data, list):
        data = [to_json(e) if isinstance(e, GameEvent) else e for e in data]
    text = json.dumps(data, ensure_ascii=False)
    return "Sbd2" in text or "b1d2" in text


def test_nothing_returned_or_journaled_shows_the_sealed_move_before_the_envelope_is_opened(tmp_path):
    path = tmp_path / "game.jsonl"
    s, envelope, seen, shown = _adjourned_session(path)
    sealed = [e for e in seen if isinstance(e, SealedMove)]
    assert len(sealed) == 1 and sealed[0].public["commitment"] == envelope.commitment
    assert not _mentions_move(seen) and not _mentions_move(s.events) and not _mentions_move(shown)
    assert s.snapshot.envelope_sealed and s.clock.paused and not _mentions_move(s.sealed_move())
    # the arbiter's envelope beside the journal keeps it (he opens it at resumption); the journal never
    # holds it in clear
    assert "Sbd2" not in path.read_text(encoding="utf-8")
    assert read_envelope(path)["hidden"]["written"] == "Sbd2"
    assert s.sealed_move(reveal=True).hidden["written"] == "Sbd2"
    s.close()


def test_after_reopening_the_sealed_move_is_still_hidden_until_opened(tmp_path):
    from blindchess.game import Session

    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    s.close()
    reopened = Session.open(path, 4000.0)
    seen = reopened.note("resumption prepared", 4001.0)
    assert reopened.snapshot.envelope_sealed
    assert not _mentions_move(reopened.events) and not _mentions_move(seen)
    assert [type(e) for e in reopened.events].count(SealedMove) == 1
    assert not _mentions_move(Session.load(path).events)  # the read-only replay too
    reopened.close()


def test_the_opening_makes_the_sealed_move_and_shows_it(tmp_path):
    from blindchess.game import Session

    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    s.close()
    reopened = Session.open(path, 4000.0)
    seen = reopened.open_envelope(5000.0)
    opened = seen[0]
    assert isinstance(opened, EnvelopeOpened) and opened.hidden["written"] == "Sbd2"
    # nothing before the opening showed it; the opening makes the sealed move (Guidelines I.9 a)
    assert [type(e) for e in seen][:2] == [EnvelopeOpened, MoveMade] and seen[1].uci == "b1d2"
    assert not reopened.snapshot.envelope_sealed
    assert reopened.clock.running == chess.BLACK and not reopened.clock.paused
    assert reopened.board("sighted").fen() == reopened.board("tactile").fen() == reopened.game_board().fen()
    sealed = next(e for e in reopened.events if isinstance(e, SealedMove))
    assert sealed.hidden["written"] == "Sbd2"
    with pytest.raises(ValueError):
        reopened.open_envelope(5001.0)  # nothing left to open
    reopened.close()
    # and it stays open after the next reopening
    again = Session.open(path, 6000.0)
    assert not again.snapshot.envelope_sealed and again.sealed_move().hidden["written"] == "Sbd2"
    assert again.snapshot.game_moves[-1] == chess.Move.from_uci("b1d2")
    again.close()


def test_an_envelope_whose_move_does_not_match_its_commitment_is_not_opened(tmp_path):
    from blindchess.game import Session
    from blindchess.storage.journal import envelope_path

    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    s.close()
    kept = json.loads(envelope_path(path).read_text(encoding="utf-8"))
    kept["hidden"]["written"] = "Sfd2"                     # someone changed the move in the envelope
    envelope_path(path).write_text(json.dumps(kept), encoding="utf-8")
    reopened = Session.open(path, 4000.0)
    with pytest.raises(ValueError):
        reopened.open_envelope(5000.0)
    assert reopened.snapshot.envelope_sealed and reopened.snapshot.plies == 4 and reopened.envelope_problem() == "mismatch"
    reopened.close()


@pytest.mark.parametrize("damage", ["deleted", "another game's", "changed"])
def test_a_lost_envelope_play_goes_on_from_the_adjourned_position_and_stays_so_after_a_restart(tmp_path, damage):
    from blindchess.game import Session
    from blindchess.storage.journal import envelope_path

    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    used = {c: s.clock.remaining(c, 131.0) for c in chess.COLORS}
    s.close()
    kept = json.loads(envelope_path(path).read_text(encoding="utf-8"))
    if damage == "deleted":
        envelope_path(path).unlink()
    elif damage == "another game's":
        kept["seq"] += 7
        envelope_path(path).write_text(json.dumps(kept), encoding="utf-8")
    else:
        kept["hidden"]["written"] = "e3"
        envelope_path(path).write_text(json.dumps(kept), encoding="utf-8")
    reopened = Session.open(path, 90000.0)
    why = "mismatch" if damage == "changed" else "missing"
    assert reopened.envelope_problem() == why
    with pytest.raises(ValueError):
        reopened.open_envelope(90005.0)
    seen = reopened.resume_without_envelope(90010.0)
    assert [type(e) for e in seen] == [EnvelopeLost] and (seen[0].color, seen[0].reason) == ("white", why)
    # Guidelines I.12: the adjourned position, the sealer to move, the times recorded at the adjournment,
    # his clock running from the resumption; the envelope is never opened
    assert not reopened.snapshot.envelope_sealed and not reopened.snapshot.adjourned and reopened.snapshot.plies == 4
    assert reopened.snapshot.to_move == chess.WHITE and reopened.clock.running == chess.WHITE and not reopened.clock.paused
    assert reopened.clock.remaining(chess.WHITE, 90015.0) == pytest.approx(used[chess.WHITE] - 5.0)
    assert reopened.clock.remaining(chess.BLACK, 90015.0) == pytest.approx(used[chess.BLACK])
    assert not _mentions_move(seen) and not _mentions_move(reopened.events)
    with pytest.raises(ValueError):
        reopened.resume_without_envelope(90011.0)       # nothing left to resume
    reopened.close()
    again = Session.open(path, 90020.0)                   # the journal holds the resumption
    assert not again.snapshot.adjourned and again.snapshot.to_move == chess.WHITE and again.envelope_problem() is None
    again.close()


def test_an_envelope_that_can_be_opened_is_not_passed_over(tmp_path):
    path = tmp_path / "game.jsonl"
    s, _, _, _ = _adjourned_session(path)
    assert s.envelope_problem() is None
    with pytest.raises(ValueError):
        s.resume_without_envelope(200.0)                  # the arbiter opens it (I.7)
    assert s.snapshot.envelope_sealed
    s.close()


# -- the command --------------------------------------------------------------------------

def test_cli_check(capsys):
    assert main(["envelope", "check", "Sd2", "--fen", TWO_KNIGHTS, "--lang", "de"]) == 1
    assert "Punkt 8 a" in capsys.readouterr().out
    assert main(["envelope", "check", "Nbd2", "--fen", TWO_KNIGHTS, "--lang", "en", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["uci"] == "b1d2"
    assert main(["envelope", "check", "e4", "--fen", "not a fen"]) == 2
    assert "FEN" in capsys.readouterr().err


def test_cli_show_pdf_subprocess(tmp_path):
    out_pdf = tmp_path / "envelope.pdf"
    proc = subprocess.run([sys.executable, "-m", "blindchess", "envelope", "show", "--fen", TWO_KNIGHTS,
                           "--white", "Anna", "--black", "Bert", "--white-used", "0:51:00", "--black-used", "2500",
                           "--date", "1.12.2026", "--time", "10:00", "--venue", "Saal", "--pdf", str(out_pdf),
                           "--lang", "de"], capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "(c) Verbrauchte Bedenkzeit: Weiß 0:51:00, Schwarz 0:41:40" in proc.stdout
    assert out_pdf.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("fen", ["8/8/8/8/8/8/8/8 w - - 0 1",                  # no kings
                                 "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",             # a pawn on the first rank
                                 "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"])           # the side not to move in check
def test_a_position_that_cannot_arise_is_refused(capsys, fen):
    # an empty board was accepted and "e4" judged "regelwidrig" (point 8 c) there
    with pytest.raises(ValueError):
        env.board_from_fen(fen)
    assert main(["envelope", "check", "e4", "--fen", fen]) == 2
    assert "FEN" in capsys.readouterr().err


def test_cli_show_unusable_paths_are_plain_german(tmp_path, capsys, monkeypatch):
    # "--pdf FOLDER" gave Qt's "QPainter::begin(): Returned false" and "kann nicht geschrieben werden: -";
    # "--journal FOLDER" the OS's English "Is a directory"
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(tmp_path)]) == 2
    assert "das ist ein Ordner" in capsys.readouterr().err
    assert main(["envelope", "show", "--fen", fen, "--pdf", str(tmp_path / "fehlt" / "u.pdf")]) == 2
    assert "den Ordner gibt es nicht" in capsys.readouterr().err
    assert main(["envelope", "show", "--journal", str(tmp_path)]) == 2
    assert "das ist ein Ordner" in capsys.readouterr().err


def test_cli_show_pdf_never_says_written_when_the_target_was_not_replaced(tmp_path, capsys, monkeypatch):
    # "PDF geschrieben" although the old file stayed (Qt wrote in place, a failure went unnoticed)
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
