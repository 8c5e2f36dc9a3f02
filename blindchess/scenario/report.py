"""What a scenario run reports: the events as JSON lines and as a readable log in the user's language.

:func:`event_json` gives an event's JSON object (``t`` and ``type`` first),
:func:`in_time_order` and :func:`json_lines` a run's events in time order (what
``blindchess scenario run --json`` prints), :func:`format_event` the readable
log lines of one event (what it prints without ``--json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from ..base import tr
from ..language import san_in
from ..table import TableEvent

__all__ = ["event_json", "in_time_order", "json_lines", "format_event", "QUIET_TYPES"]


def event_json(event: TableEvent) -> dict[str, object]:
    """The event's JSON object (``t`` and ``type`` first)."""
    data = event.to_json()
    return {"t": data["t"], "type": data["type"], **{k: v for k, v in data.items() if k not in ("t", "type")}}


def in_time_order(events: Sequence[TableEvent]) -> list[dict[str, object]]:
    """The events' JSON objects sorted by ``t`` (stable: same-time events keep their order); the ``final``
    state last — it is read at the script's end, and speech may still end after it."""
    return sorted((event_json(e) for e in events),
                  key=lambda d: (d["type"] == "final", float(d["t"])))  # type: ignore[arg-type]


def json_lines(events: Sequence[TableEvent]) -> Iterator[str]:
    """One JSON object a line, in time order."""
    for data in in_time_order(events):
        yield json.dumps(data, ensure_ascii=False)


_TO = {"blind": "to_blind", "sighted": "to_sighted", "all": "to_all"}
_BY = {"blind": "by_blind", "sighted": "by_sighted"}
_KINDS = {"correct-board": "kind_correct_board", "retrace": "kind_retrace"}
_BOARDS = {"sighted": "board_sighted", "tactile": "board_tactile"}


def _clock_text(value: object, lang: str) -> str:
    """Seconds as h:mm:ss (None: no clock)."""
    if not isinstance(value, (int, float)):
        return tr("scenario.log_no_clock", lang)
    whole = int(max(0.0, float(value)))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


#: Event types the readable log leaves out: ``speak`` repeats what ``said`` reports,
#: ``device`` requests concern the board's wire (they are in the JSON).
QUIET_TYPES = frozenset({"speak", "device"})


def format_event(data: dict[str, object], lang: str) -> list[str]:
    """The readable log lines for one event's JSON object, in the user's language ``lang``.

    Empty for the types in :data:`QUIET_TYPES`.
    """
    t = float(data["t"])  # type: ignore[arg-type]
    kind = str(data["type"])
    stamp = tr("scenario.log_stamp", lang, t=f"{t:9.2f}") + "  "

    def word(table: dict[str, str], value: object) -> str:
        key = table.get(str(value))
        return tr(f"scenario.{key}", lang) if key else str(value)

    if kind == "said":
        text = tr("scenario.log_said", lang, to=word(_TO, data.get("to")), text=data.get("text"))
        if data.get("cut"):
            text += " " + tr("scenario.log_cut", lang)
    elif kind == "shown":
        text = tr("scenario.log_shown", lang, text=data.get("text"))
    elif kind == "touched":
        text = tr("scenario.log_touched", lang, square=data.get("square"), by=word(_BY, data.get("by")))
    elif kind == "move":
        text = tr("scenario.log_move", lang, ply=data.get("ply"), san=san_in(str(data.get("san") or ""), lang),
                  uci=data.get("uci"))      # the JSON keeps python-chess SAN; the log writes the user's letters
    elif kind == "question":
        text = tr("scenario.log_question", lang, to=word(_TO, data.get("to")), text=data.get("text"),
                  candidates=", ".join(str(c) for c in data.get("candidates") or []))  # type: ignore[attr-defined]
    elif kind == "refused":
        text = tr("scenario.log_refused", lang, text=data.get("text"))
    elif kind == "divergence":
        text = tr("scenario.log_divergence", lang, ply=data.get("ply"))
    elif kind == "ruling":
        text = tr("scenario.log_ruling", lang, kind=word(_KINDS, data.get("kind")), plies=data.get("plies"))
    elif kind == "heard":
        text = tr("scenario.log_heard" if data.get("confidence") is not None else "scenario.log_heard_sure", lang,
                  by=word(_BY, data.get("by")), text=data.get("text"), confidence=data.get("confidence"))
    elif kind == "mirrored":
        text = tr("scenario.log_mirrored", lang, board=word(_BOARDS, data.get("board")), ply=data.get("ply"))
    elif kind == "clock":
        text = tr("scenario.log_clock", lang, ply=data.get("ply"), white=_clock_text(data.get("white"), lang),
                  black=_clock_text(data.get("black"), lang))
    elif kind == "game-end":
        text = tr("scenario.log_game_end", lang, result=data.get("result"))
    elif kind == "ended":
        text = tr("scenario.log_ended", lang, result=data.get("result"),
                  reason=tr(f"session.reason_{data.get('reason')}", lang))
    elif kind == "claim":
        text = tr("scenario.log_claim_upheld" if data.get("upheld") else "scenario.log_claim_rejected", lang,
                  by=word(_BY, data.get("by")), kind=tr(f"scenario.claim_{data.get('kind')}", lang))
    elif kind == "adjourned":
        text = tr("scenario.log_adjourned", lang, by=word(_BY, data.get("sealer")), ply=data.get("ply"))
    elif kind == "sealed":
        text = tr("scenario.log_sealed", lang, by=word(_BY, data.get("by")))
    elif kind == "resumed":
        text = tr("scenario.log_resumed", lang, uci=data.get("uci") or "–")
    elif kind == "responder-absent":
        text = tr("scenario.log_responder_absent", lang, by=word(_BY, data.get("responder")))
    elif kind == "sealer-absent":
        text = tr("scenario.log_sealer_absent", lang, by=word(_BY, data.get("sealer")))
    elif kind == "envelope-lost":
        text = tr("scenario.log_envelope_mismatch" if data.get("reason") == "mismatch" else "scenario.log_envelope_missing",
                  lang, by=word(_BY, data.get("sealer")))
    elif kind == "final":
        return [stamp + line for line in _final_lines(data, lang)]
    elif kind in QUIET_TYPES:
        return []
    else:
        rest = {k: v for k, v in data.items() if k not in ("t", "type")}
        text = f"{kind} {json.dumps(rest, ensure_ascii=False)}" if rest else kind
    return [stamp + text]


def _final_lines(data: dict[str, object], lang: str) -> list[str]:
    boards = data.get("boards") or {}
    scores = data.get("scores") or {}
    clocks = data.get("clocks") or {}
    assert isinstance(boards, dict) and isinstance(scores, dict) and isinstance(clocks, dict)

    result = data.get("result") or "*"
    return [
        tr("scenario.log_final", lang, result=result, plies=data.get("plies")),
        "    " + tr("scenario.log_game", lang, fen=data.get("game")),
        "    " + tr("scenario.log_sighted_board", lang, fen=boards.get("sighted")),
        "    " + tr("scenario.log_tactile_board", lang, fen=boards.get("tactile")),
        "    " + tr("scenario.log_score_blind", lang, moves=" ".join(str(m) for m in scores.get("blind") or [])),
        "    " + tr("scenario.log_score_sighted", lang, moves=" ".join(str(m) for m in scores.get("sighted") or [])),
        "    " + tr("scenario.log_clocks", lang, white=_clock_text(clocks.get("white"), lang),
                                    black=_clock_text(clocks.get("black"), lang)),
    ]
