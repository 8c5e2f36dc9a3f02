"""The records as files, looked at as a reader gets them: the envelope PDF's text and its size on A4, every
export format on standard output (``-o -``), ``[%clk]`` on every move (the mating move too) read back with
python-chess, PGN comments in the language asked for, a set-up start position in the BRF's first page and on
the PDF scoresheet."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.cli import main
from blindchess.records import braille

# The blind player (White) mates on the back rank from a set-up position: 30. h3 b6 31. Ta8#.
# The mating move ends the game; no clock press follows it (FIDE Laws 5.1.1, 6.2.1).
MATE_SCENARIO = """\
@white Bernd Blind
@black Sabine Sehend
@blind white
@time 15+10
@start 6k1/1p3ppp/8/8/8/8/5PPP/R5K1 w - - 0 30
1.0  peg     L h2
1.4  peg     P h3
2.0  blind   says Hector drei
3.0  clock   press white
4.0  sighted move h2h3
6.0  sighted move b7b6
7.0  clock   press black
9.0  peg     L b7
9.4  peg     P b6
11.0 peg     L a1
11.4 peg     P a8
12.0 blind   says Turm Anna acht matt
13.0 sighted move a1a8
"""
START = chess.Board("6k1/1p3ppp/8/8/8/8/5PPP/R5K1 w - - 0 30")
POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdfinfo") is not None
needs_poppler = pytest.mark.skipif(not POPPLER, reason="poppler-utils (pdftotext, pdfinfo): see Makefile TEST_DEBS")


@pytest.fixture(scope="module")
def mate_journal(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("mate")
    script = folder / "mate.scn"
    script.write_text(MATE_SCENARIO, encoding="utf-8")
    journal = folder / "mate.jsonl"
    assert main(["scenario", "run", "--journal", str(journal), str(script)]) == 0
    return journal


def _export(capsysbinary, journal: Path, *args: str) -> bytes:
    capsysbinary.readouterr()
    assert main(["export", str(journal), *args, "-o", "-"]) == 0
    out = capsysbinary.readouterr()
    return out.out


def _words(pdf: Path) -> list[tuple[str, float, float, float, float]]:
    """(text, xMin, yMin, xMax, yMax) of every word, in points from the page's top left (pdftotext -bbox)."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [(m.group(5), float(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)))
            for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                                 html)]


# --------------------------------------------------------------------------- the envelope

@needs_poppler
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_envelope_pdf_is_a4_with_text_of_a_readable_size_over_the_page(tmp_path, lang):
    pytest.importorskip("PySide6.QtGui")
    from blindchess.adapters.exports.envelope_pdf import write_envelope_pdf
    from blindchess.laws.adjournment import Envelope, Resumption

    envelope = Envelope(white="Anna Blind", black="Bert Seher",
                        position="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                        white_used=3060, black_used=2900, sealer=chess.WHITE, move_number=3,
                        resumption=Resumption(date="1.12.2026", time="10:00", venue="Spielsaal 2"))
    pdf = write_envelope_pdf(envelope, tmp_path / "envelope.pdf", lang)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Page size:\s+595(\.\d+)? x 842(\.\d+)? pts \(A4\)", info)
    words = _words(pdf)
    text = " ".join(w[0] for w in words)
    assert "Anna" in text and "Seher" in text and "0:51:00" in text and "Spielsaal" in text
    heights = [w[4] - w[2] for w in words]
    # poppler's word box is the font's ascent to descent (about 1.1 to 1.2 x the size): every word is 9 pt or more
    assert min(heights) >= 9.5, sorted(heights)[:5]
    names = [w for w in words if w[0] in ("Anna", "Bert")]
    assert all(10.5 <= w[4] - w[2] <= 14.5 for w in names)   # the body text: 11 pt
    # inside 18 mm (51 pt) margins, from the top left to the right margin: not a stamp in a corner
    assert min(w[1] for w in words) >= 50 and min(w[2] for w in words) >= 50
    assert max(w[3] for w in words) > 480 and max(w[3] for w in words) <= 595 - 50
    assert max(w[4] for w in words) > 300   # the diagram and the closing line reach down the page


# --------------------------------------------------------------------------- -o -

@pytest.mark.parametrize(("fmt", "head"), [("pgn", b"[Event "), ("brf", b"BERND BLIND"), ("braille", "⠃⠑⠗⠝⠙".encode()),
                                           ("pdf", b"%PDF-"), ("wav", b"RIFF")])
