"""Game records: sources (PGN, journal), PGN export, the spoken score (WAV), the PDF scoresheet."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import wave
from array import array
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.adapters.exports import audio, pgn_export, source
from blindchess.base.errors import UserError
from blindchess.records import braille
from tests.support.games import as_game, chess960_game, features, journal_game, rich_game, special_game
from tests.support.paths import ARTIFACTS


def read_pgn(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    return game


# --------------------------------------------------------------------------- sources

def test_pgn_file_is_read(tmp_path):
    start, moves = rich_game()
    path = tmp_path / "game.pgn"
    path.write_text(str(as_game(start, moves, White="Müller")), encoding="utf-8")
    game = source.load_game(path)
    assert list(game.mainline_moves()) == moves and game.headers["White"] == "Müller"


@pytest.mark.parametrize("content,key", [
    ("1. e4 e5 2. Ke3 Nc6 *", "Ke3"),
    ('[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxe8 *', "Bxe8"),
])
def test_pgn_with_an_illegal_move_is_refused_in_german(tmp_path, content, key):
    path = tmp_path / "bad.pgn"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError) as info:
        source.load_game(path)
    assert key in info.value.message and "fehlerhaft" in info.value.message


@pytest.mark.parametrize("data", [b"", b"garbage text only", b"\x00\x01\xff\xfe junk"])
def test_no_game_at_all(tmp_path, data):
    path = tmp_path / "x.pgn"
    path.write_bytes(data)
    with pytest.raises(UserError) as info:
        source.load_game(path, "en")
    assert "holds no game" in info.value.message


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(UserError, match="gibt es nicht"):
        source.load_game(tmp_path / "nope.pgn")
    with pytest.raises(UserError, match="Ordner"):
        source.load_game(tmp_path)




def test_journal_is_read_through_the_session_and_left_untouched(tmp_path):
    path = tmp_path / "game.jsonl"
    moves = journal_game(path)
    before = path.read_bytes()
    game = source.load_game(path)
    assert path.read_bytes() == before  # exporting never writes to the journal
    assert list(game.mainline_moves()) == moves
    pgn = pgn_export.to_pgn(game)
    assert "[%clk" in pgn and "[%emt" in pgn and "D.2.2" in pgn and "e6" in pgn
    assert list(read_pgn(pgn).mainline_moves()) == moves


def test_broken_journal(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"seq": 1, "type": "nonsense"}\nnot json at all\n', encoding="utf-8")
    with pytest.raises(UserError) as info:
        source.load_game(path)
    assert str(path) in info.value.message
    assert ".blindchess" not in info.value.message and "blindchess-export" not in info.value.message


# --------------------------------------------------------------------------- PGN

def test_pgn_export_is_standard_and_keeps_clocks():
    start, moves = rich_game()
    game = as_game(start, moves, White="Müller, Anna", Black="Smith, John", Event="IBCA Open 2026")
    for i, node in enumerate(game.mainline()):
        node.set_clock(5400 - 10 * i)
        node.comment += " score: written 'Sf3'" if i == 3 else ""
    text = pgn_export.to_pgn(game)
    assert text.endswith("\n\n")
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    tags = [re.match(r'\[(\w+) "', line).group(1) for line in lines if line.startswith("[")]
    assert tags[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    back = read_pgn(text)
    assert list(back.mainline_moves()) == moves
    nodes = list(back.mainline())
    assert [n.clock() for n in nodes] == [5400 - 10 * i for i in range(len(moves))]
    assert "written 'Sf3'" in nodes[3].comment


def test_pgn_export_of_chess960():
    start, moves = chess960_game()
    game = as_game(start, moves)
    del game.headers["Event"]
    text = pgn_export.to_pgn(game)
    assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text and '[Event "?"]' in text
    back = read_pgn(text)
    assert back.board().chess960 and back.board().fen() == start.fen()
    assert list(back.mainline_moves()) == moves


# --------------------------------------------------------------------------- spoken score

def short_game() -> chess.pgn.Game:
    board = chess.Board()
    moves = [board.push_san(san) for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O")]
    return as_game(chess.Board(), moves, White="Anna", Black="Bob", Result="1-0")


def test_spoken_score_phrases():
    from blindchess.language.phonetic import announce

    phrases = audio.game_phrases(short_game(), "de")
    assert phrases[0] == "Anna gegen Bob."
    assert phrases[1] == "Zug 1: " + announce(chess.Board(), chess.Move.from_uci("e2e4"), "de")
    assert phrases[2] == announce(chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
                                  chess.Move.from_uci("e7e5"), "de")
    assert phrases[-2].startswith("Zug 4: ") and phrases[-1] == "Weiß gewinnt."
    english = audio.game_phrases(short_game(), "en")
    assert english[1].startswith("Move 1: ") and english[-1] == "White wins."


def wav_stats(path: Path) -> tuple[float, float]:
    with wave.open(str(path), "rb") as w:
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array("h", frames)
    rms = (sum(s * s for s in samples[::8]) / max(1, len(samples[::8]))) ** 0.5
    return seconds, rms


def test_spoken_chess960_score_names_the_start_position():
    from blindchess.laws.chess960 import describe

    start, moves = chess960_game()
    phrases = audio.game_phrases(as_game(start, moves[:4], White="Anna", Black="Bob"), "de")
    assert phrases[1] == describe(start.chess960_pos(), "de")
    assert phrases[2].startswith("Zug 1: ")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_spoken_score_wav_is_real_speech(tmp_path):
    target = tmp_path / "game.wav"
    audio.export_wav(short_game(), target, "de", pause=0.3)
    seconds, rms = wav_stats(target)
    assert seconds > 6  # nine phrases of speech
    assert rms > 300  # not silence
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".blindchess")]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_spoken_score_one_file_per_move(tmp_path):
    folder = tmp_path / "moves"
    paths = audio.export_wav_per_move(as_game(chess.Board(), [chess.Move.from_uci("e2e4"),
                                                              chess.Move.from_uci("e7e5")]), folder, "de")
    assert [p.name for p in paths] == ["001-w.wav", "002-b.wav"]
    for path in paths:
        seconds, rms = wav_stats(path)
        assert 0.3 < seconds < 6 and rms > 300


# --------------------------------------------------------------------------- PDF scoresheet

def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext"):
        return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                              check=True).stdout
    pytest.skip("pdftotext (poppler-utils) not installed")


def pdf_pages(path: Path) -> int:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    return len(re.findall(rb"/Type\s*/Page\b", data))


def test_scoresheet_pdf(tmp_path):
    from blindchess.adapters.exports import scoresheet_pdf

    start, moves = rich_game()
    game = as_game(start, moves, White="Müller, Anna", Black="Иванов, Пётр", Event="IBCA Open",
                   Site="Berlin", Date="2026.11.29", Round="3", Board="12")
    target = tmp_path / "sheet.pdf"
    scoresheet_pdf.write_scoresheet_pdf(game, target, "de")
    assert pdf_pages(target) == 1  # 36 moves fit the two blocks of 30
    text = pdf_text(target)
    for expected in ("Partieformular", "Müller, Anna", "Иванов, Пётр", "IBCA Open", "Berlin", "Unterschrift",
                     "29.11.2026"):
        assert expected in text
    sheet = scoresheet_pdf.sheet_from_game(game, "de")
    first_white = sheet.rows[0][1]
    assert re.search(rf"\b1\s+{re.escape(first_white)}\b", text)
    assert any("0-0" in w or "0-0" in b for _, w, b in sheet.rows)
    assert game.headers["Result"].replace("1/2", "½") in text
    if shutil.which("pdftoppm"):  # the PDF itself, rasterised, for a human look at the layout
        ARTIFACTS.mkdir(exist_ok=True)
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", str(target),
                        str(ARTIFACTS / "scoresheet-pdf-page1")], check=True)
        assert (ARTIFACTS / "scoresheet-pdf-page1.png").stat().st_size > 10_000


def test_long_game_takes_more_pages_and_renders(tmp_path):
    from blindchess.adapters.exports import scoresheet_pdf

    start, moves = special_game(11, plies=260)
    assert len(moves) > 2 * 60
    game = as_game(start, moves, White="A", Black="B")
    target = tmp_path / "long.pdf"
    scoresheet_pdf.write_scoresheet_pdf(game, target, "en")
    pages = (len(moves) + 1) // 2 // 60 + 1
    assert pdf_pages(target) == pages
    text = pdf_text(target)
    assert f"Page {pages} of {pages}" in text and "121" in text
    ARTIFACTS.mkdir(exist_ok=True)
    png = scoresheet_pdf.render_png(game, ARTIFACTS / "scoresheet-page2.png", "en", page=1, dpi=60)
    assert png.read_bytes().startswith(b"\x89PNG")


def test_scoresheet_of_chess960_names_the_start_position(tmp_path):
    from blindchess.adapters.exports import scoresheet_pdf

    start, moves = chess960_game()
    sheet = scoresheet_pdf.sheet_from_game(as_game(start, moves), "de")
    assert sheet.fields["variant"].endswith(str(start.chess960_pos()))


def test_braille_of_a_pgn_source(tmp_path):
    start, moves = rich_game()
    path = tmp_path / "g.pgn"
    path.write_text(str(as_game(start, moves)), encoding="utf-8")
    assert braille.read_brf(braille.game_to_brf(source.load_game(path), "nl"), lang="nl").moves == moves
    assert {"castling", "promotion"} <= features(start, moves)
