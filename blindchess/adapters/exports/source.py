"""Where a game record comes from: a PGN file or a blindchess journal.

Every export format starts from a python-chess ``chess.pgn.Game``: a PGN file is
read with python-chess (a score that python-chess cannot read — German, French,
Russian … piece letters — through :func:`blindchess.language.notation.read_score`; of a
file with several games the first, with a warning), a journal is replayed by the rules engine (:class:`blindchess.game.Session`)
(``Session.open(path).to_pgn_game()``), which carries both game scores, clock
times, touches and rulings (FIDE Laws, Appendix D.2.2, D.2.7, D.2.9).

Bad input — a missing or unreadable file, text that holds no game, an illegal
move in the PGN, a broken journal — raises :class:`blindchess.base.errors.UserError`
with a message in the user's language; nothing else reaches the user. A
journal is checked line by line and against its replay: a damaged one is never
taken as whole (:func:`game_from_journal` lists what is wrong and the half-moves
it affects).
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
from pathlib import Path

import chess
import chess.pgn

from ...base import UserError, os_error_text, tr
from ...game import Session
from ...records import session_to_game
from ...storage import NotAJournal, Verdict, format_plies, read_journal, verdict

#: File name endings read as journals; anything else is read as PGN.
JOURNAL_SUFFIXES = (".jsonl", ".journal")


class _QuietBuilder(chess.pgn.GameBuilder):
    """Collects parse errors in ``game.errors`` without logging them to stderr."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def is_journal(path: Path, text: str | None = None) -> bool:
    """A journal by its name (``.jsonl``) or by its first character (a JSON object)."""
    if path.suffix.lower() in JOURNAL_SUFFIXES:
        return True
    return text is not None and text.lstrip().startswith("{")


def _read_text(path: Path, lang: str | None) -> str:
    if not path.exists():
        raise UserError(tr("records.missing_file", lang, path=path))
    if path.is_dir():
        raise UserError(tr("records.not_a_file", lang, path=path))
    from ...base import decode, read_bytes

    data = read_bytes(path, lang)
    try:
        # UTF-8, UTF-16 with BOM, else Windows-1252 (PGN's historical Latin-1 and more)
        return decode(data, path, lang)
    except UserError:
        raise UserError(tr("records.no_game", lang, path=path)) from None   # binary: no game in it


#: A PGN tag pair ([Event "…"]): a game without moves is still a game when it has one.
_TAG_PAIR = re.compile(r'^\s*\[\s*[A-Za-z0-9_]+\s+"', re.M)
_ILLEGAL = re.compile(r"(?:illegal|invalid|ambiguous) san: '([^']*)' in (\S+ \S+ \S+ \S+ \S+ \S+)")


def game_from_pgn_text(text: str, *, name: str = "PGN", lang: str | None = None) -> chess.pgn.Game:
    """The first game of a PGN text; an illegal move or no game at all is a UserError."""
    if "\x00" in text:
        raise UserError(tr("records.no_game", lang, path=name))
    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    except IndexError as exc:   # python-chess's builder on unbalanced variations: "1. e4 (( d5 )) e5"
        raise UserError(tr("records.pgn_broken", lang, path=name, error=tr("filecheck.pgn_variations", lang))) from exc
    if game is None or (not any(game.mainline_moves()) and not _TAG_PAIR.search(text)
                        and not re.search(r"\b1\s*\.", text)):
        raise UserError(tr("records.no_game", lang, path=name))
    if game.errors:
        fallback = _game_from_score(text)
        if fallback is not None:
            return fallback
        error = game.errors[0]
        found = _ILLEGAL.search(str(error))
        if found:
            board = chess.Board(found.group(2))
            raise UserError(tr("records.pgn_illegal", lang, path=name, move=found.group(1),
                               number=board.fullmove_number,
                               side=tr("records.white" if board.turn else "records.black", lang)))
        raise UserError(tr("records.pgn_broken", lang, path=name, error=error))
    return game


def _game_from_score(text: str) -> chess.pgn.Game | None:
    """The first game read as a score in any notation (German, French ... letters; FIDE Laws, Appendix C),
    or None when that reading finds a problem too."""
    try:
        from ...language import read_score, split_games
    except ImportError:   # pragma: no cover - the notation module is part of the package
        return None
    chunks = split_games(text)
    if not chunks:
        return None
    score = read_score(chunks[0])
    if not score.ok or not score.moves:
        return None
    game = chess.pgn.Game()
    for key, value in (chess.pgn.read_headers(io.StringIO(chunks[0])) or {}).items():
        game.headers[key] = value
    if score.start.chess960 or score.start.fen() != chess.STARTING_FEN:
        game.setup(score.start)
    node: chess.pgn.GameNode = game
    for move in score.moves:
        node = node.add_variation(move)
    return game


def count_games(text: str) -> int:
    """How many games a PGN text holds."""
    try:
        from ...language import split_games
    except ImportError:   # pragma: no cover
        return 1
    return len(split_games(text))