def test_every_format_goes_to_standard_output_with_o_dash(mate_journal, capsysbinary, tmp_path, monkeypatch, fmt,
                                                          head):
    if fmt == "pdf":
        pytest.importorskip("PySide6.QtGui")
    if fmt == "wav" and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng: see Makefile RUN_DEBS")
    monkeypatch.chdir(tmp_path)
    data = _export(capsysbinary, mate_journal, "--format", fmt)
    assert data.startswith(head), data[:40]
    assert not (tmp_path / "-").exists()                        # no file named "-"
    capsysbinary.readouterr()
    assert main(["export", str(mate_journal), "--format", fmt, "-o", str(tmp_path / f"game.{fmt}")]) == 0
    written = (tmp_path / f"game.{fmt}").read_bytes()
    if fmt in ("pgn", "brf", "braille", "wav"):
        assert data == written                                  # exactly the file's bytes, nothing else
    else:
        assert len(data) > 1000 and data.rstrip().endswith(b"%%EOF")


def test_wav_per_move_to_standard_output_is_refused_in_one_line(mate_journal, capsys):
    assert main(["--lang", "en", "export", str(mate_journal), "--format", "wav", "--per-move", "-o", "-"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--per-move" in err


# --------------------------------------------------------------------------- PGN

def test_every_move_has_its_clock_the_mating_move_too(mate_journal, capsysbinary):
    game = chess.pgn.read_game(io.StringIO(_export(capsysbinary, mate_journal).decode("utf-8")))
    assert game is not None and game.headers["Result"] == "1-0" and game.headers["FEN"] == START.fen()
    nodes = list(game.mainline())
    assert [n.san() for n in nodes] == ["h3", "b6", "Ra8#"]
    assert all(n.clock() is not None for n in nodes)
    # White pressed at 3.0 (15:00 − 3 s + 10 s = 15:07), Black at 7.0; White mated at 12.0 after 5 s, no press
    assert [n.clock() for n in nodes] == [907.0, 906.0, 902.0]
    assert nodes[-1].emt() == 5.0 and nodes[-1].board().is_checkmate()


@pytest.mark.parametrize(("lang", "touch", "foreign"), [
    ("en", "Touched: white pawn on h2 (FIDE Laws D.2.2).", "Berührt"),
    ("nl", "Aangeraakt: witte pion op h2 (FIDE-regels D.2.2).", "Berührt"),
    ("ru", "Тронутая фигура: белая пешка на h2 (Правила ФИДЕ D.2.2).", "Berührt"),
    ("de", "Berührt", "Touched"),
])
def test_pgn_comments_are_in_the_language_asked_for(mate_journal, capsysbinary, lang, touch, foreign):
    # the game was played in German; the export tells its touches in the language of --lang
    capsysbinary.readouterr()
    assert main(["--lang", lang, "export", str(mate_journal), "-o", "-"]) == 0
    game = chess.pgn.read_game(io.StringIO(capsysbinary.readouterr().out.decode("utf-8")))
    assert game is not None
    comments = " ".join([game.comment] + [n.comment for n in game.mainline()])
    assert touch in comments and foreign not in comments


# --------------------------------------------------------------------------- the start position

def test_the_brf_first_page_names_a_set_up_start_position_and_its_moves_read_back(mate_journal, capsysbinary):
    brf = _export(capsysbinary, mate_journal, "--lang", "de", "--format", "brf").decode("ascii")
    first_page = brf.split("\f")[0].split("\r\n")
    expected = braille.text_to_brf("Ausgangsstellung: Weiß Kg1 Ta1 f2 g2 h2; Schwarz Kg8 b7 f7 g7 h7; Weiß am Zug", "de")
    header = " ".join(line for line in first_page[:first_page.index("")])
    assert expected in header
    reading = braille.read_brf(brf, board=START, lang="de")
    assert reading.ok and [m.uci() for m in reading.moves] == ["h2h3", "b7b6", "a1a8"] and reading.result == "1-0"


def test_the_brf_names_a_chess960_start_by_its_number_and_the_usual_start_not_at_all():
    board = chess.Board.from_chess960_pos(12)
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Variant"] = "Chess960"
    first = braille.game_to_brf(game, "en").split("\f")[0]
    assert braille.text_to_brf("Chess960, position 12", "en") in first
    assert "START" not in first.upper().replace(" ", "")
    plain = braille.game_to_brf(chess.pgn.Game(), "en")
    assert braille.text_to_brf("Start position", "en") not in plain


@needs_poppler
def test_the_pdf_scoresheet_names_a_set_up_start_position_in_readable_print(mate_journal, tmp_path):
    pytest.importorskip("PySide6.QtGui")
    pdf = tmp_path / "sheet.pdf"
    assert main(["--lang", "en", "export", str(mate_journal), "--format", "pdf", "-o", str(pdf)]) == 0
    words = _words(pdf)
    text = " ".join(w[0] for w in words)
    assert "Start position: White Kg1 Ra1 f2 g2 h2; Black Kg8 b7 f7 g7 h7; White to move" in text
    start = [w for w in words if w[0] in ("Kg1", "Ra1", "Kg8")]
    assert len(start) == 3 and all(w[4] - w[2] >= 7.5 for w in start)   # 7.4 pt, as the other small print
    assert "Ra8#" in text
