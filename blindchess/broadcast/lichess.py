"""The round pushed to a Lichess broadcast: spectators beyond the hall are served by Lichess, not by the hall.

Lichess's push API (its documentation: ``POST /api/broadcast/round/{broadcastRoundId}/push``, operation
``broadcastPush``): the round's PGN as the request's body (``Content-Type: text/plain``), the games one after
the other, separated by a blank line; ``Authorization: Bearer`` a personal API token with the
``study:write`` scope, of an account that may write to the broadcast; the round's id is 8 characters; a
round is a study of at most :data:`MAX_GAMES` chapters. Lichess answers 200 with ``{"games": [...]}``, one
entry per game pushed — its ``tags`` and either ``moves`` (the half-moves it took) or ``error`` —, 400 with
``{"error": "…"}`` when the PGN as a whole is refused, 401/403 for a token that may not write there, 429
when asked too often (then nothing for a minute, as Lichess asks of every client).

:class:`LichessPush` pushes the public PGN (held back by the delay, as every public answer) whenever it
changed, at most once every :data:`MIN_INTERVAL` seconds. A push that fails is tried again after a pause
that doubles each time (:data:`FIRST_PAUSE` up to :data:`MAX_PAUSE`), always with the newest PGN — so nothing
is lost: every game's whole PGN goes each time. What Lichess refused, and why a push failed, the arbiter is
told (``on_notices``: his page and the terminal), until a push goes through whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base import tr

if TYPE_CHECKING:
    import aiohttp

__all__ = ["LichessPush", "LichessTarget", "MAX_GAMES", "ROUND_ID", "TOKEN_VARIABLE", "URL_VARIABLE", "round_id_ok"]

#: Games (chapters) one Lichess broadcast round holds.
MAX_GAMES = 64
#: Seconds between two pushes at least.
MIN_INTERVAL = 1.0
FIRST_PAUSE = 2.0
MAX_PAUSE = 300.0
#: Seconds Lichess asks a client to wait after a 429.
RATE_PAUSE = 60.0
#: A round's id: 8 letters and digits.
ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")
#: Where the token is read from, and (for a stand-in, in tests) where Lichess is.
TOKEN_VARIABLE = "LICHESS_TOKEN"
URL_VARIABLE = "BLINDCHESS_LICHESS_URL"
DEFAULT_URL = "https://lichess.org"
_TIMEOUT = 30.0

_log = logging.getLogger("blindchess.broadcast")


def round_id_ok(text: str) -> bool:
    return ROUND_ID.fullmatch(text) is not None


@dataclass(frozen=True)
class LichessTarget:
    """The round to push to: its id, the token, and Lichess's address."""

    round_id: str
    token: str
    url: str = DEFAULT_URL

    @classmethod
    def from_environment(cls, round_id: str) -> LichessTarget | None:
        """The round ``round_id`` with the token of :data:`TOKEN_VARIABLE` (None when it is not set)."""
        token = os.environ.get(TOKEN_VARIABLE, "").strip()
        if not token:
            return None
        return cls(round_id, token, os.environ.get(URL_VARIABLE, "").strip().rstrip("/") or DEFAULT_URL)

    @property
    def endpoint(self) -> str:
        return f"{self.url}/api/broadcast/round/{self.round_id}/push"


class LichessPush:
    """Pushes the round (module docstring); runs in the broadcast's server loop (:meth:`run`), fed with
    :meth:`update`. ``on_notices`` hears what the arbiter must be told now (empty: all is well); ``sleep``: how
    a pause is waited (asyncio's)."""

    def __init__(self, target: LichessTarget, lang: str, on_notices: Callable[[tuple[str, ...]], None], *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.target = target
        self.lang = lang
        self._on_notices = on_notices
        self._sleep = sleep
        self._games: list[tuple[int, str, str]] = []     # (number, players, PGN) of the games to push
        self._pushed: str | None = None
        self._changed = asyncio.Event()
        self._notices: tuple[str, ...] = ()
        self._refused: list[str] = []              # the games Lichess did not take at the last push
        #: Pushes that went through, and answers Lichess gave (for the arbiter and the tests).
        self.pushes = 0
        self.answers: list[dict[str, Any]] = []

    def update(self, games: list[tuple[int, str, str]]) -> None:
        """The games as the public sees them now: (number, "White – Black", PGN), in number order."""
        self._games = games
        self._changed.set()

    async def run(self) -> None:
        """Push until cancelled."""
        import aiohttp  # the client: imported when pushing starts, not with the command line

        pause = FIRST_PAUSE
        timeout = aiohttp.ClientTimeout(total=_TIMEOUT)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while True:
                await self._changed.wait()
                self._changed.clear()
                games = self._games[:MAX_GAMES]
                body = "".join(pgn for _, _, pgn in games)
                if body == self._pushed or not games:
                    self._tell(self._count() + self._refused)     # the same games: only how many there are may differ
                    continue
                wait = await self._push(session, games, body)
                if wait is None:
                    pause = FIRST_PAUSE
                    await self._sleep(MIN_INTERVAL)
                    continue
                self._changed.set()            # the newest PGN goes again after the pause: nothing is lost
                await self._sleep(max(wait, pause))
                pause = min(pause * 2, MAX_PAUSE)

    async def _push(self, session: aiohttp.ClientSession, games: list[tuple[int, str, str]], body: str) -> float | None:
        """One push; None when it went through, else the seconds to wait at least before the next."""
        import aiohttp

        lang = self.lang
        notices = self._count()
        headers = {"Authorization": f"Bearer {self.target.token}", "Content-Type": "text/plain; charset=utf-8",
                   "Accept": "application/json"}
        try:
            async with session.post(self.target.endpoint, data=body.encode("utf-8"), headers=headers) as response:
                status = response.status
                try:
                    answer = await response.json(content_type=None)
                except (ValueError, aiohttp.ContentTypeError):
                    answer = None
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            self._tell([*notices, tr("broadcast.lichess_unreachable", lang, error=str(exc) or type(exc).__name__)])
            return FIRST_PAUSE
        if isinstance(answer, dict):
            self.answers.append(answer)
        if status == 200 and isinstance(answer, dict):
            self._pushed = body
            self.pushes += 1
            results = answer.get("games")
            self._refused = []
            if isinstance(results, list):
                for (number, players, _), result in zip(games, results, strict=False):
                    if isinstance(result, dict) and result.get("error"):
                        self._refused.append(tr("broadcast.lichess_game_error", lang, number=number, players=players,
                                                error=str(result["error"])))
            self._tell(notices + self._refused)
            return None
        why = str(answer.get("error")) if isinstance(answer, dict) and answer.get("error") else f"HTTP {status}"
        if status == 429:
            self._tell([*notices, tr("broadcast.lichess_busy", lang, seconds=int(RATE_PAUSE))])
            return RATE_PAUSE
        key = "broadcast.lichess_token_refused" if status in (401, 403) else "broadcast.lichess_refused"
        self._tell([*notices, tr(key, lang, error=why)])
        return FIRST_PAUSE

    def _count(self) -> list[str]:
        """What the arbiter must know of the round's size: more games than a Lichess round holds."""
        if len(self._games) <= MAX_GAMES:
            return []
        return [tr("broadcast.lichess_too_many", self.lang, count=len(self._games), limit=MAX_GAMES)]

    def _tell(self, notices: list[str]) -> None:
        told = tuple(notices)
        if told != self._notices:
            self._notices = told
            for text in told:
                _log.warning("%s", text)
            with contextlib.suppress(Exception):   # noqa: BLE001 - telling must never stop the pushes
                self._on_notices(told)
