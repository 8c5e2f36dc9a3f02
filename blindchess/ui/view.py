"""What the window shows of the table: boards, scores, names, clocks, the tactile board's state (read only).

:class:`TableView` is the read side of :class:`~blindchess.ui.controller.GameController`:
every value comes from the table (``self.table``) or its session as it stands;
nothing here changes the game or decides anything. Without a game it gives
empty boards and scores and the default names.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess

from ..game import BoardName, GameSnapshot, ScoreName, Session
from ..table import Table
from .new_game import GameSetup
from .settings import Settings
from .tactile import TactileLink
from .text import t
from .voice import Ears, TableVoice


class TableView:
    """The window's view of the table (mixed into the controller, which sets these attributes)."""

    table: Table | None
    tactile: TactileLink
    eboard: TactileLink
    lang: str
    now: Callable[[], float]
    voice: TableVoice
    ears: Ears | None
    setup: GameSetup | None
    settings: Settings

    @property
    def session(self) -> Session | None:
        """The rules engine's session (its clock, its proposed ruling), None without a game."""
        return self.table.session if self.table is not None else None

    @property
    def game(self) -> GameSnapshot | None:
        """The game as it stands, None without a game."""
        return self.table.game if self.table is not None else None

    @property
    def open_question(self) -> Any:
        return self.table.question if self.table is not None else None

    def board(self, which: BoardName) -> chess.Board:
        return self.table.session.board(which) if self.table is not None else chess.Board()

    def score(self, who: ScoreName) -> list[str]:
        return list(self.table.game.score(who)) if self.table is not None else []

    def start_board(self) -> chess.Board:
        return self.table.game.start if self.table is not None else chess.Board()

    @property
    def blind_color(self) -> bool | None:
        return self.table.game.blind_color if self.table is not None else None

    @property
    def sighted_color(self) -> bool:
        blind = self.blind_color
        return chess.WHITE if blind is None else not blind

    def player_names(self) -> tuple[str, str]:
        if self.table is None:
            return t("white", self.lang), t("black", self.lang)
        return self.table.game.white.name, self.table.game.black.name

    def sheet_names(self) -> tuple[str, str]:
        """(blind player's name, sighted player's name)."""
        game = self.game
        if game is None or game.blind_color is None:
            return t("score.blind", self.lang), t("score.sighted", self.lang)
        return game.player(game.blind_color).name, game.player(not game.blind_color).name

    def mismatch_names(self) -> list[str]:
        names = set(self.table.tactile_mismatch) if self.table is not None else set()
        if self.game is not None and self.game.divergence is not None:
            names |= set(self.game.divergence.squares)
        return sorted(names)

    def differing(self) -> set[int]:
        return {chess.parse_square(name) for name in self.mismatch_names()}

    def tactile_state(self) -> dict[str, Any]:
        """What the tactile-board panel shows."""
        table = self.table
        return {"port": self.tactile.port, "device": self.tactile.device, "mismatch": self.mismatch_names(),
                "in_sync": table.tactile_in_sync if table is not None else None,
                "adjusting": table.adjusting if table is not None else False}

    def eboard_state(self) -> dict[str, Any] | None:
        """What the e-board panel shows, None without an e-board at the table."""
        eboard = self.table.eboard if self.table is not None else None
        if eboard is None:
            return None
        return {"port": self.eboard.port, "device": self.eboard.device,
                "mismatch": list(eboard.differences or eboard.mismatch), "in_sync": eboard.in_sync,
                "adjusting": eboard.adjusting}

    def lifted(self) -> int | None:
        return self.table.lifted if self.table is not None else None

    def next_step(self) -> str:
        """One line: what the assistant or the players do now (the table's words)."""
        return self.table.next_step() if self.table is not None else t("next.no_game", self.lang)

    def clock_state(self) -> tuple[dict[bool, float | None], bool | None, dict[bool, int]]:
        """({colour: remaining, None without a clock}, running colour, {colour: moves completed})."""
        s = self.session
        if s is None:
            return {chess.WHITE: None, chess.BLACK: None}, None, {}
        now, clock = self.now(), s.clock
        remaining = {c: (clock.remaining(c, now) if s.snapshot.time_control is not None else None)
                     for c in (chess.WHITE, chess.BLACK)}
        running = None if clock.paused else clock.running
        return remaining, running, {c: clock.moves_completed(c) for c in (chess.WHITE, chess.BLACK)}

    def voice_name(self) -> str | None:
        return self.voice.name(self.lang)

    def model_name(self) -> str | None:
        return self.ears.model_name if self.ears is not None else None

    def can_listen(self) -> bool:
        return self.ears is not None and self.ears.can_listen()

    def wording(self) -> str:
        """How the blind player hears squares and moves: the table's (a resumed game keeps its own), else the setting."""
        return self.table.state.wording if self.table is not None else self.settings.wording

    def can_take_back(self) -> bool:
        """A practice game with coaching: the blind player may take back his move and the computer's reply."""
        opponent = self.table.opponent if self.table is not None else None
        return opponent is not None and opponent.coaching

    @property
    def journal_path(self) -> Path | None:
        return self.table.game.journal_path if self.table is not None else None

    def last_setup(self) -> GameSetup:
        if self.setup is not None:
            return self.setup
        return GameSetup(lang=self.lang, tactile="simulator" if self.settings.board_profile == "simulator" else (
            "serial" if self.settings.port else "none"), port=self.settings.port, profile=self.settings.board_profile)

    @property
    def proposal(self) -> Any:
        """The proposed D.2.9 ruling (``blindchess.laws.ruling.Ruling``) or None."""
        if self.table is None:
            return None
        return self.table.proposal or self.table.session.propose_ruling(self.lang)
