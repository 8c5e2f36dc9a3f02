"""Multi-game files and headings before the first move.

``notation check`` and ``notation convert`` read every game of a file; with
``--json`` and several games the output is ``{"games": [...]}``, one object per
game with the single-game fields and the game's headers; a one-game file keeps
the single-game object exactly. A heading before the first move number
("Musterpartie:", "Partie 1", "Turnier … Runde 3") is noted and the score read.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from blindchess.cli import main
from blindchess.language.notation import read_score, split_games
from tests.support.paths import DATA

GAMES = DATA / "games" / "classics.pgn"
IMMORTAL = DATA / "scoresheets" / "immortal_en.pgn"

TWO = """[Event "Club"]
[White "Anna"]
[Black "Bella"]

1. e4 e5 2. Nf3 Nc6 *

[Event "Club"]
[White "Carl"]
[Black "Dora"]

1. d4 d5 2. Nf3 Nf4 *
"""

SINGLE_KEYS = {"plies", "moves", "problems", "ok", "lang", "start", "end", "truncated"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["notation", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def two(tmp_path: Path) -> Path:
    path = tmp_path / "two.pgn"
    path.write_text(TWO, encoding="utf-8")
    return path


# ------------------------------------------------------------------ several games


def test_check_reads_every_game_and_names_them(capsys, two):
    code, out, _ = run(capsys, "check", str(two))
    assert code == 1                                       # the second game has a problem
    assert "Partie 1: Anna – Bella" in out and "Partie 2: Carl – Dora" in out
    second = out[out.index("Partie 2"):]
    assert "Zug 2, Schwarz: „Nf4“ ist kein regelgemäßer Zug" in second
    assert "Alle 4 Halbzüge sind regelgemäß und eindeutig." in out[:out.index("Partie 2")]


def test_check_json_with_several_games_lists_them(capsys, two):
    code, out, _ = run(capsys, "check", str(two), "--json")
    assert code == 1
    data = json.loads(out)
    assert set(data) == {"games"} and len(data["games"]) == 2
    first, second = data["games"]
    assert set(first) == SINGLE_KEYS | {"headers"}
    assert first["headers"] == {"Event": "Club", "White": "Anna", "Black": "Bella"}
    assert first["ok"] and first["moves"] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert not second["ok"] and second["plies"] == 3
    assert second["problems"][0]["written"] == "Nf4"
    assert second["headers"]["White"] == "Carl"


def test_check_json_with_one_game_keeps_the_single_object(capsys):
    code, out, _ = run(capsys, "check", str(IMMORTAL), "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == SINGLE_KEYS                       # no "games", no "headers"
    assert data["plies"] == 45


def test_check_all_56_real_games_of_one_file(capsys):
    code, out, _ = run(capsys, "check", str(GAMES), "--json")
    assert code == 0
    games = json.loads(out)["games"]
    assert len(games) == 56 and all(g["ok"] for g in games)
    assert sum(g["plies"] for g in games) == 3713
    assert games[-1]["headers"]["White"] == "Sergey Karjakin"


def test_convert_converts_every_game_and_reads_back(capsys, tmp_path):
    code, out, err = run(capsys, "convert", str(GAMES), "--to", "de")
    assert code == 0 and err == ""
    back = tmp_path / "de.pgn"
    back.write_text(out, encoding="utf-8")
    originals = [read_score(c) for c in split_games(GAMES.read_text(encoding="utf-8"))]
    converted = [read_score(c, lang="de") for c in split_games(out)]
    assert len(converted) == 56
    assert [c.moves for c in converted] == [o.moves for o in originals]
    assert converted[0].headers["White"] == "Gioachino Greco"


def test_convert_reports_the_game_of_a_problem(capsys, two):
    code, out, err = run(capsys, "convert", str(two), "--to", "de")
    assert code == 1
    assert out.count("[White ") == 2 and "2. Sf3 Sc6" in out
    assert err.splitlines()[0] == "Partie 2: Carl – Dora"
    assert "„Nf4“" in err


def test_convert_with_one_game_is_unchanged(capsys):
    code, out, _ = run(capsys, "convert", str(IMMORTAL), "--to", "de")
    assert code == 0
    assert out.startswith("1. e4 e5\n2. f4 exf4\n")         # no tag pairs for one standard game


# ---------------------------------------------------------------------- headings


@pytest.mark.parametrize(("text", "heading"), [
    ("Musterpartie:\n1. e4 e5 2. Sf3 Sc6", "Musterpartie:"),
    ("Partie 1\n1. e4 e5 2. Sf3 Sc6", "Partie 1"),
    ("Turnier Berlin, Runde 3\n1.e4 e5 2.Sf3 Sc6", "Turnier Berlin, Runde 3"),
    ("Partie 12 1. e4 e5 2. Sf3 Sc6", "Partie 12"),
])
def test_a_heading_before_the_first_move_is_noted_and_the_score_read(text, heading):
    score = read_score(text, lang="de")
    assert score.ok and score.plies == 4
    assert score.heading == heading
    assert score.as_dict()["heading"] == heading


def test_a_heading_after_pgn_tags_and_with_a_black_start():
    score = read_score('[Event "x"]\n\nPartie 3\n1. d4 d5 *')
    assert score.ok and score.heading == "Partie 3" and score.plies == 2
    start = chess.Board("4k3/8/8/8/8/8/8/4K2R b K - 0 12")
    black = read_score("Stellung nach 11. Zug\n12... Kd7 13. Th2", board=start, lang="de")
    assert black.ok and black.plies == 2 and black.heading == "Stellung nach 11. Zug"


def test_no_heading_when_the_text_before_the_number_is_the_score():
    score = read_score("e4 e5 2. Sf3 Sc6", lang="de")
    assert score.ok and score.plies == 4 and score.heading is None
    assert "heading" not in score.as_dict()
    bad = read_score("Xq7 e5 2. Sf3", lang="de")           # an unreadable first move stays a problem
    assert not bad.ok and bad.problems[0].written == "Xq7" and bad.heading is None


def test_check_names_the_heading(capsys, tmp_path):
    path = tmp_path / "muster.txt"
    path.write_text("Musterpartie:\n1. e4 e5 2. Sf3 Sc6\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert "Überschrift: „Musterpartie:“" in out
    assert "Alle 4 Halbzüge sind regelgemäß und eindeutig." in out
