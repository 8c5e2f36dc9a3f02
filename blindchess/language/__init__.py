"""The move language: how moves are written, said, heard and worded (pure).

* :mod:`.notation` — every notation of FIDE Laws Appendix C in six languages, score sheets read
  with their slips (:class:`ScoreReading`);
* :mod:`.spoken` — the spoken vocabularies (``voices/<lang>.toml``) shared by the two below;
* :mod:`.phonetic` — moves announced and understood in the phonetic alphabet (D.2.1);
* :mod:`.recognition` — the phrases a recogniser may hear in a position;
* :mod:`.board_words` — squares, pieces and moves in the listener's wording (phonetic, NATO, SAN);
* :mod:`.dialogue` — the confidence gate: play, ask ("Meinten Sie …?") or explain, never guess.

Other packages import this face, never its modules."""

from __future__ import annotations

from .board_words import (
    REQUESTS,
    WORDINGS,
    Wording,
    answer,
    describe_square,
    legal_moves,
    move_words,
    next_piece,
    piece_type_for_letter,
    piece_words,
    square_words,
)
from .dialogue import Decision, Dialogue, hypotheses_from_result
from .notation import (
    LETTERS,
    ScoreReading,
    fen_error_text,
    guess_lang,
    is_move_text,
    iter_games,
    piece_letter,
    read,
    read_entries,
    read_entry,
    read_score,
    san_in,
    split_games,
    status_text,
    write,
)
from .phonetic import (
    CLAIMS,
    LANGS,
    ClaimWord,
    Understanding,
    UtteranceKind,
    announce,
    describe_pieces,
    describe_position,
    grammar,
    read_phrase,
    understand,
)
from .spoken import fold, piece_name, square_name, voice

__all__ = [
    "announce", "answer", "CLAIMS", "ClaimWord", "Decision", "describe_pieces", "describe_position",
    "describe_square", "Dialogue", "fen_error_text", "fold", "grammar", "guess_lang", "hypotheses_from_result",
    "is_move_text", "iter_games", "LANGS", "legal_moves", "LETTERS", "move_words", "next_piece", "piece_letter",
    "piece_name", "piece_type_for_letter", "piece_words", "read", "read_entries", "read_entry", "read_phrase",
    "read_score", "REQUESTS", "san_in", "ScoreReading", "split_games", "square_name", "square_words", "status_text",
    "understand", "Understanding", "UtteranceKind", "voice", "Wording", "WORDINGS", "write",
]
