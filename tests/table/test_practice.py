"""Practice against the computer: the table part that plays the sighted side.

The core is driven through the real table (headless scenario front, simulated
peg-board, phonetic announcements) with a move chooser that plays given moves
— the protocol the engine adapter implements — so every time and text is
exact. The real Stockfish plays in tests/table/test_practice_game.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from blindchess.adapters.engine import EngineError
from blindchess.base.i18n import tr
from blindchess.cli import main
from blindchess.game import Session
from blindchess.game.events import Divergence
from blindchess.language import phonetic
from blindchess.scenario import ScriptError, parse
from blindchess.table.commands import BlindSays, ConnectEngine, EngineMove, TactileMove, TakesBack, Tick
from blindchess.table.events import ClockPressed, DeviceRequest, MirrorDone, Moved, Refused, Ruled, Speak
from blindchess.table.opponent import MIN_DELAY, PRESS_REMINDER, RULING_DELAY, Slips, min_delay
from blindchess.table.setup import TableSetup
from blindchess.table.table import Table
from tests.support.paths import SCENARIOS
from tests.support.practice_driver import BlindSide

M = chess.Move.from_uci


class Scripted:
    """A move chooser playing the given moves in order (then the first legal move in UCI order)."""

    def __init__(self, *moves: str, fail_at: int | None = None) -> None:
        self.moves = [M(u) for u in moves]
        self.asked: list[str] = []
        self.fail_at = fail_at
        self.closed = False

    def choose(self, board: chess.Board) -> chess.Move:
        self.asked.append(board.fen())
        if self.fail_at is not None and len(self.asked) >= self.fail_at:
            raise EngineError(tr("engine.crashed", "de"))
        if self.moves:
            return self.moves.pop(0)
        return sorted(board.legal_moves, key=lambda m: m.uci())[0]

    def close(self) -> None:
        self.closed = True


def side(tmp_path: Path, header: str, chooser: Scripted, name: str = "game.jsonl") -> BlindSide:
    return BlindSide(header, tmp_path / name, engines=lambda setup: chooser)


def moved(s: BlindSide, ply: int) -> Moved:
    found = [e for e in s.events if isinstance(e, Moved) and e.ply == ply]
    assert found, f"no move {ply}"
    return found[-1]


WHITE_VS_ENGINE = "@white Bernd\n@black Rechner\n@blind white\n@opponent engine 1\n@time 15+10\n@settle 0.5\n"


# ---------------------------------------------------------------- when the computer moves
def test_the_computer_moves_its_least_delay_after_the_press_presses_and_is_announced(tmp_path):
    chooser = Scripted("e7e5")
    s = side(tmp_path, WHITE_VS_ENGINE, chooser)
    s.play(M("e2e4"))
    pressed_at = s.now
    s.wait()
    reply = moved(s, 2)
    assert (reply.uci, reply.color) == ("e7e5", "black")
    assert reply.t == pytest.approx(pressed_at + MIN_DELAY[0])             # level 1: 8 s to follow
    assert chooser.asked == [chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()]
    # the blind player's move mirrored on the computer's board when its clock started (D.2.4)
    assert any(isinstance(e, MirrorDone) and e.board == "sighted" and e.ply == 1 and e.t == pressed_at for e in s.events)
    # its own clock pressed at once (automatic), and the move announced to the blind player (D.2.1)
    assert any(isinstance(e, ClockPressed) and e.ply == 2 and e.t == reply.t for e in s.events)
    spoken = [e for e in s.events if isinstance(e, Speak) and e.text == "Eva fünf"]
    assert spoken and spoken[0].to == "blind" and spoken[0].priority == "move" and spoken[0].t == reply.t
    assert not [e for e in s.events if isinstance(e, Refused)]
    # the blind player mirrors it; both boards show the game
    s.mirror()
    game = s.table.game
    assert game.moves("tactile") == game.moves("sighted") == game.game_moves == (M("e2e4"), M("e7e5"))
    assert game.score("blind") == game.score("sighted") == ("e4", "e5")
    s.close()


def test_no_move_before_the_blind_player_started_the_computers_clock(tmp_path):
    s = side(tmp_path, WHITE_VS_ENGINE, Scripted("e7e5"))
    s.later(1.0)
    s.pegs(M("d2d4"))
    s.announce(M("d2d4"))
    s.later(120.0)                                   # two minutes without pressing (D.2.4)
    assert len(s.table.session.snapshot.game_moves) == 1
    assert s.table.session.clock.running == chess.WHITE
    s.press()
    pressed_at = s.now
    s.wait()
    assert moved(s, 2).t == pytest.approx(pressed_at + MIN_DELAY[0])
    s.close()


def test_without_a_clock_the_computer_moves_after_the_move_is_made(tmp_path):
    s = side(tmp_path, "@blind white\n@opponent engine casual\n", Scripted("g8f6"))
    s.later(1.0)
    s.pegs(M("g1f3"))
    s.announce(M("g1f3"))
    made_at = moved(s, 1).t
    s.wait()
    assert moved(s, 2).uci == "g8f6"
    assert moved(s, 2).t == pytest.approx(made_at + MIN_DELAY[2])          # level 3
    assert not [e for e in s.events if isinstance(e, (ClockPressed, Refused))]
    assert list(s.table.session.snapshot.moves("sighted")) == [M("g1f3"), M("g8f6")]
    s.close()


def test_the_computer_as_white_begins_and_moves_faster_when_its_time_runs_low(tmp_path):
    s = side(tmp_path, "@blind black\n@opponent engine 1\n@time 1+0\n", Scripted("e2e4", "g1f3"))
    s.wait()
    assert moved(s, 1).t == pytest.approx(min_delay(1, 60.0)) == pytest.approx(1.5)   # a minute: 60/40 s
    s.mirror()
    s.play(M("e7e5"))
    pressed_at = s.now
    left = s.table.session.clock.remaining(chess.WHITE, pressed_at)
    s.wait()
    assert moved(s, 3).t == pytest.approx(pressed_at + max(1.0, left / 40))
    s.close()


def test_levels_wait_longer_for_beginners():
    assert [min_delay(n) for n in range(1, 7)] == list(MIN_DELAY)
    assert tuple(sorted(MIN_DELAY, reverse=True)) == MIN_DELAY
    assert min_delay(1, 20.0) == 1.0 and min_delay(6, 10_000.0) == MIN_DELAY[-1]


# ---------------------------------------------------------------- a wrong mirror, rulings at home
def test_a_wrong_mirror_is_caught_and_the_computer_rules_as_the_arbiter_would(tmp_path):
    s = side(tmp_path, WHITE_VS_ENGINE.replace("engine 1", "engine 1 coaching"), Scripted("e7e5", "b8c6"))
    s.play(M("e2e4"))
    s.wait()
    s.later(1.0)
    s.pegs(M("e7e6"), s.table.session.board("tactile"))     # mirrors e7e6 instead of e7e5
    session = s.table.session
    assert session.snapshot.divergence is not None and session.snapshot.divergence.board == "tactile"
    diverged_at = session.snapshot.divergence and next(e.t for e in reversed(session.events) if isinstance(e, Divergence))
    s.wait()
    ruled = [e for e in s.events if isinstance(e, Ruled)]
    assert [(r.kind, r.plies) for r in ruled] == [("correct-board", 2)]        # D.2.9: scores agree
    assert ruled[0].t == pytest.approx(diverged_at + RULING_DELAY)
    assert any("Eva fünf; stellen Sie Ihre Stecker so" in t for t in s.said_to_blind())
    # he sets his pegs right; the game goes on, the clocks as they were
    s.later(1.0)
    s.peg("L e6")
    s.later(0.3)
    s.peg("P e5")
    s.later(1.0)
    assert s.table.tactile_in_sync and not s.table.adjusting
    s.play(M("g1f3"))
    s.wait()
    assert moved(s, 4).uci == "b8c6"
    assert Slips.count(session.snapshot.notes).mirror == 1
    s.close()


# ---------------------------------------------------------------- the engine behind a device request
def test_without_a_chooser_the_table_asks_and_plays_the_answer_when_due(tmp_path):
    setup = TableSetup(white="Rechner", black="Bernd", blind="black", tactile="none", opponent="engine",
                       engine_level=6)
    table = Table.new(setup, 0.0, tmp_path / "g.jsonl")
    events: list = []
    table.subscribe(events.append)
    table.handle(ConnectEngine(None), 0.0)
    requests = [e for e in events if isinstance(e, DeviceRequest) and e.device == "engine"]
    assert len(requests) == 1 and requests[0].what == "move" and requests[0].fen == chess.STARTING_FEN
    assert table.opponent is not None and table.opponent.due_at(0.0) is None    # the answer is awaited
    table.handle(EngineMove(M("e2e4"), "8/8/8/8/8/8/8/8 w - - 0 1"), 0.5)    # for another position: dropped
    table.handle(EngineMove(M("d2d4"), requests[0].fen), 1.0)                 # in time: held until due
    assert list(table.session.snapshot.game_moves) == [] and table.opponent.due_at(1.0) == pytest.approx(MIN_DELAY[5])
    table.handle(Tick(), MIN_DELAY[5])
    assert list(table.session.snapshot.game_moves) == [M("d2d4")]
    # his reply (typed on the tactile board, announced); a late answer is played at once
    table.handle(TactileMove("d2d4"), 3.5)                   # the mirror, then his own move
    table.handle(TactileMove("d7d5"), 4.0)
    table.handle(BlindSays(phonetic.announce(table.session.game_board(), M("d7d5"), "de"), 1.0), 4.1)
    fen = table.session.game_board().fen()
    asked = [e for e in events if isinstance(e, DeviceRequest) and e.device == "engine"]
    assert asked[-1].fen == fen and len(asked) == 2
    table.handle(EngineMove(M("c2c4"), fen), 30.0)
    assert table.session.snapshot.game_moves[-1] == M("c2c4") and moved_at(events, 3) == 30.0
    table.close()


def moved_at(events: list, ply: int) -> float:
    return next(e.t for e in events if isinstance(e, Moved) and e.ply == ply)


def test_an_engine_failure_is_said_in_one_sentence_and_the_game_goes_on_with_a_new_engine(tmp_path):
    engines = [Scripted("e7e5", fail_at=2), Scripted("g8f6")]
    made: list[Scripted] = []

    def next_engine(setup):
        made.append(engines[len(made)])
        return made[-1]

    s = BlindSide(WHITE_VS_ENGINE, tmp_path / "g.jsonl", engines=next_engine)
    s.play(M("e2e4"))
    s.wait()
    s.mirror()
    s.play(M("g1f3"))
    s.wait()
    message = tr("engine.crashed", "de")
    speak = [e for e in s.events if isinstance(e, Speak) and e.text == message]
    assert speak and speak[0].to == "blind" and speak[0].priority == "move" and "\n" not in message
    assert message.count(".") == 1                                          # one sentence
    assert len(s.table.session.snapshot.game_moves) == 3                            # kept; nobody moves for the computer
    s.later(300.0)
    assert len(s.table.session.snapshot.game_moves) == 3 and s.table.opponent is not None
    assert s.table.opponent.failure == message
    notes = [e for e in s.table.session.snapshot.notes if e.kind == "practice-engine-failed"]
    assert notes and notes[0].text == message
    # the engine is back: the game resumes from its journal with a new one (as the app does on reopening)
    s.front.crash(s.now)
    assert made[0].closed
    s.wait()
    assert list(s.table.session.snapshot.game_moves) == [M("e2e4"), M("e7e5"), M("g1f3"), M("g8f6")]
    s.close()


# ---------------------------------------------------------------- coaching
COACHED = WHITE_VS_ENGINE.replace("engine 1", "engine 1 coaching")


def test_coaching_explains_an_announcement_not_understood_and_how_to_say_the_move_on_the_pegs(tmp_path):
    s = side(tmp_path, COACHED, Scripted("e7e5"))
    s.later(1.0)
    s.pegs(M("g1f3"))
    s.say("Blabla")
    s.wait()
    tips = [t for t in s.said_to_blind() if t.startswith("Tipp:")]
    assert tips == ["Tipp: keine Figur und kein Feld erkannt. Ihr gesteckter Zug heißt: Springer Felix drei."]
    s.say("Springer Hector drei")                       # understood, but the pegs show Nf3 (D.2.3)
    s.wait()
    assert any(t == "Tipp: Wenn der gesteckte Zug gilt, sagen Sie: Springer Felix drei; sonst stecken Sie "
               "den angesagten Zug." for t in s.said_to_blind())
    s.announce(M("g1f3"))
    assert moved(s, 1).uci == "g1f3"
    # the clock not pressed: a reminder after PRESS_REMINDER seconds, once
    made_at = moved(s, 1).t
    s.later(40.0)
    reminders = [e for e in s.events if isinstance(e, Speak) and e.text.startswith("Tipp: Drücken Sie Ihre Uhr")]
    assert len(reminders) == 1 and reminders[0].t == pytest.approx(made_at + PRESS_REMINDER)
    assert Slips.count(s.table.session.snapshot.notes) == Slips(unclear=2)
    s.close()


def test_take_back_both_boards_scores_clocks_and_journal(tmp_path):
    s = side(tmp_path, COACHED, Scripted("e7e5", "e7e6"))
    clock0 = s.table.session.clock.remaining(chess.WHITE, 0.0)
    s.play(M("e2e4"))
    s.wait()
    s.mirror()
    s.later(2.0)
    s.say("Zug zurücknehmen")
    s.wait()
    game = s.table.game
    assert game.game_moves == game.moves("sighted") == game.moves("tactile") == ()
    assert game.score("blind") == game.score("sighted") == ()
    retraced = [e for e in s.events if isinstance(e, Ruled)]
    assert [(r.kind, r.plies) for r in retraced] == [("retrace", 0)]
    assert s.table.session.clock.remaining(chess.WHITE, retraced[0].t) == pytest.approx(clock0)   # as they stood then
    assert any(t == "Zurückgenommen: Eva vier, Eva fünf. Stellen Sie die Stecker zurück; Sie sind am Zug."
               for t in s.said_to_blind())
    # the pegs go back; he plays again and the computer answers the new move
    s.later(1.0)
    for line in ("L e5", "P e7", "L e4", "P e2"):
        s.peg(line)
        s.later(0.3)
    s.later(1.0)
    assert s.table.tactile_in_sync
    s.play(M("d2d4"))
    s.wait()
    assert list(s.table.game.game_moves) == [M("d2d4"), M("e7e6")]
    # the journal holds it: the reopened game is the same
    s.close()
    reopened = Session.load(tmp_path / "game.jsonl")
    assert list(reopened.snapshot.game_moves) == [M("d2d4"), M("e7e6")]
    assert Slips.count(reopened.snapshot.notes).takeback == 1


def test_take_back_and_tips_only_with_coaching(tmp_path):
    s = side(tmp_path, WHITE_VS_ENGINE, Scripted("e7e5"))
    s.play(M("e2e4"))
    s.wait()
    s.say("Zug zurücknehmen")
    assert len(s.table.session.snapshot.game_moves) == 2                 # not a practice phrase without coaching
    s.say("Blabla")
    assert not [t for t in s.said_to_blind() if t.startswith("Tipp")]
    s.table.handle(TakesBack(), s.now)
    assert [e.what for e in s.events if isinstance(e, Refused)][-1] == "take-back"
    assert len(s.table.session.snapshot.game_moves) == 2
    s.close()


MATE_IN_THREE = "@start 5K2/8/4R3/8/8/8/2R4p/k7 w - - 0 1\n"   # 1. Txh2 Kb1 2. Ta6 Kc1 3. Ta1#: replies forced


def test_the_summary_of_slips_after_the_game_counts_across_a_crash(tmp_path):
    s = side(tmp_path, COACHED + MATE_IN_THREE, Scripted("a1b1", "b1c1"))
    s.later(1.0)
    s.press()                                          # before his move: refused (D.2.4)
    s.pegs(M("c2h2"))
    s.say("Turm Hector zwei")                          # the capture not said: asked (D.2.1)
    assert s.table.question is not None and s.table.question.candidates == ("c2h2",)
    s.later(2.0)
    s.say("ja")
    s.later(0.5)
    s.press()
    s.wait()
    s.mirror()
    s.front.crash(s.now)                               # the program dies; the slips are in the journal
    s.wait()
    s.play(M("e6a6"))
    s.wait()
    s.mirror()
    s.later(1.0)
    s.pegs(M("a6a1"))
    s.say("Turm Anna eins")                          # made and mate
    s.wait()
    assert s.table.session.snapshot.result == "1-0"
    summary = [t for t in s.said_to_blind() if t.startswith("Zusammenfassung")]
    assert summary == ["Zusammenfassung: Ansagen berichtigt: 0. Ansagen unklar oder abweichend: 0. "
                       "Spiegelzüge berichtigt: 0. Uhrdrücke abgelehnt: 1."]
    # the computer's board shows the final position too
    assert s.table.session.board("sighted").fen() == s.table.session.game_board().fen()
    s.close()


def test_a_clean_game_gets_praise_and_no_coaching_no_summary():
    assert Slips().text("de") == "Zusammenfassung: keine Ausrutscher, sehr gut."
    assert "Moves taken back: 2." in Slips(takeback=2).text("en")


# ---------------------------------------------------------------- draw offers
def test_a_draw_offer_is_declined_in_a_live_position_and_accepted_when_a_draw_can_be_claimed(tmp_path):
    s = side(tmp_path, WHITE_VS_ENGINE, Scripted("e7e5"))
    s.later(1.0)
    s.pegs(M("e2e4"))
    s.announce(M("e2e4"))
    s.say("Ich biete Remis an")
    s.press()
    s.wait()
    assert moved(s, 2).uci == "e7e5" and s.table.session.snapshot.result is None
    assert tr("table.draw_declined", "de") in s.said_to_blind()
    s.close()
    fifty = "@start 4k3/8/8/8/8/8/2R5/4K3 w - - 99 80\n"     # Rc3 makes the fifty-move rule claimable
    s = side(tmp_path, WHITE_VS_ENGINE + fifty, Scripted("e8d8"), name="draw.jsonl")
    s.later(1.0)
    s.pegs(M("c2c3"))
    s.announce(M("c2c3"))
    s.say("Remis")
    s.press()
    s.wait()
    assert s.table.session.snapshot.result == "1/2-1/2" and len(s.table.session.snapshot.game_moves) == 1
    s.close()


# ---------------------------------------------------------------- setup and scripts
def test_table_setup_refuses_an_engine_without_exactly_one_blind_player():
    with pytest.raises(ValueError):
        TableSetup(blind="both", opponent="engine")
    with pytest.raises(ValueError):
        TableSetup(blind="white", opponent="robot")
    with pytest.raises(ValueError):
        TableSetup(blind="white", opponent="engine", engine_level=7)


def test_opponent_header_levels_coaching_and_errors():
    script = parse("@opponent engine strong coaching\n", "de")
    setup = script.setup
    assert (setup.opponent, setup.engine_level, setup.coaching) == ("engine", 6, True)
    assert parse("@opponent engine\n", "de").setup.engine_level == 2
    assert parse("@white A\n", "de").setup.opponent == "human"
    with pytest.raises(ScriptError) as bad:
        parse("@white A\n@opponent engine 9\n", "en")
    assert bad.value.line == 2 and "LEVEL 1 to 6" in bad.value.message
    with pytest.raises(ScriptError) as both:
        parse("@opponent engine\n@blind both\n", "en")
    assert both.value.line == 1 and "exactly one blind player" in both.value.message


def test_a_bad_opponent_line_is_exit_2_with_its_line_number(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    script = tmp_path / "bad.scn"
    script.write_text("@blind none\n@opponent engine\n0.0 clock press white\n", encoding="utf-8")
    assert main(["scenario", "run", str(script)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"Szenario {script}, Zeile 2: @opponent engine braucht genau einen blinden Spieler "
        "(@blind white oder @blind black)."]
    assert not list(tmp_path.glob("*.jsonl"))


# ---------------------------------------------------------------- the shipped practice scenario (real Stockfish)
needs_engine = pytest.mark.skipif(__import__("blindchess.adapters.engine", fromlist=["find_engine"]).find_engine() is None,
                                  reason="Stockfish is not installed (make test installs it)")


@needs_engine
def test_practice_scenario_forced_mate_through_the_command_line(tmp_path, capsys):
    journal = tmp_path / "practice.jsonl"
    code = main(["scenario", "run", str(SCENARIOS / "practice_forced_mate.scn"), "--json", "--journal", str(journal)])
    out = capsys.readouterr()
    assert code == 0, out.err
    events = [json.loads(line) for line in out.out.splitlines()]
    moves = [(e["t"], e["uci"]) for e in events if e["type"] == "move"]
    assert moves == [(2.5, "c2h2"), (12.0, "a1b1"), (18.0, "e6a6"), (27.0, "b1c1"), (33.0, "a6a1")]
    clocks = [(e["t"], e["ply"]) for e in events if e["type"] == "clock"]
    assert clocks == [(4.0, 1), (12.0, 2), (19.0, 3), (27.0, 4)]          # the computer presses at once
    heard = [e["text"] for e in events if e["type"] == "said" and e["to"] == "blind"]
    assert "König Bella eins" in heard and "König Cäsar eins" in heard
    final = events[-1]
    assert final["result"] == "1-0" and final["boards"]["sighted"] == final["game"]
    assert final["scores"]["blind"] == final["scores"]["sighted"] == ["Txh2", "Kb1", "Ta6", "Kc1", "Ta1#"]
    assert not [e for e in events if e["type"] in ("refused", "divergence")]
    assert Session.load(journal).snapshot.result == "1-0"


def test_phonetic_words_of_the_forced_line():
    # the script's announcements are how the blind player says these moves
    board = chess.Board("5K2/8/4R3/8/8/8/2R4p/k7 w - - 0 1")
    said = []
    for uci in ("c2h2", "a1b1", "e6a6", "b1c1", "a6a1"):
        said.append(phonetic.announce(board, M(uci), "de"))
        board.push(M(uci))
    assert said == ["Turm schlägt Hector zwei", "König Bella eins", "Turm Anna sechs", "König Cäsar eins",
                    "Turm Anna eins matt"]


@needs_engine
def test_practice_scenario_with_coaching_through_the_command_line(tmp_path, capsys):
    journal = tmp_path / "coached.jsonl"
    code = main(["scenario", "run", str(SCENARIOS / "practice_coaching.scn"), "--json", "--journal", str(journal)])
    out = capsys.readouterr()
    assert code == 0, out.err
    events = [json.loads(line) for line in out.out.splitlines()]
    said = [(e["t"], e["text"]) for e in events if e["type"] == "said" and e["to"] in ("blind", "all")]
    texts = [text for _, text in said]
    assert "Tipp: keine Figur und kein Feld erkannt. Ihr gesteckter Zug heißt: Turm schlägt Hector zwei." in texts
    assert any(t.startswith("Tastbrett stimmt nicht") for t in texts)             # the wrong mirror is caught
    assert "Der letzte Zug war: König Bella eins; stellen Sie Ihre Stecker so." in texts
    assert "Zurückgenommen: Turm schlägt Hector zwei, König Bella eins. Stellen Sie die Stecker zurück; " \
           "Sie sind am Zug." in texts
    rulings = [(e["kind"], e["plies"]) for e in events if e["type"] == "ruling"]
    assert rulings == [("retrace", 0)]
    moves = [(e["t"], e["uci"]) for e in events if e["type"] == "move"]
    assert moves == [(11.0, "c2h2"), (21.0, "a1b1"), (45.5, "c2h2"), (55.0, "a1b1"), (61.0, "e6a6"),
                     (70.0, "b1c1"), (76.0, "a6a1")]
    summary = [t for t in texts if t.startswith("Zusammenfassung")]
    assert summary == ["Zusammenfassung: Ansagen berichtigt: 0. Ansagen unklar oder abweichend: 1. "
                       "Spiegelzüge berichtigt: 1. Uhrdrücke abgelehnt: 0. Züge zurückgenommen: 1."]
    assert not any(cut for cut in (e["cut"] for e in events if e["type"] == "said" and e["text"].startswith("Tipp")))
    final = events[-1]
    assert final["result"] == "1-0" and final["plies"] == 5
    assert final["boards"]["sighted"] == final["boards"]["tactile"] == final["game"]
    reopened = Session.load(journal)
    assert Slips.count(reopened.snapshot.notes) == Slips(unclear=1, mirror=1, takeback=1)


def test_a_resumed_practice_game_is_one_again_from_its_journal_alone(tmp_path):
    header = "@blind white\n@opponent engine club coaching\n@time 15+10\n"
    s = side(tmp_path, header, Scripted())
    s.play(M("e2e4"))
    pressed_at = s.now
    journal = tmp_path / "game.jsonl"
    s.front.table.close()                        # the program ends before the computer's move is due
    table = Table.resume(journal, pressed_at + 1.0)
    assert (table.setup.opponent, table.setup.engine_level, table.setup.coaching) == ("engine", 4, True)
    assert table.opponent is not None and table.opponent.level == 4 and table.opponent.coaching
    events: list = []
    table.subscribe(events.append)
    table.handle(ConnectEngine(Scripted("c7c5")), pressed_at + 1.0)
    table.handle(Tick(), pressed_at + 1.0 + MIN_DELAY[3])
    assert list(table.session.snapshot.game_moves) == [M("e2e4"), M("c7c5")]
    assert moved_at(events, 2) == pytest.approx(pressed_at + 1.0 + MIN_DELAY[3])   # its turn began on resuming
    table.close()


def test_no_tip_for_an_announcement_when_it_is_not_his_move(tmp_path):
    s = side(tmp_path, COACHED, Scripted("e7e5"))
    s.play(M("e2e4"))
    s.later(2.0)                                   # the computer thinks (its delay)
    s.say("Springer Felix drei")
    s.wait()
    assert not [t for t in s.said_to_blind() if t.startswith("Tipp")]
    assert Slips.count(s.table.session.snapshot.notes) == Slips()
    s.close()