def journal_messages(result: Verdict, path: Path, lang: str | None = None) -> list[str]:
    """The lines that tell the user what is wrong with a journal (empty for a whole one):
    a summary naming the affected half-moves, one line per problem, a shorter game."""
    if result.whole:
        return []
    if result.plies:
        out = [tr("filecheck.journal_damaged", lang, path=path, count=len(result.problems) or 1,
                  plies=format_plies(result.plies))]
    else:
        out = [tr("filecheck.journal_damaged_between", lang, path=path, count=len(result.problems))]
    for line, reason in result.problems:
        why = tr("filecheck.why_" + reason.replace("-", "_"), lang, count=result.missing_lines.get(line, 1))
        span = result.spans.get(line, 1) if reason != "missing" else 1
        if span > 1:        # damaged lines one after another: named as one stretch, however long
            out.append(tr("filecheck.journal_lines", lang, first=line, last=line + span - 1, why=why))
        else:
            out.append(tr("filecheck.journal_line", lang, line=line, why=why))
    if result.replayed < result.recorded:
        out.append(tr("filecheck.journal_shorter", lang, recorded=result.recorded, replayed=result.replayed))
    return out


def journal_notes(result: Verdict, path: Path, lang: str | None = None) -> list[str]:
    """What a whole journal still reports: a write cut off by a crash (never acted on, nothing lost)."""
    if not result.whole or not result.notes:
        return []
    out = [tr("filecheck.journal_cut_off", lang, path=path, count=len(result.notes))]
    for line, reason in result.notes:
        out.append(tr("filecheck.journal_line", lang, line=line, why=tr("filecheck.why_" + reason, lang)))
    return out


def game_from_journal(path: Path, lang: str | None = None, warnings: list[str] | None = None,
                      damage: list[str] | None = None) -> chess.pgn.Game:
    """Replay a journal with the session and return its game (both scores, clocks, rulings), its
    comments in ``lang`` (touches and rulings told again when the game was played in another language).

    The session reopens a *copy* of the journal: reopening appends to the file it
    reads ("reopened", damage notes), and an export must leave the game's journal
    exactly as it was. The copy is checked line by line (:func:`blindchess.storage.journal.read_journal`)
    and the replayed game against the half-moves the journal records
    (:func:`blindchess.storage.journal.verdict`): what is wrong, with the half-moves it may
    affect, goes to ``damage`` (to ``warnings`` when ``damage`` is None); an old
    journal without check sums gets a note in ``warnings``.
    """
    with tempfile.TemporaryDirectory(prefix="blindchess-export-") as tmp:
        copy = Path(tmp) / path.name
        try:
            shutil.copyfile(path, copy)
            read = read_journal(copy)
        except NotAJournal as exc:     # refused from its first lines: the rest is never read
            raise UserError(tr("session.journal_no_start", lang, path=path)) from exc
        except OSError as exc:
            raise UserError(tr("records.unreadable_file", lang, path=path, error=os_error_text(exc, lang))) from exc
        try:
            session = Session.open(copy, read=read)
            try:
                game = session_to_game(session, lang)
                problems = list(session.snapshot.journal_problems)
                replayed = [m.uci() for m in session.snapshot.game_moves]
            finally:
                session.close()
        except UserError as exc:
            raise UserError(str(exc).replace(str(copy), str(path)), exc.exit_code) from exc
        except (ValueError, KeyError, TypeError, IndexError) as exc:   # a line that does not fit the game
            raise UserError(tr("records.broken_journal", lang, path=path,
                               error=f"{type(exc).__name__}: {exc}")) from exc
    result = verdict(read, replayed, problems)
    messages = journal_messages(result, path, lang)
    (damage if damage is not None else warnings if warnings is not None else []).extend(messages)
    if warnings is not None:
        warnings.extend(journal_notes(result, path, lang))
    if not result.checked and warnings is not None:
        warnings.append(tr("filecheck.journal_unchecked", lang, path=path))
    return game


def load_game(source: str | Path, lang: str | None = None, warnings: list[str] | None = None,
              damage: list[str] | None = None) -> chess.pgn.Game:
    """The game recorded in ``source`` (a journal or a PGN file); notes for the user go to ``warnings``,
    what is wrong with a journal to ``damage`` (see :func:`game_from_journal`)."""
    path = Path(source)
    if is_journal(path) and path.is_file():      # read as a stream, never whole (a PGN file is read whole)
        return game_from_journal(path, lang, warnings, damage)
    text = _read_text(path, lang)
    if is_journal(path, text):
        return game_from_journal(path, lang, warnings, damage)
    game = game_from_pgn_text(text, name=str(path), lang=lang)
    count = count_games(text)
    if count > 1 and warnings is not None:
        warnings.append(tr("records.several_games", lang, path=path, count=count))
    return game
