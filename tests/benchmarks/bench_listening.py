"""Seconds of speech per move pair: what the blind player hears of real games, at each verbosity.

Real games (``tests/data/games/classics.pgn``, the first ``--games`` of at least 30 moves) are played
through the real window (``MainWindow`` and ``GameController``, offscreen, on a test clock) as a
keyboard player plays them without an electronic tactile board: the blind player types each of his
moves in the move line and Enter (German notation, "Sf3"); the sighted side mirrors it on its board
and makes its own move there (the board's ``moveEntered``, as a click or the keys do). The speech
channel is the screen reader, a recording one (the channel's far end: what reaches it is what the
blind player's screen reader would say — Orca's own reading of the focus is left out). Every text
of a move pair (from his move to the next) is rendered through espeak-ng to WAV at the language's
voice and its default rate, and the WAV's length is the speech's duration (from its header:
frames / rate). Texts asked for again are rendered once.

    .venv/bin/python tests/benchmarks/bench_listening.py [--games 4] [--lang de] [--pairs 40]

Prints, per verbosity, the mean, median and largest seconds of speech per move pair and what a
typical pair said; the goal at "normal" is at most 5 s (docs/developer/speech.md has the figures).
Runs without verbosities too (an older program: one line, "as is").
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import wave
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BLINDCHESS_HOME", tempfile.mkdtemp(prefix="bc-bench-listening-"))

import chess  # noqa: E402
import chess.pgn  # noqa: E402

from blindchess.adapters.speech import tts  # noqa: E402
from blindchess.language import write  # noqa: E402
from blindchess.ui.app import build  # noqa: E402
from blindchess.ui.new_game import GameSetup  # noqa: E402
from blindchess.ui.settings import Settings  # noqa: E402
from tests.support.recording_reader import RecordingReader  # noqa: E402

GAMES = ROOT / "tests" / "data" / "games" / "classics.pgn"
#: Seconds the test clock moves on after each action: every text asked for is said before the next.
PAUSE = 20.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.controller = None

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
        if self.controller is not None:
            self.controller.tick()


def games(count: int, least: int) -> list[chess.pgn.Game]:
    found = []
    with GAMES.open(encoding="utf-8") as f:
        while len(found) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if len(list(game.mainline_moves())) >= 2 * least:
                found.append(game)
    return found


def play(game: chess.pgn.Game, verbosity: str | None, lang: str, pairs: int) -> list[list[str]]:
    """The texts the blind player heard, move pair by move pair (his move and the opponent's reply)."""
    from PySide6.QtWidgets import QApplication

    clock = Clock()
    settings = Settings(lang=lang, earcons=False, speech_channel="screenreader")
    app, controller, window = build(settings)
    controller.use_clock(clock)
    clock.controller = controller
    speaker = tts.Speaker(lang, engine="text")
    controller.attach_speaker(speaker)
    reader = RecordingReader()
    controller.voice.use("screenreader", lang=lang, screen_reader=reader)
    if verbosity is not None:
        controller.voice.verbosity = verbosity
    window.show()
    setup = GameSetup(white="Anna", black="Bernd", white_impaired=True, black_impaired=False, tactile="none",
                      lang=lang)
    assert controller.new_game(setup), "the game starts"
    QApplication.processEvents()
    heard: list[list[str]] = []
    board = chess.Board()
    moves = list(game.mainline_moves())[: 2 * pairs]
    try:
        for index, move in enumerate(moves):
            start = len(reader.said)
            if board.turn == chess.WHITE:          # the blind player: his move typed, Enter
                window.mode.setCurrentIndex(window.mode.findData("spoken"))
                window.input.setPlainText(write(board, move, lang))
                window.submit_input()
                clock.advance(PAUSE)
                window.board.moveEntered.emit(move)      # the sighted side mirrors it on its board
            else:                                        # the sighted player's move, on his board
                window.board.moveEntered.emit(move)
            clock.advance(PAUSE)
            QApplication.processEvents()
            board.push(move)
            if index % 2 == 0:
                heard.append([])
            heard[-1] += reader.said[start:]
            if controller.game is None or controller.game.result is not None:
                break
    finally:
        controller.shutdown()
        speaker.close()
        window.close()
        window.deleteLater()
    return heard


_seconds: dict[tuple[str, str], float] = {}


def seconds(text: str, lang: str) -> float:
    """The length of ``text`` spoken by espeak-ng (the WAV's frames / rate)."""
    key = (text, lang)
    if key not in _seconds:
        with tempfile.TemporaryDirectory() as tmp:
            path = tts.render_wav(text, Path(tmp) / "t.wav", lang)
            with wave.open(str(path), "rb") as w:
                _seconds[key] = w.getnframes() / w.getframerate()
    return _seconds[key]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=40, help="move pairs played of each game (at most)")
    parser.add_argument("--lang", default="de")
    args = parser.parse_args()
    if tts.find_espeak() is None:
        print("espeak-ng is missing: nothing to measure (Debian package espeak-ng)")
        return 0
    from blindchess.ui.voice import TableVoice

    levels: list[str | None] = ["brief", "normal", "full"] if hasattr(TableVoice(), "verbosity") else [None]
    chosen = games(args.games, 20)
    print(f"{len(chosen)} games of classics.pgn, up to {args.pairs} move pairs each, espeak-ng ({args.lang}); "
          "the blind player (White) types his moves, no electronic tactile board")
    results: dict[str, list[float]] = {}
    example: dict[str, list[str]] = {}
    for level in levels:
        per_pair: list[float] = []
        for game in chosen:
            heard = play(game, level, args.lang, args.pairs)
            for texts in heard[1:]:               # the first pair also carries the greeting of a new game
                per_pair.append(sum(seconds(text, args.lang) for text in texts))
            if heard[1:]:
                example.setdefault(str(level), heard[min(5, len(heard) - 1)])
        results[str(level)] = per_pair
    out = io.StringIO()
    for level, values in results.items():
        name = "as is" if level == "None" else level
        print(f"  {name:7s}: {statistics.mean(values):5.2f} s per move pair (median {statistics.median(values):5.2f}, "
              f"largest {max(values):5.2f}, n={len(values)})", file=out)
        print(f"           e.g. {' | '.join(example.get(level, []))}", file=out)
    print(out.getvalue(), end="")
    normal = results.get("normal")
    if normal is not None:
        print(f"goal at normal: <= 5 s per move pair — {'met' if statistics.mean(normal) <= 5.0 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
