"""The broadcast's pages: the spectators' page, the arbiter's, and the pieces each is made of.

Plain HTML for screen readers and every browser: a ``lang`` attribute, headings, tables with ``<th scope>``
and a caption, the moves as text, a board diagram per game with its position in words, nothing that needs
a script. One small script of the broadcast's own (``/live.js``, :mod:`.assets`) keeps them up to date from
``/events`` (Server-Sent Events) without a reload: it finds each game's row and section by
``data-game``, sets the text of the parts marked ``data-field`` that changed, inserts a game that is new,
lets the running clock tick, and puts the newest move — once — into the page's polite live region. The
arbiter's page is the same, never reloading; ``/arbiter/still`` is it without the script, to read through
as it stands. Every text is the broadcast's language; names and headers from the journals are escaped.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

import chess

from ..base import tr
from ..language import piece_letter
from ..laws import format_time
from .cards import clock_state, player_details, status_of
from .reading import ClaimRecord, LiveGame, TableReport

__all__ = ["Page", "round_folder", "collection", "moves_text", "spectators_page", "arbiter_page", "game_row",
           "game_section", "table_row", "attention_section", "not_found_page", "error_page", "locked_page",
           "board_alt", "announcement", "PGN_TYPE", "HTML_TYPE", "JSON_TYPE", "SVG_TYPE", "PAGE_TEXTS"]

PGN_TYPE = "application/x-chess-pgn; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"
JSON_TYPE = "application/json; charset=utf-8"
SVG_TYPE = "image/svg+xml; charset=utf-8"

_ROUND = re.compile(r"\s*(\d{1,4})(?:\.\d{1,4})?\s*")

_STYLE = """body{font-family:sans-serif;font-size:1.1rem;line-height:1.5;max-width:90rem;margin:1rem auto;padding:0 1rem;
color:#111;background:#fff;overflow-wrap:anywhere}table{border-collapse:collapse;margin:1rem 0}
caption{text-align:left;font-weight:bold}th,td{border:1px solid #555;padding:.3rem .6rem;text-align:left;vertical-align:top}
a{color:#0645ad}a:focus,select:focus{outline:3px solid #c00}.moves{max-width:60rem}.attention{font-weight:bold}
.scroll{overflow-x:auto;max-width:100%}.board{max-width:100%;height:auto;width:22rem}
.latest{border:2px solid #555;padding:.4rem .6rem;min-height:1.5em}
@media (max-width:40rem){body{font-size:1rem;padding:0 .5rem}th,td{padding:.2rem .3rem}}"""

#: The messages the script shows or says itself (given to it in the page, ``data-texts``).
PAGE_TEXTS = ("connection_lost", "connection_back", "updated", "notices_none", "announce_game")


@dataclass(frozen=True)
class Page:
    """One response body with its type and entity tag (a hash of the body)."""

    body: bytes
    content_type: str
    etag: str

    @classmethod
    def of(cls, text: str | bytes, content_type: str) -> Page:
        body = text.encode("utf-8") if isinstance(text, str) else text
        return cls(body, content_type, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')


def round_folder(game: LiveGame) -> str | None:
    """``roundN`` for a game whose ``Round`` header is a round number ("3", "3.1" — board 1 of round 3),
    else None (such a game is only in the file of all games)."""
    found = _ROUND.fullmatch(game.round)
    return f"round{int(found.group(1))}" if found else None


def collection(games: Sequence[tuple[int, LiveGame]]) -> str:
    """The PGN of ``games``, one after the other, in number order."""
    return "".join(game.pgn for _, game in games)


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


def last_move_text(game: LiveGame) -> str | None:
    """The last half-move with its number ("24. Sf3", "24... Tc8"), None before the first."""
    if not game.moves:
        return None
    plies = len(game.moves) - 1 + (0 if game.start.turn == chess.WHITE else 1)
    number = game.start.fullmove_number + plies // 2
    return f"{number}{'.' if plies % 2 == 0 else '...'} {game.moves[-1]}"


def announcement(number: int, game: LiveGame, lang: str, *, arbiter: bool = False) -> str | None:
    """What the live region says of a game's newest half-move (None before the first)."""
    move = last_move_text(game)
    if move is None:
        return None
    if arbiter:
        return tr("broadcast.announce_table_move", lang, number=number, move=move)
    return tr("broadcast.announce_move", lang, number=number, white=game.headers.get("White", "?"),
              black=game.headers.get("Black", "?"), move=move)


def board_alt(game: LiveGame, lang: str) -> str:
    """The board diagram's text alternative: the pieces of each side, king first, and whose move it is."""
    board = chess.Board(game.fen, chess960=game.start.chess960)
    order = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)
    letters = lang if lang in ("de", "en", "nl", "ru") else "en"

    def side(color: chess.Color) -> str:
        return " ".join(piece_letter(kind, letters) + chess.square_name(square)
                        for kind in order for square in board.pieces(kind, color))

    turn = tr("broadcast.to_move_short", lang, color=_color(board.turn, lang))
    move = last_move_text(game)
    if move is None:
        return tr("broadcast.board_alt_start", lang, white=side(chess.WHITE), black=side(chess.BLACK), turn=turn)
    return tr("broadcast.board_alt", lang, move=move, white=side(chess.WHITE), black=side(chess.BLACK), turn=turn)


# -- the spectators' page ------------------------------------------------------------------------

def spectators_page(games: Sequence[tuple[int, LiveGame]], lang: str, stamp: str, *, now: float, stale_after: float,
                    delay: float = 0.0, rows: Mapping[int, str] | None = None,
                    sections: Mapping[int, str] | None = None, version: int = 0) -> str:
    """Every game: a table of the games, the latest move (a polite live region), then each game's section.
    ``rows``/``sections``: the pieces already made (:func:`game_row`, :func:`game_section`) by number."""
    out = [f"<h1>{_t('title', lang)}</h1>",
           f"<p><span data-field=\"updated\">{_t('updated', lang, time=stamp)}</span> "
           f"<a href=\"/games.pgn\">{_t('all_pgn', lang)}</a> · <a href=\"/games.json\">{_t('all_json', lang)}</a> · "
           f"<a href=\"/arbiter\">{_t('arbiter_link', lang)}</a></p>",
           f"<p>{_t('live_note', lang)} <span data-field=\"connection\"></span></p>"]
    if delay:
        out.append(f"<p>{_t('delay_note', lang, seconds=int(delay))}</p>")
    out.append(_latest(games, lang))
    out.append("<div class=\"scroll\"><table data-list=\"rows\">\n"
               f"<caption>{_t('games_caption', lang)}</caption>\n<thead><tr>"
               + "".join(f"<th scope=\"col\">{_t(c, lang)}</th>" for c in _GAME_COLUMNS) + "</tr></thead>\n<tbody>")
    for number, game in games:
        out.append(rows[number] if rows and number in rows else game_row(number, game, lang, now, stale_after))
    out.append("</tbody>\n</table></div>")
    out.append(f"<p data-field=\"empty\"{' hidden' if games else ''}>{_t('no_games', lang)}</p>")
    out.append("<div data-list=\"sections\">")
    for number, game in games:
        out.append(sections[number] if sections and number in sections else game_section(number, game, lang, now,
                                                                                           stale_after))
    out.append("</div>")
    return _document(tr("broadcast.title", lang), "\n".join(out), lang, events=f"/events?v={version}")


_GAME_COLUMNS = ("col_number", "col_board", "col_round", "col_white", "col_black", "col_result", "col_status",
                 "col_moves", "col_last", "col_time", "col_pgn")


def _latest(games: Sequence[tuple[int, LiveGame]], lang: str) -> str:
    """The latest move (a polite live region the script fills once per new move) and which games it tells."""
    options = [f"<option value=\"all\">{_t('announce_all', lang)}</option>",
               f"<option value=\"none\">{_t('announce_none', lang)}</option>"]
    options += [f"<option value=\"{n}\">{_t('announce_game', lang, number=n)}</option>" for n, _ in games]
    return (f"<h2 id=\"latest-heading\">{_t('latest_heading', lang)}</h2>\n"
            f"<p><label for=\"announce-choice\">{_t('announce_choice', lang)}</label> "
            f"<select id=\"announce-choice\" data-list=\"choice\">{''.join(options)}</select></p>\n"
            "<p id=\"latest\" class=\"latest\" role=\"status\" aria-live=\"polite\" aria-atomic=\"true\" "
            "aria-labelledby=\"latest-heading\"></p>")


def game_row(number: int, game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    """One game's row in the table of games."""
    h = game.headers
    last = last_move_text(game) or "–"
    cells = [(None, h.get("Board", "–")), ("round", h.get("Round", "?")),
             ("white", _player(h, "White", lang)), ("black", _player(h, "Black", lang)),
             ("result", _result(game, lang)), ("status", _status_text(game, lang, now, stale_after)),
             ("moves", str((len(game.moves) + 1) // 2)), ("last", last)]
    out = [f"<tr data-game=\"{number}\" data-plies=\"{game.plies}\"{_clock_attr(game)}><th scope=\"row\">"
           f"<a href=\"#game-{number}\">{number}</a></th>"]
    out += [f"<td{_field(name)}>{escape(value)}</td>" for name, value in cells]
    out.append(f"<td data-field=\"clocks\">{_clock_spans(number, game, lang)}</td>")
    out.append(f"<td><a href=\"/game/{number}.pgn\">{_t('game_pgn', lang, number=number)}</a></td></tr>")
    return "".join(out)


def game_section(number: int, game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    """One game: heading, what is known of it, the board diagram, the moves as text, the clocks, links."""
    h = game.headers
    heading = tr("broadcast.game_heading", lang, number=number, white=h.get("White", "?"), black=h.get("Black", "?"))
    about = [tr(f"broadcast.label_{key.lower()}", lang, value=h[key])
             for key in ("Event", "Site", "Date", "Round", "Board") if h.get(key, "?") not in ("?", "????.??.??", "")]
    out = [f"<section data-game=\"{number}\" data-plies=\"{game.plies}\"{_clock_attr(game)} aria-labelledby=\"game-{number}\">",
           f"<h2 id=\"game-{number}\">{escape(heading)}</h2>"]
    if about:
        out.append(f"<p>{escape(' · '.join(about))}</p>")
    players = [tr("broadcast.label_player", lang, color=_color(color, lang), player=_player(h, name, lang))
               for color, name in ((chess.WHITE, "White"), (chess.BLACK, "Black"))]
    out.append(f"<p>{escape(' · '.join(players))}</p>")
    out.append(f"<p data-field=\"result_line\">{_t('result_line', lang, result=_result(game, lang, reason=True))}</p>")
    out.append(f"<p data-field=\"status_line\">{escape(_status_line(game, lang, now, stale_after))}</p>")
    out.append(f"<p><img class=\"board\" data-field=\"board\" src=\"/game/{number}.svg?p={game.plies}\" width=\"360\" "
               f"height=\"360\" alt=\"{escape(board_alt(game, lang))}\"></p>")
    out.append(f"<h3>{_t('moves_heading', lang)}</h3>")
    text = moves_text(game.start, game.moves)
    out.append(f"<p class=\"moves\" data-field=\"moves_text\">{escape(text) if text else _t('no_moves', lang)}</p>")
    out.append(f"<p data-field=\"clocks_line\">{_clocks_line(number, game, lang)}</p>")
    if game.damage:
        out.append(f"<p>{_t('damage_heading', lang)}</p>\n<ul>"
                   + "".join(f"<li>{escape(line)}</li>" for line in game.damage) + "</ul>")
    out.append(f"<p><a href=\"/game/{number}.pgn\">{_t('game_pgn', lang, number=number)}</a> · "
               f"<a href=\"/game/{number}.json\">{_t('game_json', lang, number=number)}</a></p>")
    out.append("</section>")
    return "\n".join(out)


def _player(headers: Mapping[str, str], side: str, lang: str) -> str:
    """"Name (FM, 2350)" — the player with his title and rating where known."""
    name = headers.get(side, "?") or "?"
    details = player_details(headers, side)
    parts = [p for p in (details["title"], None if details["rating"] is None else str(details["rating"])) if p]
    return tr("broadcast.player_with", lang, name=name, details=", ".join(parts)) if parts else name


def _result(game: LiveGame, lang: str, *, reason: bool = False) -> str:
    """The result ("läuft" while the game goes on), with why it ended when ``reason``."""
    if game.result == "*":
        return tr("broadcast.result_running", lang)
    if reason and game.state.reason and game.state.result == game.result:
        return f"{game.result} ({tr(f'session.reason_{game.state.reason}', lang)})"
    return game.result


def _status_text(game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    return tr(f"broadcast.status_{status_of(game, now, stale_after)}", lang)


def _status_line(game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    status = status_of(game, now, stale_after)
    if status == "stale":
        return tr("broadcast.stale_line", lang, time=_clock_time(game.changed))
    if status == "adjourned":
        return tr("broadcast.adjourned_line", lang)
    return tr(f"broadcast.status_{status}", lang)


def _clock_time(moment: float) -> str:
    import time

    return time.strftime("%H:%M", time.localtime(moment))


def _clock_spans(number: int, game: LiveGame, lang: str) -> str:
    """The times left, each in a span the script lets tick while that clock runs."""
    white, black = game.state.clocks
    if white is None or black is None:
        return _t("no_clock", lang)
    running = game.state.running if game.result == "*" and not game.state.adjourned else None

    def span(color: chess.Color, seconds: float, name: str) -> str:
        mark = " " + tr("broadcast.clock_running", lang) if running == color else ""
        return f"<span data-clock=\"{name}\">{escape(format_time(seconds))}</span>{escape(mark)}"

    template = escape(tr("broadcast.clocks", lang, white="\x00w", black="\x00b"))
    return template.replace("\x00w", span(chess.WHITE, white, "white")).replace("\x00b", span(chess.BLACK, black, "black"))


def _clocks_line(number: int, game: LiveGame, lang: str) -> str:
    spans = _clock_spans(number, game, lang)
    if game.state.clocks[0] is None:
        return spans
    return escape(tr("broadcast.clocks_line", lang, clocks="\x00c")).replace("\x00c", spans)


# -- the arbiter's page --------------------------------------------------------------------------

_TABLE_COLUMNS = ("col_table", "col_players", "col_state", "col_boards", "col_proposal", "col_flag", "col_claim",
                  "col_clocks", "col_journal")


def arbiter_page(games: Sequence[tuple[int, LiveGame]], problems: Sequence[tuple[str, str]], lang: str, stamp: str,
                 *, now: float, stale_after: float, live: bool = True, notices: Sequence[str] = (),
                 rows: Mapping[int, str] | None = None, version: int = 0) -> str:
    """Each table's state for the arbiter: first the tables that need him, each with what is wrong and the
    proposed D.2.9 ruling in full; then every table in one table (whose move, boards, proposal, flags, claims).
    ``live``: the page keeps itself up to date (without: ``/arbiter/still``, to read it through as it stands);
    ``notices``: what the broadcast has to tell him (a push to Lichess refused)."""
    if live:
        renewal = (f"{_t('arbiter_live', lang)} <span data-field=\"connection\"></span> "
                   f"<a href=\"/arbiter/still\">{_t('arbiter_still', lang)}</a>")
    else:
        renewal = f"{_t('arbiter_not_renewed', lang)} <a href=\"/arbiter\">{_t('arbiter_renewed', lang)}</a>"
    out = [f"<h1>{_t('arbiter_title', lang)}</h1>",
           f"<p><span data-field=\"updated\">{_t('updated', lang, time=stamp)}</span> {renewal} · "
           f"<a href=\"/\">{_t('title', lang)}</a></p>"]
    if live:
        out.append(f"<h2 id=\"latest-heading\">{_t('latest_heading', lang)}</h2>\n"
                   "<p id=\"latest\" class=\"latest\" role=\"status\" aria-live=\"polite\" aria-atomic=\"true\" "
                   "aria-labelledby=\"latest-heading\"></p>")
    out.append(f"<h2>{_t('notices_heading', lang)}</h2>\n<ul data-field=\"notices\">"
               + ("".join(f"<li>{escape(n)}</li>" for n in notices) or f"<li>{_t('notices_none', lang)}</li>")
               + "</ul>")
    out.append(f"<h2>{_t('attention_heading', lang)}</h2>")
    needed = [(number, game) for number, game in games if needs_arbiter(game, now, stale_after)]
    out.append(f"<p data-field=\"attention_none\"{' hidden' if needed else ''}>{_t('attention_none', lang)}</p>")
    out.append("<div data-list=\"attention\">")
    for number, game in needed:
        out.append(attention_section(number, game, lang, now, stale_after))
    out.append("</div>")
    out.append(f"<h2>{_t('tables_heading', lang)}</h2>")
    out.append(f"<p data-field=\"empty\"{' hidden' if games else ''}>{_t('no_games', lang)}</p>")
    out.append("<div class=\"scroll\"><table data-list=\"rows\">\n"
               f"<caption>{_t('tables_caption', lang)}</caption>\n<thead><tr>"
               + "".join(f"<th scope=\"col\">{_t(c, lang)}</th>" for c in _TABLE_COLUMNS) + "</tr></thead>\n<tbody>")
    for number, game in games:
        out.append(rows[number] if rows and number in rows else table_row(number, game, lang, now, stale_after))
    out.append("</tbody>\n</table></div>")
    if problems:
        out.append(f"<h2>{_t('files_heading', lang)}</h2>\n<ul>"
                   + "".join(f"<li>{escape(name)}: {escape(why)}</li>" for name, why in problems) + "</ul>")
    return _document(tr("broadcast.arbiter_title", lang), "\n".join(out), lang,
                     events=f"/arbiter/events?v={version}" if live else None)


def needs_arbiter(game: LiveGame, now: float, stale_after: float) -> bool:
    """The boards part, a flag fell, the journal is damaged, or a running game's table has gone silent."""
    return game.state.needs_arbiter or bool(game.damage) or status_of(game, now, stale_after) == "stale"


def _players(game: LiveGame) -> str:
    return f"{game.headers.get('White', '?')} – {game.headers.get('Black', '?')}"


def attention_section(number: int, game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    """One table that needs the arbiter: a heading, then what is wrong, each in full."""
    s = game.state
    heading = tr("broadcast.table_heading", lang, number=number, players=_players(game))
    items = [_state_text(game, lang)]
    if status_of(game, now, stale_after) == "stale":
        items.append(tr("broadcast.stale_line", lang, time=_clock_time(game.changed)))
    if s.parting is not None:
        items.append(_boards_text(s, lang))
        if s.proposal:
            items.append(tr("broadcast.proposal", lang, text=s.proposal))
    if s.flags and s.result is None:
        items.append(_flags_text(s, lang))
    items += game.damage
    return (f"<section data-game=\"{number}\" aria-labelledby=\"table-{number}\">\n"
            f"<h3 id=\"table-{number}\">{escape(heading)}</h3>\n<ul data-field=\"attention\">"
            + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>\n</section>")


def attention_text(game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    """What the arbiter is told when a table comes to need him (the first thing wrong)."""
    s = game.state
    if s.parting is not None:
        return _boards_text(s, lang)
    if s.flags and s.result is None:
        return _flags_text(s, lang)
    if game.damage:
        return game.damage[0]
    return tr("broadcast.stale_line", lang, time=_clock_time(game.changed))


def table_row(number: int, game: LiveGame, lang: str, now: float, stale_after: float) -> str:
    """One table's row for the arbiter."""
    s = game.state
    state = _state_text(game, lang)
    if status_of(game, now, stale_after) == "stale":
        state += "; " + tr("broadcast.stale_line", lang, time=_clock_time(game.changed))
    cells = [("players", _players(game)), ("state", state), ("boards", _boards_text(s, lang)),
             ("proposal", _proposal_short(s, lang)), ("flag", _flags_text(s, lang)),
             ("claim", _claims_text(s.claims, lang))]
    head = str(number)
    if needs_arbiter(game, now, stale_after):
        head = f"<a href=\"#table-{number}\">{_t('attention_mark', lang)} {number}</a>"
    journal = tr("broadcast.journal_damaged" if game.damage else "broadcast.journal_whole", lang)
    return (f"<tr data-game=\"{number}\" data-plies=\"{game.plies}\"{_clock_attr(game)}><th scope=\"row\" "
            f"data-field=\"head\">{head}</th>"
            + "".join(f"<td data-field=\"{name}\">{escape(value)}</td>" for name, value in cells)
            + f"<td data-field=\"clocks\">{_clock_spans(number, game, lang)}</td>"
            + f"<td data-field=\"journal\">{escape(journal)}</td></tr>")


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


# -- pages of their own --------------------------------------------------------------------------

def not_found_page(lang: str) -> Page:
    """The page for an address the broadcast does not have."""
    body = (f"<h1>{_t('not_found_title', lang)}</h1>\n"
            f"<p>{_t('not_found_text', lang)} <a href=\"/\">{_t('title', lang)}</a></p>")
    return Page.of(_document(tr("broadcast.not_found_title", lang), body, lang), HTML_TYPE)


def error_page(code: int, lang: str) -> Page:
    """The page for a request refused (too long, a method that would change something, too many at once)."""
    title = tr("broadcast.error_title", lang, code=code)
    body = f"<h1>{escape(title)}</h1>\n<p>{_t('error_text', lang)}</p>"
    return Page.of(_document(title, body, lang), HTML_TYPE)


def locked_page(lang: str) -> Page:
    """The arbiter's page asked for without its token."""
    body = (f"<h1>{_t('locked_title', lang)}</h1>\n<p>{_t('locked_text', lang)}</p>\n"
            f"<p><a href=\"/\">{_t('title', lang)}</a></p>")
    return Page.of(_document(tr("broadcast.locked_title", lang), body, lang), HTML_TYPE)


# -- the document --------------------------------------------------------------------------------

def _t(key: str, lang: str, **params: object) -> str:
    """A message of the broadcast, escaped for HTML."""
    return escape(tr(f"broadcast.{key}", lang, **params))


def _clock_attr(game: LiveGame) -> str:
    """The clocks for the script to let tick (``data-clock-state``)."""
    return f" data-clock-state=\"{escape(json.dumps(clock_state(game)))}\""


def _field(name: str | None) -> str:
    return f" data-field=\"{name}\"" if name else ""


def _document(title: str, body: str, lang: str, *, events: str | None = None) -> str:
    """A whole page; ``events``: the address of its live updates (the script is then part of the page)."""
    head = ""
    attrs = ""
    if events is not None:
        texts = {key: tr(f"broadcast.{key}", lang) for key in PAGE_TEXTS}
        head = "<script src=\"/live.js\" defer></script>\n"
        attrs = (f" data-events=\"{escape(events)}\" data-texts=\"{escape(json.dumps(texts, ensure_ascii=False))}\"")
    return (f"<!DOCTYPE html>\n<html lang=\"{escape(lang)}\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n{head}"
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body{attrs}>\n<main>\n{body}\n</main>\n"
            "</body>\n</html>\n")
