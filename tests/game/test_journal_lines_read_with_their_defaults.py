"""The journal's lines as the rules engine reads them (the journal is the game's record, FIDE Laws Art. 8.1, D.2.7).

A line of an earlier version lacks the keys that version did not write: each absent key reads as the ordinary case
— a move legal and the owner's own, an announcement no correction, a press and a touch of no particular half-move,
a clock resumed without charging the pause, a game set up as standard chess under adequate supervision. Inputs are
journaled as inputs (replayed when the game is opened), outcomes as derived lines (never replayed). Each event names
the FIDE article it is about.
"""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.game.events import (
    EVENTS,
    INPUT_TYPES,
    Adjourned,
    Announce,
    BoardMove,
    ClockPause,
    ClockResume,
    DrawOffer,
    EnvelopeOpened,
    Flag,
    GameEvent,
    IllegalCorrected,
    MoveMade,
    Note,
    Player,
    Press,
    Reopened,
    SealedMove,
    SessionStart,
    Touch,
    color_name,
    from_json,
    parse_color,
    seconds,
    to_json,
)

#: (the line as an earlier version wrote it, the fields it reads as)
LINES = [
    ({"type": "session-start", "white": {"name": "Bernd"}, "black": {"name": "Sabine"}},
     {"chess960": False, "chess960_number": None, "auto_press": False, "tactile_senses_pieces": False,
      "supervised": True, "blind": None, "lang": "de", "time_control": None}),
    ({"type": "board-move", "board": "tactile", "uci": "e2e4"},
     {"ply": 0, "role": "own", "replaces": False, "legal": True, "san": ""}),
    ({"type": "announce", "text": "e4"},
     {"uci": None, "ply": 0, "correction": False, "refused": False, "problem": None}),
    ({"type": "press", "color": "white"}, {"ply": 0}),
    ({"type": "clock-resume"}, {"charge": False}),
    ({"type": "touch", "board": "tactile", "square": "e2"}, {"piece": None, "by": "white", "own": False, "ply": 0}),
    ({"type": "result", "result": "1-0"}, {"reason": "arbiter"}),
    ({"type": "time-request"}, {"by": "blind"}),
    ({"type": "ruling", "kind": "retrace"}, {"agreed_plies": 0, "moves": (), "clocks": None}),
    ({"type": "reopened", "closed_at": 10.0}, {"reopened_at": None, "counted": False}),
    ({"type": "adjourned", "color": "black"}, {"ply": 0, "session_end": None}),
    ({"type": "sealed-move"}, {"sealed": False, "valid": None, "by": None, "hidden": None}),
    ({"type": "envelope-opened"}, {"sealed_seq": 0, "sealer_absent": False}),
    ({"type": "envelope-lost"}, {"sealed_seq": 0, "color": "white", "reason": "missing"}),
    ({"type": "move-made", "ply": 1, "color": "white", "uci": "e2e4", "san": "e4"}, {"blind": False, "legal": True}),
    ({"type": "clock", "ply": 1, "white": 10.0, "black": None}, {"move_time": 0.0}),
    ({"type": "illegal-corrected", "color": "white", "ply": 3}, {"by": "agreement", "reason": None}),
    ({"type": "announce-ignored"}, {"reason": "not-turn"}),
    ({"type": "clock-refused", "color": "black"}, {"reason": "not-made"}),
    ({"type": "board-move-rejected", "board": "sighted", "uci": "e7e5"}, {"reason": "illegal"}),
    ({"type": "quickplay-filed", "color": "white", "ground": "cannot_win"}, {"problems": ()}),
]


@pytest.mark.parametrize("line, fields", LINES, ids=[line["type"] for line, _ in LINES])
def test_a_key_an_earlier_version_did_not_write_reads_as_the_ordinary_case(line, fields):
    ev = from_json({"seq": 7, "t": 1.5, **line})
    assert ev is not None and line["type"] == ev.TYPE and (ev.seq, ev.t) == (7, 1.5)
    assert {name: getattr(ev, name) for name in fields} == fields
    again = from_json(to_json(ev))                  # written again, it reads the same
    assert again == ev


def test_an_event_not_yet_recorded_has_no_place_in_the_record():
    # the record numbers an event when it is recorded (the journal's seq); before, it has none
    line = to_json(Press(t=3.0, color="white"))
    assert (line["seq"], line["type"], line["t"], line["color"], line["ply"]) == (0, "press", 3.0, "white", 0)
    assert "derived" not in line


def test_inputs_are_replayed_and_outcomes_written_as_derived():
    assert {
        "session-start", "clock-start", "board-move", "take-back", "announce", "press", "clock-pause",
        "clock-resume", "clock-set", "score", "touch", "draw-offer", "draw-answer", "resign", "result",
        "time-request", "flag", "ruling", "ruling-override", "pgn-import", "note", "reopened", "adjourned",
        "sealed-move", "envelope-opened", "envelope-lost", "responder-clock-started", "correction-agreed",
        "claim", "quickplay-claim", "quickplay-decision"} == INPUT_TYPES
    for kind, cls in EVENTS.items():
        fields = {f.name: _sample(f) for f in dataclasses.fields(cls) if _required(f) and f.name not in ("t", "seq")}
        line = to_json(cls(t=1.0, seq=2, **fields))
        assert line.get("derived") is (True if kind not in INPUT_TYPES else None), kind      # "derived": true
        assert line["type"] == kind


