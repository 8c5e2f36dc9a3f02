"""The recognition grammar: what a speech recogniser may hear in a position.

A vosk ``KaldiRecognizer`` can be restricted to a list of phrases (lowercase
word sequences from the model's vocabulary, plus ``"[unk]"`` for anything
else). Restricting it to the moves that are legal *now* makes recognition of
"Springer Felix drei" far more reliable than free dictation. The list holds,
for every legal move:

- the announced form (as :func:`blindchess.language.phonetic.announce` says it) with and without
  "Schach"/"matt";
- the long form with the departure square (``springer gustav eins felix drei``;
  castling as the king's move ``könig eva eins gustav eins`` in standard chess);
- for pawns, the form with the piece named (``bauer eva vier``);

and every command and request of the voice (``korrektur``, ``ich biete remis
an``, ``was steht auf eva vier`` for all 64 squares, ``wo stehen meine
springer`` …). Every phrase is understood by :func:`blindchess.language.phonetic.understand`.
The words come from :mod:`blindchess.language.spoken`, the base this module shares with
:mod:`blindchess.language.phonetic` (which imports this module, never the other way round).
Words are spelt as in the voice file, lowercased; ``[grammar.words]`` in the
voice file maps words to the speech model's spelling where they differ.
"""

from __future__ import annotations

import functools

import chess

from .spoken import Voice, _gives_check, _is_mate_after, _king_destination, _move_words, voice

_CACHE: dict[tuple[str, bool, str], list[str]] = {}
_CACHE_MAX = 64


def _lower(v: Voice, words: list[str]) -> str:
    text = " ".join(words).lower()
    if v.asr_words:
        text = v.g(text)
    return text


def move_forms(board: chess.Board, lang: str = "de") -> list[tuple[str, chess.Move]]:
    """Every accepted spoken form of every legal move, as (phrase, move) pairs."""
    v = voice(lang)
    legal = list(board.legal_moves)
    piece_at = board.piece_type_at
    kinds: list[int] = [piece_at(m.from_square) or chess.PAWN for m in legal]
    castles = [k == chess.KING and board.is_castling(m) for m, k in zip(legal, kinds, strict=True)]
    reach: dict[tuple[int, int], int] = {}
    for m, piece, castle in zip(legal, kinds, castles, strict=True):
        if not castle and piece != chess.PAWN:
            key = (piece, m.to_square)
            reach[key] = reach.get(key, 0) | chess.BB_SQUARES[m.from_square]
    sp = v.spoken
    check_word, mate_word = sp["check"].lower(), sp["mate"].lower()
    pawn_word = v.pieces[chess.PAWN].name
    king_word = v.pieces[chess.KING].name
    forms: list[tuple[str, chess.Move]] = []
    for m, piece, castle in zip(legal, kinds, castles, strict=True):
        others = reach.get((piece, m.to_square), 0) & ~chess.BB_SQUARES[m.from_square]
        words = _move_words(board, m, v, others)
        base = _lower(v, words)
        forms.append((base, m))
        if _gives_check(board, m, piece):
            forms.append((f"{base} {mate_word if _is_mate_after(board, m) else check_word}", m))
        if castle:
            dest = _king_destination(board, m)
            if chess.square_distance(m.from_square, dest) > 1:  # the king visibly castles
                forms.append((_lower(v, [king_word, v.squares[m.from_square], v.squares[dest]]), m))
            continue
        forms.append((_lower(v, _move_words(board, m, v, others, long=True)), m))
        if piece == chess.PAWN:
            forms.append((_lower(v, [pawn_word, *words]), m))
    return forms


@functools.cache
def _static(lang: str) -> tuple[str, ...]:
    return tuple(voice(lang).command_phrases)


def phrases(board: chess.Board, lang: str = "de") -> list[str]:
    """The vosk grammar phrase list for ``board``: moves, commands, ``"[unk]"``."""
    v = voice(lang)
    key = (v.lang, board.chess960, board.fen())
    cached = _CACHE.get(key)
    if cached is None:
        out = dict.fromkeys(p for p, _ in move_forms(board, v.lang))
        out.update(dict.fromkeys(_static(v.lang)))
        out["[unk]"] = None
        cached = list(out)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = cached
    return list(cached)
