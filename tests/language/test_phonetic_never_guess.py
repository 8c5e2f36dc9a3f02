"""Behaviours of the spoken move language pinned (FIDE Laws D.2.1: never guess).

- a stray word after the move, a doubled piece word and a move word after a
  resignation leave the result uncertain;
- heard speech that reads as a two-square king move is asked about
  ("Meinten Sie Kurze Rochade?"), typed text castles as written notation does;
- phonetic and grammar share ``blindchess.language.spoken`` and do not import each other
  (no import cycle, no imports hidden inside functions).
"""

from __future__ import annotations

import ast
from pathlib import Path

import chess
import pytest

from blindchess.language import phonetic
from blindchess.language.dialogue import Dialogue
from blindchess.language.phonetic import understand

START = chess.Board()
#: Both castlings possible, both king moves of two squares are castling.
CASTLES = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
SHORT, LONG = chess.Move.from_uci("e1g1"), chess.Move.from_uci("e1c1")
NF3 = chess.Move.from_uci("g1f3")


# ------------------------------------------------------------- uncertain results


def test_a_trailing_stray_file_word_leaves_the_move_uncertain():
    u = understand(START, "Springer Felix drei Gustav")
    assert u.kind == "move"
    assert u.move is None and not u.certain
    assert u.candidates[:1] == [NF3]            # offered, asked about
    assert u.message.startswith("Meinten Sie")


def test_a_doubled_piece_word_leaves_the_move_uncertain():
    u = understand(START, "Springer Dame Felix drei")
    assert u.kind == "move"
    assert u.move is None and not u.certain
    assert u.message.startswith("Meinten Sie")


@pytest.mark.parametrize("text", ["ich gebe auf Eva vier", "Eva vier ich gebe auf", "ich gebe auf Springer"])
def test_a_move_word_with_a_resignation_leaves_it_uncertain(text):
    u = understand(START, text)
    assert u.kind == "resign"
    assert not u.certain and u.move is None


def test_a_plain_resignation_and_a_plain_move_stay_certain():
    # the counterpart of the pins above: without the stray words the result is certain
    assert understand(START, "ich gebe auf").certain
    u = understand(START, "Springer Felix drei")
    assert u.certain and u.move == NF3


# ------------------------------------------------ castling heard as a king move


@pytest.mark.parametrize(("text", "move", "question"), [
    ("König Gustav eins", SHORT, "Meinten Sie Kurze Rochade?"),
    ("König Cäsar eins", LONG, "Meinten Sie Lange Rochade?"),
    ("König Eva eins Gustav eins", SHORT, "Meinten Sie Kurze Rochade?"),
])
def test_heard_king_move_onto_the_castling_square_is_asked(text, move, question):
    heard = understand(CASTLES, text, heard=True)
    assert heard.kind == "move"
    assert heard.move is None and not heard.certain
    assert heard.candidates[:1] == [move]
    assert heard.message == question
    typed = understand(CASTLES, text)                # typed text castles as written notation does
    assert typed.move == move and typed.certain


def test_heard_castling_named_as_castling_is_played():
    u = understand(CASTLES, "Kurze Rochade", heard=True)
    assert u.move == SHORT and u.certain


def test_heard_one_step_king_move_is_an_ordinary_king_move():
    u = understand(CASTLES, "König Felix eins", heard=True)
    assert u.move == chess.Move.from_uci("e1f1") and u.certain


def test_heard_english_king_move_is_asked():
    u = understand(CASTLES, "King Gustav one", "en", heard=True)
    assert u.move is None and u.candidates[:1] == [SHORT]


def test_the_dialogue_asks_before_castling_on_a_heard_king_move():
    d = Dialogue("de")
    decision = d.hear(CASTLES, ["könig gustav eins"], confidence=1.0)
    assert decision.action == "ask" and decision.move is None
    assert decision.candidates == [SHORT]
    assert "Kurze Rochade" in decision.speech
    answer = d.hear(CASTLES, ["ja"], confidence=1.0)
    assert answer.action == "play" and answer.move == SHORT


# ------------------------------------------------------------- no import cycle

_PKG = Path(phonetic.__file__).parent


def _imports(path: Path) -> tuple[set[str], list[int]]:
    """Modules of the package a file imports (top level) and the lines of imports inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    nested: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = node.module or ""
            if base:
                names.add(base.split(".")[-1] if node.level == 1 else base)
            names.update(a.name for a in node.names if not base)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nested += [n.lineno for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return names, nested


def test_grammar_does_not_import_phonetic_and_nothing_is_imported_inside_functions():
    grammar_imports, grammar_nested = _imports(_PKG / "recognition.py")
    spoken_imports, spoken_nested = _imports(_PKG / "spoken.py")
    phonetic_imports, phonetic_nested = _imports(_PKG / "phonetic.py")
    assert "phonetic" not in grammar_imports and "phonetic" not in spoken_imports
    assert "recognition" in phonetic_imports and "spoken" in grammar_imports
    assert not (grammar_nested or spoken_nested or phonetic_nested)
    _, dialogue_nested = _imports(_PKG / "dialogue.py")
    assert not dialogue_nested


def test_phonetic_keeps_its_public_names():
    for name in ("announce", "understand", "grammar", "square_name", "piece_name", "describe_square",
                 "describe_pieces", "describe_position", "voice", "Voice", "LANGS", "KINDS", "REQUESTS"):
        assert hasattr(phonetic, name), name
    assert phonetic.grammar(START, "de")[-1] == "[unk]"