def _required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _sample(f: dataclasses.Field) -> object:
    return {"white": Player("Bernd"), "black": Player("Sabine")}.get(f.name, _by_type(str(f.type)))


def _by_type(hint: str) -> object:
    if hint.startswith("float"):
        return 1.0
    if hint.startswith("int"):
        return 1
    if hint.startswith("bool"):
        return True
    if hint.startswith("tuple"):
        return ()
    if hint in ("Color", "Color | None"):
        return "white"
    if hint == "BoardName":
        return "tactile"
    if hint == "ScoreName":
        return "blind"
    if hint == "ClaimKind":
        return "threefold"
    if hint == "QuickplayGround":
        return "cannot_win"
    if hint == "QuickplayVerdict":
        return "draw"
    return "x"


@pytest.mark.parametrize("event, article", [
    (Announce(t=0.0, text="e4"), "D.2.1"),
    (Press(t=0.0, color="white"), "D.2.4"),
    (DrawOffer(t=0.0, color="black"), "Art. 9.1"),
    (Flag(t=0.0, color="black"), "Art. 6.9"),
    (Adjourned(t=0.0, color="white"), "Guidelines I.1"),
    (SealedMove(t=0.0), "Guidelines I.1"),
    (EnvelopeOpened(t=0.0), "Guidelines I.7"),
    (Touch(t=0.0, board="tactile", square="e2"), "D.2.2"),
    (Touch(t=0.0, board="sighted", square="e2"), "D.2.10 e"),
    (MoveMade(t=0.0, ply=1, color="white", uci="e2e4", san="e4", blind=True), "D.2.3"),
    (MoveMade(t=0.0, ply=2, color="black", uci="e7e5", san="e5"), "D.2.5"),
    (BoardMove(t=0.0, board="tactile", uci="e2e4"), ""),
    (ClockResume(t=0.0), ""),
    (Reopened(t=0.0, closed_at=0.0), ""),
])
def test_each_event_names_the_article_it_is_about(event: GameEvent, article: str):
    assert event.article == article


def test_a_player_as_set_up_cannot_be_changed_afterwards():
    bernd = Player("Bernd Blind", True, "Anna")
    with pytest.raises(dataclasses.FrozenInstanceError):
        bernd.name = "Someone else"  # type: ignore[misc]
    start = SessionStart(t=0.0, white=bernd, black=Player("Sabine"))
    assert {start.white: "white"}[Player("Bernd Blind", True, "Anna")] == "white"


def test_an_outcome_no_longer_recorded_is_skipped_and_a_damaged_time_or_number_is_refused():
    assert from_json({"seq": 3, "type": "question", "t": 1.0, "text": "?"}) is None
    assert from_json({"seq": 4, "type": "heard", "t": 1.0}) is None
    assert from_json({"type": "clock-pause"}) == ClockPause(t=0.0, seq=0)       # no time, no number: the first
    for t in (True, "1.0", float("inf"), float("nan"), None):
        with pytest.raises(TypeError):
            from_json({"seq": 1, "type": "clock-pause", "t": t})
    for seq in (True, "1", 1.0):
        with pytest.raises(TypeError):
            from_json({"seq": seq, "type": "clock-pause", "t": 1.0})
    with pytest.raises(KeyError):
        from_json({"seq": 1, "type": "no-such-event", "t": 1.0})
    assert from_json({"seq": 1, "type": "clock-pause", "t": 2}).t == 2.0


def test_a_note_s_own_keys_are_the_line_s_keys_and_never_the_journal_s():
    note = Note(t=5.0, seq=9, text="Arbiter called", kind="arbiter", data={"board": "tactile", "seq": 99, "type": "x"})
    line = to_json(note)
    assert line == {"seq": 9, "type": "note", "t": 5.0, "text": "Arbiter called", "kind": "arbiter", "board": "tactile"}
    back = from_json({**line, "unit": "u1"})
    assert back == Note(t=5.0, seq=9, text="Arbiter called", kind="arbiter", data={"board": "tactile"})


@pytest.mark.parametrize("value, color", [
    (chess.WHITE, chess.WHITE), (chess.BLACK, chess.BLACK), ("white", chess.WHITE), ("w", chess.WHITE),
    ("White", chess.WHITE), ("WHITE", chess.WHITE), ("black", chess.BLACK), ("b", chess.BLACK), ("Black", chess.BLACK),
    ("BLACK", chess.BLACK)])
def test_a_colour_is_read_in_every_form_the_journal_has_written_it(value, color):
    assert parse_color(value) is color
    assert color_name(color) == ("white" if color == chess.WHITE else "black")


@pytest.mark.parametrize("value", ["weiss", "", None, 0, 1, "x"])
def test_anything_else_is_no_colour(value):
    with pytest.raises(ValueError):
        parse_color(value)


def test_a_time_for_an_event_is_to_the_millisecond_and_no_limit_is_none():
    assert seconds(12.34567) == 12.346 and seconds(0.0) == 0.0
    assert seconds(None) is None and seconds(float("inf")) is None


@pytest.mark.parametrize("by, article", [("claim", "Appendix A.4.2"), ("agreement", "Appendix B"),
                                         ("arbiter", "Appendix A c")])
def test_an_illegal_move_corrected_names_the_appendix_of_its_way(by, article):
    assert IllegalCorrected(t=0.0, color="white", ply=3, by=by).article == article
