"""Assistant mode (D.2.10, D.2.11): what the assistant does, derived from session events.

The visually impaired player may use an assistant who (D.2.10)
(a) makes either player's move on the opponent's board, (b) announces the moves
of both players, (c) keeps the visually impaired player's score and starts the
opponent's clock once the move is made (D.2.3), (d) tells the player the moves
completed and the time — **only at his request**, (e) claims the game when the
sighted player's time has expired and tells the arbiter when the sighted player
has touched one of his pieces, (f) carries out the formalities of an adjournment.
Without such an assistant the sighted player may use one for (a) and (b) only
(D.2.11).

:class:`Assistant` is a pure layer: :meth:`Assistant.feed` takes one event of
:class:`blindchess.session.Session` and returns :class:`Instruction` s — who is
told what, on which board, under which article. The app shows or speaks them;
:meth:`Assistant.attach` subscribes to a live session.

The events it reads (the session's shapes; every event is a dict with ``type``):

* ``session-start``: ``start_fen``, ``chess960``, ``blind`` ("white"/"black"/None), ``lang``;
* ``move-made``: ``ply``, ``color``, ``uci``, ``text`` (the spoken announcement);
* ``mirror-needed``: ``board`` ("tactile"/"sighted"), ``ply``, ``uci``;
* ``touch``: ``board``, ``square``, ``piece`` (symbol), ``by`` (colour), ``own``;
* ``flag-fallen``: ``color``;  ``time-request``: ``white``/``black`` = {moves, remaining};
* ``draw-offer``: ``color``;  ``game-end``: ``result``, ``message``;
* ``divergence``: ``ply``, ``message``;  ``sealed-move`` (an adjournment; older journals:
  ``note`` with ``text`` "adjourned").

Nothing is said to the visually impaired player unasked except the moves
themselves (D.2.10 d): clock events produce no instruction for him.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import chess

from .i18n import tr
from .notation import write
from .phonetic import piece_name
from .game import Session
from .talking_clock import phrase

Event = dict[str, Any]

Audience = Literal["assistant", "players", "blind", "arbiter"]


@dataclass(frozen=True)
class Instruction:
    """One thing to tell someone: ``to`` whom, what ``kind``, the ``text``, the ``article``."""

    to: Audience
    kind: str        # carry-out | announce | score | press-clock | claim | touch | time | draw | end | arbiter | adjournment
    text: str
    article: str
    board: str | None = None
    ply: int | None = None


def _color(value: Any) -> chess.Color:
    return value if isinstance(value, bool) else value == "white"


@dataclass
class Assistant:
    """The assistant of the visually impaired player (or, D.2.11, of the sighted player).

    ``blind_color``: the visually impaired player's colour. ``serves``: "blind"
    (D.2.10, all duties) or "sighted" (D.2.11: only carrying out and announcing).
    ``auto_press``: the app presses the clock itself, so no reminder is needed.
    """

    blind_color: chess.Color
    lang: str = "de"
    serves: Literal["blind", "sighted"] = "blind"
    auto_press: bool = False
    board: chess.Board = field(default_factory=chess.Board)
    score: list[str] = field(default_factory=list)       # (c) the blind player's score as the assistant writes it
    touches: list[Event] = field(default_factory=list)    # (e) touches by the sighted player, for the arbiter
    _written: dict[int, str] = field(default_factory=dict)
    _session: Any = None

    # -- wiring ------------------------------------------------------------------------
    @classmethod
    def for_session(cls, session: Session, *, serves: Literal["blind", "sighted"] = "blind") -> Assistant:
        """An assistant for a session with a visually impaired player, following its game."""
        if session.blind_color is None:
            raise ValueError("the session has no visually impaired player")
        return cls(blind_color=session.blind_color, lang=session.lang, serves=serves,
                   auto_press=session.auto_press, board=session.game_board(),
                   _session=session)

    def attach(self, session: Session, deliver: Callable[[Instruction], None]) -> Callable[[], None]:
        """Follow ``session``'s events and hand every instruction to ``deliver``; returns unsubscribe."""
        self._session = session

        def on_event(event: Event) -> None:
            for instruction in self.feed(event):
                deliver(instruction)

        return session.subscribe(on_event)

    # -- helpers -------------------------------------------------------------------------
    @property
    def full_duties(self) -> bool:
        """D.2.10 applies in full only to the visually impaired player's assistant (D.2.11)."""
        return self.serves == "blind"

    def _t(self, key: str, **params: Any) -> str:
        return tr(f"tournament.{key}", self.lang, **params)

    def _color_words(self, color: chess.Color) -> str:
        return self._t("white" if color else "black")

    def _written_move(self, ply: int, uci: str) -> str:
        """The move in the blind player's notation language, from the position before it."""
        if ply - 1 != len(self.board.move_stack) and self._session is not None:
            self.board = self._session.game_board()  # resynchronise (e.g. after a ruling)
            while len(self.board.move_stack) >= ply:
                self.board.pop()
        move = chess.Move.from_uci(uci)
        if ply - 1 != len(self.board.move_stack) or not self.board.is_legal(move):
            return uci
        text = write(self.board, move, self.lang)
        self.board.push(move)
        return text

    # -- events -> instructions ---------------------------------------------------------------
    def feed(self, event: Event) -> list[Instruction]:
        """The instructions that follow from one session event (often none)."""
        handler = _HANDLERS.get(str(event.get("type", "")))
        return handler(self, event) if handler is not None else []

    def _on_session_start(self, ev: Event) -> list[Instruction]:
        self.board = chess.Board(ev.get("start_fen") or chess.STARTING_FEN, chess960=bool(ev.get("chess960")))
        self.lang = ev.get("lang") or self.lang
        if ev.get("blind") in ("white", "black"):
            self.blind_color = ev["blind"] == "white"
        self.score.clear()
        self._written.clear()
        return []

    def _on_move_made(self, ev: Event) -> list[Instruction]:
        ply, mover = int(ev["ply"]), _color(ev["color"])
        written = self._written_move(ply, ev["uci"])
        self._written[ply] = written
        out = [Instruction("players", "announce",
                           self._t("asst_announce", color=self._color_words(mover), move=ev.get("text") or written),
                           "D.2.10 b", ply=ply)]
        if not self.full_duties:
            return out
        self.score.append(written)
        out.append(Instruction("assistant", "score", self._t("asst_score", number=self._move_number(ply),
                                                              move=written), "D.2.10 c", ply=ply))
        if mover == self.blind_color and not self.auto_press:
            out.append(Instruction("assistant", "press-clock",
                                   self._t("asst_press", color=self._color_words(not mover)), "D.2.10 c, D.2.3",
                                   ply=ply))
        return out

    def _move_number(self, ply: int) -> str:
        """"12." for White's move 12, "12 …" for Black's, counting from the game's start."""
        start_white = self.board.root().turn == chess.WHITE
        start_number = self.board.root().fullmove_number
        index = ply - 1 + (0 if start_white else 1)
        number = start_number + index // 2
        return f"{number}." if index % 2 == 0 else f"{number} …"

    def _on_mirror_needed(self, ev: Event) -> list[Instruction]:
        ply = int(ev["ply"])
        written = self._written.get(ply) or ev.get("san") or ev["uci"]
        board = ev["board"]
        return [Instruction("assistant", "carry-out",
                            self._t(f"asst_carry_out_{board}", move=written), "D.2.10 a", board=board, ply=ply)]

    def _on_touch(self, ev: Event) -> list[Instruction]:
        if not self.full_duties or ev.get("board") != "sighted" or _color(ev.get("by")) == self.blind_color:
            return []
        self.touches.append(dict(ev))
        return [Instruction("assistant", "touch",
                            self._t("asst_touch", color=self._color_words(not self.blind_color),
                                    piece=self._piece_words(ev.get("piece")), square=ev.get("square", "?")),
                            "D.2.10 e")]

    def _piece_words(self, symbol: str | None) -> str:
        if not symbol:
            return self._t("asst_no_piece")
        return piece_name(chess.Piece.from_symbol(symbol).piece_type, self.lang)

    def _on_flag_fallen(self, ev: Event) -> list[Instruction]:
        color = _color(ev["color"])
        if not self.full_duties or color == self.blind_color:
            return []
        return [Instruction("assistant", "claim", self._t("asst_claim_flag", color=self._color_words(color)),
                            "D.2.10 e")]

    def _on_time_request(self, ev: Event) -> list[Instruction]:
        if not self.full_duties or ev.get("by", "blind") != "blind":
            return []
        own, opp = ("white", "black") if self.blind_color == chess.WHITE else ("black", "white")
        mine, theirs = ev.get(own) or {}, ev.get(opp) or {}
        left, right = mine.get("remaining"), theirs.get("remaining")
        if left is None or right is None:
            return [Instruction("blind", "time", ev.get("message", ""), "D.2.10 d")]
        return [Instruction("blind", "time", phrase(float(left), float(right), int(mine.get("moves", 0)), self.lang),
                            "D.2.10 d")]

    def _on_draw_offer(self, ev: Event) -> list[Instruction]:
        return [Instruction("players", "draw", self._t("asst_draw_offer", color=self._color_words(_color(ev["color"]))),
                            "D.2.10 b")]

    def _on_game_end(self, ev: Event) -> list[Instruction]:
        return [Instruction("players", "end", ev.get("message") or self._t("asst_game_end", result=ev.get("result")),
                            "D.2.10 b")]

    def _on_divergence(self, ev: Event) -> list[Instruction]:
        if not self.full_duties:
            return []
        return [Instruction("arbiter", "arbiter", self._t("asst_divergence", ply=ev.get("ply")), "D.2.9")]

    def _on_sealed_move(self, ev: Event) -> list[Instruction]:
        """The game was adjourned with a sealed move (Guidelines I; the move itself stays hidden)."""
        if not self.full_duties:
            return []
        return [Instruction("assistant", "adjournment", self._t("asst_adjourned"), "D.2.10 f")]

    def _on_note(self, ev: Event) -> list[Instruction]:
        """Journals written before the ``sealed-move`` event marked an adjournment with a note."""
        return self._on_sealed_move(ev) if ev.get("text") == "adjourned" else []

    # -- on request ------------------------------------------------------------------------------
    def touch_report(self) -> str:
        """The sighted player's touches, for the arbiter (D.2.10 e)."""
        if not self.touches:
            return self._t("asst_no_touches")
        items = [self._t("asst_touch_item", piece=self._piece_words(t.get("piece")), square=t.get("square", "?"),
                         own=self._t("asst_own" if t.get("own") else "asst_opponents"))
                 for t in self.touches]
        return self._t("asst_touch_report", color=self._color_words(not self.blind_color), items="; ".join(items))

    def adjournment_steps(self, adjournment: Any) -> list[Instruction]:
        """Lead through the formalities of an adjournment (D.2.10 f), from a
        :class:`blindchess.envelope.Adjournment` in any phase."""
        if not self.full_duties:
            return []
        return [Instruction("assistant", "adjournment", text, "D.2.10 f, Guidelines I")
                for text in adjournment.next_steps(self.lang)]


#: The one registry: session event type -> what the assistant does with it (other events: nothing).
_HANDLERS: dict[str, Callable[[Assistant, Event], list[Instruction]]] = {
    "session-start": Assistant._on_session_start,
    "move-made": Assistant._on_move_made,
    "mirror-needed": Assistant._on_mirror_needed,
    "touch": Assistant._on_touch,
    "flag-fallen": Assistant._on_flag_fallen,
    "time-request": Assistant._on_time_request,
    "draw-offer": Assistant._on_draw_offer,
    "game-end": Assistant._on_game_end,
    "divergence": Assistant._on_divergence,
    "sealed-move": Assistant._on_sealed_move,
    "note": Assistant._on_note,
}
