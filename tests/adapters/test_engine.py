"""The engine adapter against a real Stockfish process (Debian's stockfish, installed by make) and against
small fake engines.

The fakes are real executable scripts run as processes, because a real engine cannot be made to
misbehave on purpose: one answers with an illegal move, one never answers, one floods its output
with binary bytes or with 200 MB without a newline. Every failure must be told by what happened, in
one sentence, without a file path or an exception's name.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import chess
import pytest

from blindchess.adapters.engine import LEVELS, MAX_JUNK, Engine, EngineChooser, EngineError, find_engine, level
from blindchess.base.errors import UserError
from blindchess.base.i18n import tr
from tests.support.fake_engine import fake
from tests.support.paths import REPO

STOCKFISH = find_engine()
needs_engine = pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed (make test installs it)")


def told(info: pytest.ExceptionInfo[EngineError], key: str, path: Path | None = None) -> None:
    """The failure is the sentence ``key`` — one line, no path, no exception name."""
    message = info.value.message
    assert message == tr(key, "en"), message
    assert "\n" not in message and "Error" not in message and "/" not in message
    if path is not None:
        assert str(path) not in message and path.name not in message


@needs_engine
def test_real_stockfish_plays_legal_moves_at_every_level():
    board = chess.Board()
    for lv in LEVELS[:3]:
        engine = Engine.start(None, lv, "de")
        try:
            move = engine.choose(board)
            assert board.is_legal(move)
        finally:
            engine.close()


@needs_engine
def test_a_killed_engine_is_reported_in_one_sentence_and_a_new_one_can_go_on():
    board = chess.Board()
    engine = Engine.start(None, level(1), "de")
    board.push(engine.choose(board))
    os.kill(engine.pid, signal.SIGKILL)  # type: ignore[arg-type]
    with pytest.raises(EngineError) as info:
        for _ in range(3):  # the first call may still find the pipe open
            board.push(engine.choose(board))
    assert info.value.message == tr("engine.crashed", "de")
    engine.close()
    again = Engine.start(None, level(1), "de")
    try:
        assert board.is_legal(again.choose(board))
    finally:
        again.close()


def test_missing_engine_is_one_sentence_without_its_path(tmp_path):
    with pytest.raises(EngineError) as info:
        Engine.start(tmp_path / "no-such-engine", level(2), "en")
    told(info, "engine.missing", tmp_path / "no-such-engine")


def test_a_file_that_cannot_be_run_cannot_start(tmp_path):
    not_a_program = tmp_path / "engine.bin"
    not_a_program.write_bytes(b"\x7fELF but not really a program")
    not_a_program.chmod(0o755)
    for path in (not_a_program, Path(__file__)):          # not executable at all: this test file
        with pytest.raises(EngineError) as info:
            Engine.start(path, level(2), "en", timeout=2.0)
        told(info, "engine.cannot_start", path)


def test_a_program_that_is_no_uci_engine(tmp_path):
    hello = tmp_path / "hello"
    hello.write_text("#!/bin/sh\necho hello\n")
    hello.chmod(0o755)
    with pytest.raises(EngineError) as info:
        Engine.start(hello, level(2), "en", timeout=2.0)
    told(info, "engine.not_uci", hello)


def test_an_illegal_best_move_is_told_as_one_never_as_a_crash(tmp_path):
    # a1a8 in the start position: the rook would jump over its own pawn.
    rook = fake(tmp_path, "rook-jumper", 'say("bestmove a1a8 ponder zz99")')
    engine = Engine.start(rook, level(1), "en")
    with pytest.raises(EngineError) as info:
        engine.choose(chess.Board())
    told(info, "engine.illegal_move", rook)
    assert not engine.running and info.value.message != tr("engine.crashed", "en")


def test_no_move_where_there_is_one(tmp_path):
    nothing = fake(tmp_path, "nothing", 'say("bestmove (none)")')
    engine = Engine.start(nothing, level(1), "en")
    try:
        with pytest.raises(EngineError) as info:
            engine.choose(chess.Board())
        told(info, "engine.no_move", nothing)
    finally:
        engine.close()


def test_a_hung_engine_counts_as_hung(tmp_path):
    hung = fake(tmp_path, "hung", "pass")          # speaks UCI, never answers "go"
    engine = Engine.start(hung, level(1), "en", timeout=1.0)
    with pytest.raises(EngineError) as info:
        engine.choose(chess.Board())
    told(info, "engine.hung", hung)
    assert not engine.running


def test_binary_output_is_dropped_never_copied(tmp_path, capfd):
    # Binary bytes on both of its outputs, between the lines of a move: the move is taken, nothing is shown.
    noisy = fake(tmp_path, "noisy",
                 'out.write(bytes(range(256)) * 64 + b"\\n"); os.write(2, bytes(range(256)) * 64); '
                 'say("info string \\u00e4"); say("bestmove e2e4")',
                 before='out.write(b"\\x00\\xff\\xfe garbage\\n" * 100); out.flush()')
    engine = Engine.start(noisy, level(1), "en")
    try:
        assert engine.choose(chess.Board()) == chess.Move.from_uci("e2e4")
    finally:
        engine.close()
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


def test_an_engine_that_floods_its_output_is_ended_and_told_as_no_uci_engine(tmp_path):
    flood = fake(tmp_path, "flood", 'out.write(b"x" * (4 * 1024 * 1024)); out.flush()')
    engine = Engine.start(flood, level(1), "en")
    with pytest.raises(EngineError) as info:
        engine.choose(chess.Board())
    told(info, "engine.not_uci", flood)
    assert not engine.running


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak memory is read from Linux's /proc")
def test_200_mb_without_a_newline_does_not_grow_memory(tmp_path):
    # Measured in a process of its own (Linux's VmHWM): its peak memory stays near a bare start.
    flood = fake(tmp_path, "flood200", 'chunk = b"y" * (1 << 20)\n'
                 '                for _ in range(200): out.write(chunk)\n'
                 '                out.flush()')
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent(f"""\
        import sys
        import chess
        from blindchess.adapters.engine import Engine, EngineError, level
        def peak_kb():      # VmHWM: this program's own peak (ru_maxrss keeps the forking parent's across exec)
            with open("/proc/self/status") as status:
                return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        engine = Engine.start({str(flood)!r}, level(1), "en")
        try:
            engine.choose(chess.Board())
        except EngineError as exc:
            print(exc.message)
        print(peak_kb())
        """))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, env=env, timeout=300)
    message, peak_kb = proc.stdout.strip().splitlines()
    assert message == tr("engine.not_uci", "en") and proc.stderr == "", (message, proc.stderr[-2000:])
    assert int(peak_kb) < 120_000, (peak_kb, proc.stderr[-2000:])   # 200 MB kept: more than 200,000 kB
    assert MAX_JUNK < 200 * 1024 * 1024


def test_a_failed_chooser_stays_failed_and_says_so(tmp_path):
    rook = fake(tmp_path, "rook", 'say("bestmove a1a8")')
    chooser = EngineChooser(rook, level(1), "en")
    with pytest.raises(EngineError):
        chooser.choose(chess.Board())
    with pytest.raises(EngineError) as info:
        chooser.choose(chess.Board())
    told(info, "engine.stopped", rook)
    chooser.close()


def test_levels_by_number_and_name():
    assert level(1).name == "beginner" and level("strong").number == 6 and level(None).number == 2
    with pytest.raises(UserError):
        level("grandmaster")
