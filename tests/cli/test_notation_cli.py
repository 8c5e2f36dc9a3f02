"""``blindchess notation check | convert`` (FIDE Laws Appendix C)."""

from __future__ import annotations

import json
import subprocess
import sys

import chess
import pytest

from blindchess.cli import main
from tests.support.paths import DATA

DATA = DATA / "scoresheets"
RUY = DATA / "ruy_lopez_de.txt"
SLIPS = DATA / "slips_de.txt"
IMMORTAL = DATA / "immortal_en.pgn"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["notation", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_a_correct_scoresheet_exits_0(capsys):
    code, out, err = run(capsys, "check", str(RUY))
    assert code == 0 and err == ""
    assert "Alle 20 Halbzüge sind regelgemäß und eindeutig." in out


def test_check_reports_problems_in_german_by_default(capsys):
    code, out, _ = run(capsys, "check", str(SLIPS))
    assert code == 1
    lines = out.splitlines()
    assert any(line.startswith("Zug 4, Schwarz: „Sf4“ ist kein regelgemäßer Zug") for line in lines)
    assert any(line.startswith("Zug 6, Schwarz: „??!x“") for line in lines)


def test_check_in_english_from_blindchess_lang(capsys, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    code, out, _ = run(capsys, "check", str(SLIPS))
    assert code == 1
    assert "Move 4, Black: “Sf4” is not a legal move: no knight can move to f4." in out


def test_check_json_has_the_agreed_keys(capsys):
    code, out, _ = run(capsys, "check", str(SLIPS), "--json")
    assert code == 1
    data = json.loads(out)
    assert {"plies", "moves", "problems"} <= set(data)
    assert data["plies"] == 7 and len(data["moves"]) == 7
    assert data["moves"][:3] == ["e2e4", "e7e5", "g1f3"]
    first = data["problems"][0]
    assert {"ply", "written", "problem", "suggestions"} <= set(first)
    assert (first["ply"], first["written"], first["problem"]) == (8, "Sf4", "illegal")
    assert first["suggestions"] and all(s.startswith("S") for s in first["suggestions"])   # German letters


def test_check_json_suggestions_in_the_sheets_language(capsys, tmp_path):
    sheet = tmp_path / "fr.txt"
    sheet.write_text("1. e4 e5 2. Cf3 Cc6 3. Fb5 Cf4", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(sheet), "--json", "--sheet-lang", "fr")
    data = json.loads(out)
    assert code == 1 and data["problems"][0]["ply"] == 6
    assert data["problems"][0]["suggestions"][0].startswith("C")


def test_check_pgn_and_fen_option(capsys, tmp_path):
    assert run(capsys, "check", str(IMMORTAL))[0] == 0
    sheet = tmp_path / "endgame.txt"
    sheet.write_text("1. 0-0-0 Kf7 2. Td7+", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(sheet), "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "--json")
    assert code == 0 and json.loads(out)["moves"] == ["e1c1", "e8f7", "d1d7"]


def test_check_chess960_option(capsys, tmp_path):
    sheet = tmp_path / "960.txt"
    sheet.write_text("1. f4 f5 2. Tf3 Tf6 3. 0-0 0-0", encoding="utf-8")
    fen = chess.Board.from_chess960_pos(0).fen()
    assert run(capsys, "check", str(sheet), "--fen", fen, "--chess960")[0] == 0
    # a FEN whose castling rights only make sense in Chess960 is read as Chess960
    assert run(capsys, "check", str(sheet), "--fen", fen)[0] == 0


@pytest.mark.parametrize("content", [None, b"\x00\x01\x02binary\xff\xfe\x00", "dir"])
def test_unreadable_or_missing_file_exits_2_with_a_message(capsys, tmp_path, content):
    path = tmp_path / "sheet.txt"
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    code, out, err = run(capsys, "check", str(path))
    assert code == 2 and out == ""
    assert str(path) in err and "Traceback" not in err


def test_bad_fen_exits_2(capsys):
    code, _, err = run(capsys, "check", str(RUY), "--fen", "not a fen")
    assert code == 2 and "FEN" in err


def test_latin1_and_utf16_files_are_read(capsys, tmp_path):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("1. e4 e5 2. Sf3 Sc6 (Schäfer)".encode("cp1252"))
    assert run(capsys, "check", str(latin))[0] == 0
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text("1. e4 e5 2. Кf3", encoding="utf-16")
    assert run(capsys, "check", str(utf16))[0] == 0


def test_convert_to_other_languages(capsys):
    code, out, _ = run(capsys, "convert", str(RUY), "--to", "en")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "1. e4 e5" and lines[1] == "2. Nf3 Nc6" and lines[4] == "5. 0-0 Be7"
    code, out, _ = run(capsys, "convert", str(RUY), "--to", "ru", "--style", "pgn")
    assert out.splitlines()[4] == "5. O-O Сe7" and out.splitlines()[9] == "10. d4 Кbd7"
    code, out, _ = run(capsys, "convert", str(IMMORTAL), "--to", "de", "--from", "en")
    assert code == 0 and out.splitlines()[-1] == "23. Le7#"


def test_convert_with_problems_prints_the_legal_part_and_exits_1(capsys):
    code, out, err = run(capsys, "convert", str(SLIPS), "--to", "it")
    assert code == 1
    assert out.splitlines()[-1] == "4. Aa4"
    assert "Zug 4, Schwarz" in err


def test_subprocess_check_and_convert():
    env_cmd = [sys.executable, "-m", "blindchess", "notation"]
    done = subprocess.run([*env_cmd, "check", str(SLIPS), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and json.loads(done.stdout)["plies"] == 7
    done = subprocess.run([*env_cmd, "convert", "-", "--to", "fr"], input=RUY.read_text(encoding="utf-8"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[1] == "2. Cf3 Cc6"


def test_empty_file_has_no_moves_and_no_problems(capsys, tmp_path):
    empty = tmp_path / "empty.pgn"
    empty.write_text("", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(empty))
    assert code == 0 and "keine Züge" in out


def test_check_reports_an_invalid_fen_header_on_ply_0(capsys, tmp_path):
    game = tmp_path / "bad_fen.pgn"
    game.write_text('[Event "?"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"]\n\n1. e4 e5 *\n',
                    encoding="utf-8")
    code, out, _ = run(capsys, "check", str(game))
    assert code == 1 and "Ausgangsstellung: [FEN" in out and "keine gültige Stellung" in out
    code, out, _ = run(capsys, "check", str(game), "--json")
    data = json.loads(out)
    assert code == 1 and data["plies"] == 0 and data["problems"][0]["ply"] == 0
    assert data["problems"][0]["problem"] == "unreadable"


@pytest.mark.parametrize("to", ["de", "en", "fr", "it", "nl", "ru"])
def test_convert_keeps_a_chess960_start_so_the_result_reads_back(capsys, tmp_path, to):
    # convert dropped the FEN/Variant headers: the converted Chess960 score could not be read
    game = tmp_path / "960.pgn"
    game.write_text('[Variant "Chess960"]\n[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]\n\n'
                    "1. Nfe3 Nde6 2. O-O f6 3. f3 b5 *\n", encoding="utf-8")
    code, out, _ = run(capsys, "convert", str(game), "--to", to)
    assert code == 0 and '[Variant "Chess960"]' in out and "QBBNRNKR" in out
    converted = tmp_path / f"960.{to}.txt"
    converted.write_text(out, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(converted), "--sheet-lang", to, "--json")
    assert code == 0
    import io

    import chess.pgn
    original = chess.pgn.read_game(io.StringIO(game.read_text(encoding="utf-8")))
    assert json.loads(out)["moves"] == [m.uci() for m in original.mainline_moves()]


def test_convert_of_a_standard_game_has_no_headers(capsys):
    code, out, _ = run(capsys, "convert", str(RUY), "--to", "en")
    assert code == 0 and out.startswith("1. e4 e5\n")


@pytest.mark.parametrize("fen, reason", [
    ("garbage", "8 Reihen"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "kein weißer König"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "Bauern auf der ersten oder achten Reihe"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "am Zug"),
])
def test_a_bad_fen_is_explained_in_german(capsys, tmp_path, fen, reason, monkeypatch):
    # python-chess's English ("expected 8 rows ...", "NO_WHITE_KING|NO_BLACK_KING|EMPTY") reached the user
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    code, _, err = run(capsys, "check", str(RUY), "--fen", fen)
    assert code == 2 and reason in err and "expected" not in err and "NO_" not in err
    header = tmp_path / "kopf.pgn"
    header.write_text(f'[FEN "{fen}"]\n\n1. e4 *\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", str(header))
    assert code == 1 and reason in out


def test_counts_in_the_summary_have_singular_and_plural(capsys, tmp_path):
    # "1 Halbzüge", "1 Problem(e)"
    one = tmp_path / "one.txt"
    one.write_text("1. e4\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(one))
    assert code == 0 and "Der eine Halbzug ist regelgemäß und eindeutig." in out
    bad = tmp_path / "bad.txt"
    bad.write_text("1. e4 Sf4\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(bad))
    assert code == 1
    assert "1 Halbzug bis zum ersten Problem gelesen, 1 Problem." in out
