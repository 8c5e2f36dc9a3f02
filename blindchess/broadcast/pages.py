"""What the broadcast serves, made once per change: the PGN files and two plain HTML pages.

``/games.pgn`` (every game, the file broadcast sites poll), ``/game/N.pgn`` (one game),
``/roundN/games.pgn`` (the games of one round, as a LiveChess folder has them), ``/`` (the
spectators' page) and ``/arbiter`` (every table's state, refreshing itself). The pages are plain
HTML for screen readers and every browser: a ``lang`` attribute, headings, tables with ``<th
scope>`` and a caption, the moves as text, nothing that needs a script (the arbiter's page renews
itself with a ``meta`` refresh). Every text is the broadcast's language; names and headers from
the journals are escaped.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import chess

from ..base import tr
from ..laws import format_time
from .reading import ClaimRecord, LiveGame, TableReport

__all__ = ["Page", "build_pages", "round_folder", "collection", "ARBITER_REFRESH", "PGN_TYPE", "HTML_TYPE"]

#: Seconds between two refreshes of the arbiter's page.
ARBITER_REFRESH = 5
PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"

_ROUND = re.compile(r"\s*(\d{1,4})(?:\.\d{1,4})?\s*")

_STYLE = """body{font-family:sans-serif;font-size:1.1rem;line-height:1.5;max-width:90rem;margin:1rem auto;padding:0 1rem;
color:#111;background:#fff}table{border-collapse:collapse;margin:1rem 0}caption{text-align:left;font-weight:bold}
th,td{border:1px solid #555;padding:.3rem .6rem;text-align:left;vertical-align:top}a{color:#0645ad}
a:focus{outline:3px solid #c00}.moves{max-width:60rem}.attention{font-weight:bold}"""


@dataclass(frozen=True)
class Page:
    """One response body with its type and entity tag (a hash of the body)."""

    body: bytes
    content_type: str
    etag: str

    @classmethod
    def of(cls, text: str, content_type: str) -> Page:
        body = text.encode("utf-8")
        return cls(body, content_type, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


def round_folder(game: LiveGame) -> str | None:
    """``roundN`` for a game whose ``Round`` header is a round number ("3", "3.1" — board 1 of round 3),
    else None (such a game is only in the file of all games)."""
    found = _ROUND.fullmatch(game.round)
    return f"round{int(found.group(1))}" if found else None


def collection(games: Sequence[tuple[int, LiveGame]]) -> str:
    """The PGN of ``games``, one after the other, in number order."""
    return "".join(game.pgn for _, game in games)


def build_pages(games: Sequence[tuple[int, LiveGame]], problems: Sequence[tuple[str, str]], lang: str,
                stamp: str) -> dict[str, Page]:
    """Every response of the broadcast by its path; ``stamp``: the time of this state, as shown."""
    pages = {"/games.pgn": Page.of(collection(games), PGN_TYPE)}
    rounds: dict[str, list[tuple[int, LiveGame]]] = {}
    for number, game in games:
        pages[f"/game/{number}.pgn"] = Page.of(game.pgn, PGN_TYPE)
        folder = round_folder(game)
        if folder is not None:
            rounds.setdefault(folder, []).append((number, game))
    for folder, members in rounds.items():
        pages[f"/{folder}/games.pgn"] = Page.of(collection(members), PGN_TYPE)
    index = Page.of(spectators_page(games, lang, stamp), HTML_TYPE)
    pages["/"] = pages["/index.html"] = index
    pages["/arbiter"] = Page.of(arbiter_page(games, problems, lang, stamp), HTML_TYPE)
    pages["/arbiter/still"] = Page.of(arbiter_page(games, problems, lang, stamp, refresh=False), HTML_TYPE)
    return pages


def not_found_page(lang: str) -> Page:
    """The page for an address the broadcast does not have."""
    body = (f"<h1>{escape(tr('broadcast.not_found_title', lang))}</h1>\n"
            f"<p>{escape(tr('broadcast.not_found_text', lang))} <a href=\"/\">{escape(tr('broadcast.title', lang))}</a></p>")
    return Page.of(_document(tr("broadcast.not_found_title", lang), body, lang), HTML_TYPE)


def error_page(code: int, lang: str) -> Page:
    """The page for a request refused (too long, a method that would change something, too many at once)."""
    title = tr("broadcast.error_title", lang, code=code)
    body = f"<h1>{escape(title)}</h1>\n<p>{escape(tr('broadcast.error_text', lang))}</p>"
    return Page.of(_document(title, body, lang), HTML_TYPE)


# -- the spectators' page ------------------------------------------------------------------------

def spectators_page(games: Sequence[tuple[int, LiveGame]], lang: str, stamp: str) -> str:
    """Every game: a table of the games, then each game's moves as text (headings for each)."""
    out = [f"<h1>{_t('title', lang)}</h1>",
           f"<p>{_t('updated', lang, time=stamp)} <a href=\"/games.pgn\">{_t('all_pgn', lang)}</a> · "
           f"<a href=\"/arbiter\">{_t('arbiter_link', lang)}</a></p>"]
    if not games:
        out.append(f"<p>{_t('no_games', lang)}</p>")
        return _document(tr("broadcast.title", lang), "\n".join(out), lang)
    cols = ("col_number", "col_round", "col_white", "col_black", "col_result", "col_moves", "col_last", "col_pgn")
    out.append(f"<table>\n<caption>{_t('games_caption', lang)}</caption>\n<thead><tr>"
               + "".join(f"<th scope=\"col\">{_t(c, lang)}</th>" for c in cols) + "</tr></thead>\n<tbody>")
    for number, game in games:
        h = game.headers
        last = game.moves[-1] if game.moves else "–"
        out.append(f"<tr><th scope=\"row\"><a href=\"#game-{number}\">{number}</a></th>"
                   f"<td>{escape(h.get('Round', '?'))}</td><td>{escape(h.get('White', '?'))}</td>"
                   f"<td>{escape(h.get('Black', '?'))}</td><td>{escape(_result(game, lang))}</td>"
                   f"<td>{(len(game.moves) + 1) // 2}</td><td>{escape(last)}</td>"
                   f"<td><a href=\"/game/{number}.pgn\">{_t('game_pgn', lang, number=number)}</a></td></tr>")
    out.append("</tbody>\n</table>")
    for number, game in games:
        out.append(_game_section(number, game, lang))
    return _document(tr("broadcast.title", lang), "\n".join(out), lang)


def _game_section(number: int, game: LiveGame, lang: str) -> str:
    h = game.headers
    heading = tr("broadcast.game_heading", lang, number=number, white=h.get("White", "?"), black=h.get("Black", "?"))
    about = [tr(f"broadcast.label_{key.lower()}", lang, value=h[key])
             for key in ("Event", "Site", "Date", "Round") if h.get(key, "?") not in ("?", "????.??.??", "")]
    out = [f"<section aria-labelledby=\"game-{number}\">", f"<h2 id=\"game-{number}\">{escape(heading)}</h2>"]
    if about:
        out.append(f"<p>{escape(' · '.join(about))}</p>")
    out.append(f"<p>{_t('result_line', lang, result=_result(game, lang, reason=True))}</p>")
    out.append(f"<h3>{_t('moves_heading', lang)}</h3>")
    text = moves_text(game.start, game.moves)
    out.append(f"<p class=\"moves\">{escape(text)}</p>" if text else f"<p>{_t('no_moves', lang)}</p>")
    clocks = _clocks(game.state, lang)
    if clocks:
        out.append(f"<p>{_t('clocks_line', lang, clocks=clocks)}</p>")
    if game.damage:
        out.append(f"<p>{_t('damage_heading', lang)}</p>\n<ul>"
                   + "".join(f"<li>{escape(line)}</li>" for line in game.damage) + "</ul>")
    out.append(f"<p><a href=\"/game/{number}.pgn\">{_t('game_pgn', lang, number=number)}</a></p>")
    out.append("</section>")
    return "\n".join(out)


def moves_text(start: chess.Board, moves: Sequence[str]) -> str:
    """"1. e4 e5 2. Sf3" — the half-moves numbered from the start position ("12... Tc8" when Black begins)."""
    parts: list[str] = []
    number, white = start.fullmove_number, start.turn == chess.WHITE
    for i, move in enumerate(moves):
        if white:
            parts.append(f"{number}. {move}")
        elif i == 0:
            parts.append(f"{number}... {move}")
        else:
            parts.append(move)
        if not white:
            number += 1
        white = not white
    return " ".join(parts)


def _result(game: LiveGame, lang: str, *, reason: bool = False) -> str:
    """The result ("läuft" while the game goes on), with why it ended when ``reason``."""
    if game.result == "*":
        return tr("broadcast.result_running", lang)
    if reason and game.state.reason and game.state.result == game.result:
        return f"{game.result} ({tr(f'session.reason_{game.state.reason}', lang)})"
    return game.result


# -- the arbiter's page --------------------------------------------------------------------------

def arbiter_page(games: Sequence[tuple[int, LiveGame]], problems: Sequence[tuple[str, str]], lang: str,
                 stamp: str, *, refresh: bool = True) -> str:
    """Each table's state for the arbiter: first the tables that need him, each with what is wrong and the
    proposed D.2.9 ruling in full; then every table in one table (whose move, boards, proposal, flags, claims).
    ``refresh``: the page renews itself (without: ``/arbiter/still``, for reading it through with a screen
    reader, which starts again at the top after each renewal)."""
    if refresh:
        renewal = (f"{_t('arbiter_refresh', lang, seconds=ARBITER_REFRESH)} "
                   f"<a href=\"/arbiter/still\">{_t('arbiter_still', lang)}</a>")
    else:
        renewal = f"{_t('arbiter_not_renewed', lang)} <a href=\"/arbiter\">{_t('arbiter_renewed', lang)}</a>"
    out = [f"<h1>{_t('arbiter_title', lang)}</h1>",
           f"<p>{_t('updated', lang, time=stamp)} {renewal} · <a href=\"/\">{_t('title', lang)}</a></p>",
           f"<h2>{_t('attention_heading', lang)}</h2>"]
    needed = [(number, game) for number, game in games if _needs_arbiter(game)]
    if not needed:
        out.append(f"<p>{_t('attention_none', lang)}</p>")
    for number, game in needed:
        out.append(_attention_section(number, game, lang))
    out.append(f"<h2>{_t('tables_heading', lang)}</h2>")
    if not games:
        out.append(f"<p>{_t('no_games', lang)}</p>")
    else:
        cols = ("col_table", "col_players", "col_state", "col_boards", "col_proposal", "col_flag", "col_claim",
                "col_clocks", "col_journal")
        out.append(f"<table>\n<caption>{_t('tables_caption', lang)}</caption>\n<thead><tr>"
                   + "".join(f"<th scope=\"col\">{_t(c, lang)}</th>" for c in cols) + "</tr></thead>\n<tbody>")
        for number, game in games:
            out.append(_table_row(number, game, lang))
        out.append("</tbody>\n</table>")
    if problems:
        out.append(f"<h2>{_t('files_heading', lang)}</h2>\n<ul>"
                   + "".join(f"<li>{escape(name)}: {escape(why)}</li>" for name, why in problems) + "</ul>")
    head = f"<meta http-equiv=\"refresh\" content=\"{ARBITER_REFRESH}\">\n" if refresh else ""
    return _document(tr("broadcast.arbiter_title", lang), "\n".join(out), lang, head=head)


def _needs_arbiter(game: LiveGame) -> bool:
    return game.state.needs_arbiter or bool(game.damage)


def _players(game: LiveGame) -> str:
    return f"{game.headers.get('White', '?')} – {game.headers.get('Black', '?')}"


def _attention_section(number: int, game: LiveGame, lang: str) -> str:
    """One table that needs the arbiter: a heading, then what is wrong, each in full."""
    s = game.state
    heading = tr("broadcast.table_heading", lang, number=number, players=_players(game))
    items = [_state_text(game, lang)]
    if s.parting is not None:
        items.append(_boards_text(s, lang))
        if s.proposal:
            items.append(tr("broadcast.proposal", lang, text=s.proposal))
    if s.flags and s.result is None:
        items.append(_flags_text(s, lang))
    items += game.damage
    return (f"<section aria-labelledby=\"table-{number}\">\n<h3 id=\"table-{number}\">{escape(heading)}</h3>\n<ul>"
            + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>\n</section>")


def _table_row(number: int, game: LiveGame, lang: str) -> str:
    s = game.state
    cells = [_players(game), _state_text(game, lang), _boards_text(s, lang), _proposal_short(s, lang),
             _flags_text(s, lang), _claims_text(s.claims, lang), _clocks(s, lang) or tr("broadcast.no_clock", lang),
             tr("broadcast.journal_damaged" if game.damage else "broadcast.journal_whole", lang)]
    head = str(number)
    if _needs_arbiter(game):
        head = f"<a href=\"#table-{number}\">{_t('attention_mark', lang)} {number}</a>"
    return (f"<tr><th scope=\"row\">{head}</th>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>")


def _proposal_short(s: TableReport, lang: str) -> str:
    if s.proposal_kind == "correct-board":
        return tr("broadcast.proposal_correct", lang)
    if s.proposal_kind == "retrace":
        return tr("broadcast.proposal_retrace", lang, ply=s.proposal_plies)
    if s.proposal_kind == "none":
        return tr("broadcast.proposal_none", lang)
    return tr("broadcast.none", lang)


def _color(color: chess.Color, lang: str) -> str:
    return tr("session.white" if color == chess.WHITE else "session.black", lang)


def _state_text(game: LiveGame, lang: str) -> str:
    s, h = game.state, game.headers
    if s.result is not None:
        if s.reason:
            return tr("broadcast.finished_reason", lang, result=s.result, reason=tr(f"session.reason_{s.reason}", lang))
        return tr("broadcast.finished", lang, result=s.result)
    name = h.get("White" if s.to_move == chess.WHITE else "Black", "?")
    parts = [tr("broadcast.to_move", lang, color=_color(s.to_move, lang), name=name)]
    if s.sealed:
        parts.append(tr("broadcast.sealed", lang))
    elif s.adjourned:
        parts.append(tr("broadcast.adjourned", lang))
    if s.draw_offer is not None:
        parts.append(tr("broadcast.draw_offer", lang, color=_color(s.draw_offer, lang)))
    return "; ".join(parts)


def _boards_text(s: TableReport, lang: str) -> str:
    p = s.parting
    if p is None:
        return tr("broadcast.boards_agree", lang)
    board = tr(f"broadcast.board_{p.board or 'both'}", lang)
    squares = ", ".join(p.squares) or "–"
    if p.ply == 0:
        return tr("broadcast.boards_part_start", lang, board=board, squares=squares)
    return tr("broadcast.boards_part", lang, board=board, ply=p.ply, squares=squares)


def _flags_text(s: TableReport, lang: str) -> str:
    if not s.flags:
        return tr("broadcast.no_flag", lang)
    return "; ".join(tr("broadcast.flag_fallen", lang, color=_color(c, lang)) for c in s.flags)


def _claims_text(claims: Sequence[ClaimRecord], lang: str) -> str:
    if not claims:
        return tr("broadcast.no_claim", lang)
    out = []
    for c in claims[-3:]:
        judgment = tr("broadcast.claim_open" if c.upheld is None else
                      "broadcast.claim_upheld" if c.upheld else "broadcast.claim_rejected", lang)
        out.append(tr("broadcast.claim", lang, color=_color(c.color, lang),
                      kind=tr(f"broadcast.claim_{c.kind}", lang), judgment=judgment))
    return "; ".join(out)


def _clocks(s: TableReport, lang: str) -> str:
    white, black = s.clocks
    if white is None or black is None:
        return ""
    running = {chess.WHITE: "", chess.BLACK: ""}
    if s.running is not None:
        running[s.running] = " " + tr("broadcast.clock_running", lang)
    return tr("broadcast.clocks", lang, white=format_time(white) + running[chess.WHITE],
              black=format_time(black) + running[chess.BLACK])


# -- the document --------------------------------------------------------------------------------

def _t(key: str, lang: str, **params: object) -> str:
    """A message of the broadcast, escaped for HTML."""
    return escape(tr(f"broadcast.{key}", lang, **params))


def _document(title: str, body: str, lang: str, *, head: str = "") -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"{escape(lang)}\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n{head}"
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n"
            "</body>\n</html>\n")
