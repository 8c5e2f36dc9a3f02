"""The spoken score: the whole game as a recording in the announcement voice (D.2.7).

FIDE Laws, Appendix D.2.7 lets the visually impaired player keep
the score "on a recording device". This module turns a game into the phrases an
announcer would say — the players, then "Zug 1" (the move number) followed by
White's and Black's moves as announced at the board (:func:`blindchess.language.phonetic.announce`,
D.2.1: "Springer Felix drei", "Kurze Rochade"), then the result — and renders
them with :func:`blindchess.adapters.speech.tts.render_phrases_wav` into one WAV, or one
WAV per half-move.
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn

from ...base import atomic_folder, tr, write_with


def _announce(board: chess.Board, move: chess.Move, lang: str) -> str:
    from ...language import announce  # another engineer's module: imported when used

    return announce(board, move, lang)


def _known(game: chess.pgn.Game, tag: str) -> str:
    value = game.headers.get(tag, "").strip()
    return "" if value in ("", "?") else value


def result_phrase(result: str, lang: str) -> str:
    """The result spoken ("Weiß gewinnt.", "Remis."), or "" when the game is not finished."""
    key = {"1-0": "records.result_white", "0-1": "records.result_black",
           "1/2-1/2": "records.result_draw"}.get(result)
    return tr(key, lang) if key else ""


def move_phrases(game: chess.pgn.Game, lang: str = "de") -> list[tuple[chess.Move, str]]:
    """One phrase per half-move: White's with its move number, Black's alone (or numbered when first)."""
    board = game.board()
    phrases = []
    for index, move in enumerate(game.mainline_moves()):
        spoken = _announce(board, move, lang)
        if board.turn == chess.WHITE:
            spoken = tr("records.move_number", lang, number=board.fullmove_number) + ": " + spoken
        elif index == 0:
            spoken = tr("records.move_number_black", lang, number=board.fullmove_number) + ": " + spoken
        phrases.append((move, spoken))
        board.push(move)
    return phrases


def game_phrases(game: chess.pgn.Game, lang: str = "de") -> list[str]:
    """Everything said in the recording, in order: players, moves, result."""
    phrases = []
    white, black = _known(game, "White"), _known(game, "Black")
    if white or black:
        phrases.append(tr("records.players", lang, white=white or tr("records.white", lang),
                          black=black or tr("records.black", lang)))
    start = game.board()
    number = start.chess960_pos() if start.chess960 else None
    if number is not None and number != 518:  # say the Chess960 start position first (Guidelines II)
        from ...laws import describe

        phrases.append(describe(number, lang))
    phrases.extend(text for _, text in move_phrases(game, lang))
    ending = result_phrase(game.headers.get("Result", "*"), lang)
    if ending:
        phrases.append(ending)
    return phrases


def export_wav(game: chess.pgn.Game, target: str | Path, lang: str = "de", *, pause: float = 0.6) -> Path:
    """The whole game as one WAV file at ``target`` (written whole or not at all)."""
    from ..speech.tts import render_phrases_wav

    phrases = game_phrases(game, lang)
    return write_with(target, lambda tmp: render_phrases_wav(phrases, tmp, lang, pause=pause), lang)


def export_wav_per_move(game: chess.pgn.Game, folder: str | Path, lang: str = "de") -> list[Path]:
    """One WAV per half-move in ``folder``: ``001-w.wav``, ``002-b.wav`` … (all or none)."""
    from ..speech.tts import render_wav

    folder = Path(folder)
    names = []
    with atomic_folder(folder, lang) as tmp:
        board = game.board()
        for ply, (move, text) in enumerate(move_phrases(game, lang), start=1):
            name = f"{ply:03d}-{'w' if board.turn == chess.WHITE else 'b'}.wav"
            render_wav(text, tmp / name, lang)
            names.append(name)
            board.push(move)
    return [folder / name for name in names]
