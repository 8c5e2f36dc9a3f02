"""The sealed move is secret on every path (FIDE Laws, Guidelines I.1: the player writes it secretly).

Every way a move is sealed at this table is played — the blind player by voice and by keys, the sighted
player typing, the window's input line (both players), a script's ``seals``, a practice game, and a move
made on the board after the call to seal (I.1 a) —, and before the envelope is opened the sealed move's
text, its squares and its written and spoken forms are looked for in **every** event (``heard`` too),
every journal line, the window's widgets (labels, fields, the log and score tables, accessible names),
the live broadcast's pages and its PGN. Only the sealer is told when he must write again, and only on his
own channel (a private text).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import chess
import pytest
from PySide6.QtWidgets import QAbstractButton, QLabel, QTableWidget, QWidget

from blindchess.broadcast.pages import arbiter_page, spectators_page
from blindchess.broadcast.reading import read_game
from blindchess.cli import main
from blindchess.table import (
    ArbiterAdjourn,
    ArbiterResume,
    BlindSays,
    ClockPress,
    Finish,
    SightedMove,
    SightedSays,
    Table,
    TableSetup,
)
from blindchess.ui.new_game import GameSetup
from tests.support.journal_text import journal_words
from tests.support.scenario_report import SCENARIOS, run
from tests.support.ui_window import TestClock, open_window

#: Bb5 (from f1 to b5) in every form: UCI, written (English, German), said, its squares.
BB5 = ("f1b5", "Bb5", "Lb5", "Bella fünf", "Läufer Bella", "b5", "f1")
#: Nc6 (from b8 to c6).
NC6 = ("b8c6", "Nc6", "Sc6", "Cäsar sechs", "c6", "b8")
#: Ra6 (from e6 to a6), the practice game's.
RA6 = ("e6a6", "Ra6", "Ta6", "Anna sechs", "Turm Anna", "a6", "e6")


def _events_keep(events: list[dict], opened: float, forms: tuple[str, ...]) -> None:
    """No event before ``opened`` — of any type — holds any of ``forms``."""
    for e in events:
        if e["t"] < opened and e["type"] != "final":
            text = json.dumps(e, ensure_ascii=False)
            assert not any(form in text for form in forms), e


def _records_keep(journal: Path, forms: tuple[str, ...], workdir: Path) -> None:
    """The journal of a game adjourned and not yet resumed, the broadcast's pages and its PGN hold none of
    ``forms`` (a square of two letters is looked for in the journal, where no hex digits are left to match)."""
    text = journal_words(journal, until="envelope-opened")
    assert not any(form in text for form in forms), [f for f in forms if f in text]
    (workdir / "broadcast").mkdir(exist_ok=True)
    game = read_game(journal, "de", workdir / "broadcast")
    pages = [game.pgn, spectators_page([(1, game)], "de", "12:00", now=game.changed, stale_after=60.0),
             arbiter_page([(1, game)], [], "de", "12:00", now=game.changed, stale_after=60.0)]
    for page in pages:
        assert not any(form in page for form in forms if len(form) > 2), [f for f in forms if f in page]
    target = workdir / "game.pgn"
    assert main(["export", str(journal), "--format", "pgn", "-o", str(target)]) == 0
    pgn = target.read_text(encoding="utf-8")
    assert not any(form in pgn for form in forms if len(form) > 2)


def _until(name: str, opened: float, folder: Path) -> Path:
    """The script ``name`` up to (not including) the opening of the envelope: the game as it stands adjourned."""
    lines = (SCENARIOS / name).read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line[:1].isdigit() or float(line.split()[0]) < opened]
    script = folder / f"until_{name}"
    script.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return script


# ---------------------------------------------------------------- the scripts' paths
@pytest.mark.parametrize(("name", "opened", "forms"), [
    ("sealed_move_said_stays_secret.scn", 86480.0, BB5),            # the blind player by voice
    ("adjournment_sealed_by_the_blind_player.scn", 86480.0, BB5),   # a script's "seals"
    ("adjournment_sealed_by_the_sighted_player.scn", 86480.0, NC6),  # the sighted player typing
    ("adjournment_move_made_on_the_board_is_sealed.scn", 86480.0, NC6),   # a move on the board (I.1 a)
    ("practice_sealed_move_secret.scn", 90000.0, RA6),              # a practice game
])
def test_nothing_of_the_sealed_move_before_the_opening(name, opened, forms, capsys, tmp_path):
    r = run(name, capsys, "--journal", str(tmp_path / "whole.jsonl"))
    _events_keep(r.events, opened, forms)
    journal = tmp_path / "adjourned.jsonl"
    run(_until(name, opened, tmp_path), capsys, "--journal", str(journal))
    _records_keep(journal, forms, tmp_path)
    # what he must write again is told to the sealer alone: no public event says whether his move is legal
    assert [set(e) for e in r.of("sealed")] == [{"t", "type", "by"}] * len(r.of("sealed"))
    for e in r.events:
        if e["type"] in ("said", "speak", "shown") and "neu schreiben" in e["text"]:
            assert e.get("private") is True, e
    assert r.of("resumed") and r.of("resumed")[0]["uci"] == forms[0]


# ---------------------------------------------------------------- the blind player by keys
def test_typed_for_the_blind_player_nothing_is_heard_or_journaled(tmp_path):
    journal = tmp_path / "game.jsonl"
    table = Table.new(TableSetup(white="Bernd Blind", black="Sabine Sehend", blind="white", time_control="90+30",
                                 tactile="none"), 0.0, journal)
    events: list = []
    table.subscribe(events.append)
    for t, command in [(1.0, BlindSays("Bauer Eva vier", None)), (1.5, ClockPress(chess.WHITE)),
                       (2.0, SightedMove(chess.Move.from_uci("e2e4"))), (3.0, SightedMove(chess.Move.from_uci("e7e5"))),
                       (3.5, ClockPress(chess.BLACK)), (4.0, BlindSays("Springer Felix drei", None)),
                       (4.5, ClockPress(chess.WHITE)), (5.0, SightedMove(chess.Move.from_uci("g1f3"))),
                       (6.0, SightedMove(chess.Move.from_uci("b8c6"))), (6.5, ClockPress(chess.BLACK)),
                       (60.0, ArbiterAdjourn()), (61.0, BlindSays("Lb", None)), (62.0, BlindSays("Lb5", None))]:
        table.handle(command, t)
    assert table.game.envelope_sealed
    _events_keep([e.to_json() for e in events], float("inf"), BB5)
    assert not any(type(e).__name__ == "Heard" and e.t >= 60.0 for e in events)
    table.handle(Finish(), 70.0)
    told = [e for e in events if type(e).__name__ in ("Said", "Speak") and "neu schreiben" in e.text]
    assert told and all(e.private and e.to == "blind" for e in told)
    table.close()
    _records_keep(journal, BB5, tmp_path)
    table = Table.resume(journal, 90000.0)
    table.handle(ArbiterResume(), 90000.0)
    assert [m.uci() for m in table.game.game_moves][-1] == "f1b5"


# ---------------------------------------------------------------- the window's line
def _widget_texts(window: QWidget) -> list[str]:
    """Every text a widget of the window shows or tells a screen reader — but a board's squares, which name
    every square of the board whatever is sealed ("Bella fünf, leer")."""
    texts = []
    for widget in [window, *window.findChildren(QWidget)]:
        if type(widget).__name__ == "_Square":
            continue
        texts += [widget.windowTitle(), widget.accessibleName(), widget.accessibleDescription(), widget.toolTip()]
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts.append(widget.text())
        if hasattr(widget, "toPlainText"):
            texts.append(widget.toPlainText())
        if isinstance(widget, QTableWidget):
            texts += [widget.item(r, c).text() for r in range(widget.rowCount()) for c in range(widget.columnCount())
                      if widget.item(r, c) is not None]
    return texts


def _type(window, mode: str, text: str) -> None:
    window.mode.setCurrentIndex(window.mode.findData(mode))
    window.input.setText(text)
    window.submit_input()


@pytest.mark.parametrize(("sealer", "mode", "attempts", "forms"), [
    ("blind", "spoken", ("Läufer Bella", "Läufer Bella fünf"), BB5),     # the blind player by keys, his line
    ("sighted", "sighted_says", ("Remis", "Sc6"), NC6),                  # the sighted player, her line
])
def test_the_window_shows_and_logs_nothing_of_the_sealed_move(qtbot, sealer, mode, attempts, forms):
    clock = TestClock()
    with open_window(qtbot, "de", clock=clock) as (c, w):
        assert c.new_game(GameSetup(white="Bernd Blind", black="Sabine Sehend", white_impaired=True, tactile="none",
                                    time_control="90+30", lang="de"))
        moves = [("blind", "Bauer Eva vier"), ("mirror", "e2e4"), ("sighted", "e7e5"),
                 ("blind", "Springer Felix drei"), ("mirror", "g1f3")]
        if sealer == "blind":
            moves.append(("sighted", "b8c6"))
        for who, move in moves:
            clock.advance(2.0)
            if who == "blind":
                assert c.hear(move, typed=True)
                c.press(chess.WHITE)
            else:
                assert c.sighted_move(move)
                if who == "sighted":
                    c.press(chess.BLACK)
        clock.advance(5.0)
        assert c.adjourn()
        assert c.game.sealing
        w.refresh()
        assert w.input.echoMode() != w.input.echoMode().Normal       # what he types is not shown on the screen
        for text in attempts:
            clock.advance(3.0)
            _type(w, mode, text)
            assert w.input.text() == ""                               # the line keeps nothing of it
        assert c.game.envelope_sealed
        w.refresh()
        w.open_arbiter()
        clock.advance(5.0)
        texts = _widget_texts(w) + _widget_texts(w.arbiter_dialog)
        found = [t for t in texts if t and any(form in t for form in forms if len(form) > 2)]
        assert found == []
        log = w.log.table
        rows = [log.item(r, 2).text() for r in range(log.rowCount()) if log.item(r, 2) is not None]
        assert not [row for row in rows if "neu schreiben" in row or "Remis" in row], rows
        assert w.input.echoMode() == w.input.echoMode().Normal    # sealed: the line shows again what is typed
        if sealer == "sighted":
            assert "neu schreiben" not in w.message.accessibleName()   # her message: on her screen, not read out


def test_a_sealed_move_too_long_is_told_to_the_sealer_and_never_kept(tmp_path):
    table = Table.new(TableSetup(white="Sabine Sehend", black="Bernd Blind", blind="black", time_control="90+30",
                                 tactile="none"), 0.0, tmp_path / "game.jsonl")
    events: list = []
    table.subscribe(events.append)
    table.handle(ArbiterAdjourn(), 1.0)
    table.handle(SightedSays("e4 " + "x" * 200), 2.0)
    assert table.game.sealing
    told = [e for e in events if e.t == 2.0]
    assert told and all(getattr(e, "private", False) for e in told)
    assert "xxxx" not in (tmp_path / "game.jsonl").read_text(encoding="utf-8")
    shutil.rmtree(tmp_path / "broadcast", ignore_errors=True)


def test_the_pegs_moved_after_the_sealing_tell_nobody_anything(capsys, tmp_path):
    """After the envelope is closed the blind player tries his sealed move on the pegs: no touch, no square, no
    move reaches an event or the journal; the move is refused without naming it and the pegs are set back."""
    script = tmp_path / "after.scn"
    lines = (SCENARIOS / "adjournment_sealed_by_the_blind_player.scn").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith(("80.0", "864", "865"))]
    script.write_text("\n".join(kept) + "\n80.0 peg L f1\n80.4 peg P b5\n85.0 peg L b5\n85.4 peg P f1\n",
                      encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    r = run(script, capsys, "--journal", str(journal))
    _events_keep(r.events, float("inf"), BB5)
    assert not [e for e in r.of("touched") if e["t"] >= 60.0]
    assert [e["t"] for e in r.of("refused", what="move")] == [80.9]
    assert [e for e in r.said("blind") if e["t"] > 85.0 and e["text"] == "Das Tastbrett stimmt wieder."]
    text = journal_words(journal)
    assert not any(form in text for form in BB5), [f for f in BB5 if f in text]
