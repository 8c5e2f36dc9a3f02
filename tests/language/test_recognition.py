"""The recognition grammar for vosk: every legal move in every
accepted spoken form, every command and request, and "[unk]"."""

from __future__ import annotations

import random
import re

import chess
import pytest

from blindchess.language.phonetic import LANGS, announce, grammar, understand
from blindchess.language.recognition import move_forms

MANY_MOVES = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"  # 218 legal moves


def sample_positions(n: int = 60, seed: int = 5) -> list[chess.Board]:
    rng = random.Random(seed)
    out = [chess.Board(), chess.Board(MANY_MOVES), chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
           chess.Board("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", chess960=True)]
    b = chess.Board.from_chess960_pos(rng.randrange(960))
    while len(out) < n:
        moves = list(b.legal_moves)
        if not moves:
            b = chess.Board()
            continue
        b.push(rng.choice(moves))
        out.append(b.copy(stack=False))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_phrases_are_lowercase_words_plus_unk(lang):
    phrases = grammar(chess.Board(), lang)
    assert phrases[-1] == "[unk]" and phrases.count("[unk]") == 1
    assert len(phrases) == len(set(phrases))
    for p in phrases[:-1]:
        assert p == p.lower() and p.strip() == p and "  " not in p, p
        assert not re.search(r"[\d.,;:!?'\"()\-]", p), p


def test_german_start_position_contains_the_forms_players_use():
    phrases = set(grammar(chess.Board()))
    for p in ("eva vier", "springer felix drei", "springer gustav eins felix drei", "eva zwei eva vier",
              "bauer eva vier", "korrektur", "versprecher", "ich biete remis an", "ich gebe auf", "j adoube",
              "ich werde rochieren", "zeit", "wie viele züge", "letzter zug", "was steht auf eva vier",
              "was steht auf hector acht", "wo stehen meine springer", "stellung vorlesen", "ja", "nein",
              "wiederholen"):
        assert p in phrases, p


def test_check_mate_castling_and_promotion_forms():
    mate = set(grammar(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")))
    assert {"turm anna acht", "turm anna acht matt", "turm anna eins anna acht"} <= mate
    castle = set(grammar(chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")))
    assert {"kurze rochade", "lange rochade", "könig eva eins gustav eins", "könig eva eins cäsar eins"} <= castle
    promo = set(grammar(chess.Board("3r1n2/4P3/8/8/8/k7/8/4K3 w - - 0 1"), "en"))
    assert {"eva eight promotes to queen", "eva takes david eight promotes to knight",
            "eva seven eva eight promotes to rook"} <= promo


@pytest.mark.parametrize("lang", LANGS)
def test_every_move_form_is_understood_as_its_move(lang):
    for b in sample_positions(40):
        forms = move_forms(b, lang)
        assert {m for _, m in forms} == set(b.legal_moves)
        for phrase, move in forms:
            u = understand(b, phrase, lang)
            assert u.move == move and u.certain, (b.fen(), phrase, u.move, u.message)


@pytest.mark.parametrize("lang", LANGS)
def test_castling_is_always_in_the_grammar_and_explained_when_impossible(lang):
    b = chess.Board()
    phrases = grammar(b, lang)
    short = [p for p in phrases if understand(b, p, lang).message.endswith(
        understand(b, "0-0", lang).message)]
    assert short  # "kurze rochade" is heard even when castling is not legal yet ...
    u = understand(b, short[0], lang)
    assert u.kind == "move" and u.move is None and u.message[0].isupper()  # ... and explained


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_phrase_is_understood(lang):
    b = chess.Board()
    moves = {p for p, _ in move_forms(b, lang)}
    for phrase in grammar(b, lang)[:-1]:
        if phrase in moves or understand(b, phrase, lang).kind == "move":
            continue  # castling, listed even when not possible (explained, see above)
        u = understand(b, phrase, lang)
        assert u.kind not in ("unknown", "move"), (phrase, u)
        assert u.certain, (phrase, u)


@pytest.mark.parametrize("lang", LANGS)
def test_announced_phrase_is_in_the_grammar(lang):
    for b in sample_positions(30, seed=9):
        phrases = set(grammar(b, lang))
        for m in b.legal_moves:
            assert announce(b, m, lang).lower() in phrases


def test_grammar_of_218_moves_covers_them_all():
    b = chess.Board(MANY_MOVES)
    forms = move_forms(b)
    assert len({m for _, m in forms}) == 218
    assert len(grammar(b)) > 218 * 2


def test_grammar_for_a_finished_game_has_only_commands():
    mated = chess.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    phrases = grammar(mated)
    assert "[unk]" in phrases and "ich gebe auf" in phrases
    assert not move_forms(mated)


def test_grammar_returns_a_fresh_list():
    b = chess.Board()
    first = grammar(b)
    first.clear()
    assert grammar(b)


def test_german_piece_requests_use_the_article_of_each_piece():
    # die Dame; der König, Turm, Läufer, Springer, Bauer (articles as data in voices/de.toml)
    phrases = set(grammar(chess.Board(), "de"))
    for phrase in ("wo steht die weiße dame", "wo steht meine dame", "wo steht seine dame",
                   "wo steht der schwarze turm", "wo steht mein springer", "wo steht sein könig"):
        assert phrase in phrases, phrase
    wrong = [p for p in phrases if p.startswith("wo steht") and
             (any(f"die weiße {m}" in p or f"die schwarze {m}" in p or f"meine {m}" in p
                  for m in ("könig", "turm", "läufer", "springer", "bauer"))
              or "der weiße dame" in p or "der schwarze dame" in p or p.endswith("mein dame"))]
    assert not wrong, wrong
