"""The new-game dialog: players, the event, the clock, the start position, the opponent, the boards.

The dialog only collects a :class:`GameSetup`; the controller turns it into a
table. Everything is reachable by keyboard (Tab order: players → event →
clock and start → opponent → boards → language → buttons; Alt+letter through
the captions) and every field has a caption that is its buddy and an
accessible name and description. The text fields are one-line plain-text
fields (:class:`~blindchess.ui.line.LineInput`): a screen reader reads their
value whole, and Enter in any of them presses "Partie starten" as in a line
edit. The time control and the e-board's port stay editable combo boxes: a
combo box takes only a line edit as its editor, and a screen reader reads the
box's value from the box itself, whole.

Checks before anything is created (the dialog stays open and says what is
wrong in its problem line, which is also announced, and the focus goes to the
field): the time control is read by ``clock.TimeControl.parse`` — pressing
Enter in that field starts the game with the time control as typed, never
without a clock; the date must be a date; at least one player is
visually impaired; a computer opponent needs exactly one visually impaired
player and an engine.
"""

from __future__ import annotations

import datetime
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from serial.tools import list_ports

from ..adapters import LEVELS, find_engine
from ..base import LANG_NAMES, UserError, tr
from ..laws import TimeControl, classify, random_number
from ..pegboard import available_profiles, load_profile
from . import a11y
from .line import LineInput
from .text import UI_LANGS, t

#: Time controls offered (PGN TimeControl-like, as ``clock.TimeControl.parse`` reads them); "" = no clock.
TIME_CONTROLS = ("40/5400+30:1800+30", "90+30", "60+30", "25+10", "15+10", "5+3", "")
#: The rule sets offered: "" from the time control (Appendices A, B), or one chosen.
RULES = ("", "standard", "rapid", "blitz")
#: Who plays the side that is not visually impaired.
OPPONENTS = ("human", "engine")
#: The sighted player's board: the window (mouse, keys) or a DGT e-board.
SIGHTED_BOARDS = ("window", "dgt")

W = TypeVar("W", bound=QWidget)


@dataclass
class GameSetup:
    """Everything needed to start a game (defaults: a human opponent, the window as the sighted board)."""

    white: str = ""
    black: str = ""
    white_impaired: bool = True
    black_impaired: bool = False
    assistant: str = ""
    time_control: str = "90+30"
    chess960: int | None = None         # None = standard chess
    tactile: str = "simulator"          # "none" | "simulator" | "profile" (port found by the profile) | "serial"
    port: str = ""                      # for "serial"
    profile: str = ""                   # boards/<profile>.toml for "profile" and "serial"
    lang: str = "de"
    notes: list[str] = field(default_factory=list)
    # the event: PGN headers Event, Site, Date ("YYYY.MM.DD"), Round; "" = unknown
    event: str = ""
    site: str = ""
    date: str = ""
    round: str = ""
    # for a broadcast: the board number, each player's rating, title and FIDE id (PGN's Board, WhiteElo,
    # WhiteTitle, WhiteFideId, …); "" = unknown, left out of the headers
    board: str = ""
    players: dict[str, str] = field(default_factory=dict)
    # practice games: the computer plays the side that is not visually impaired
    opponent: str = "human"             # "human" | "engine"
    engine_level: int = 2               # 1 (beginner) … 6 (strong), engine.LEVELS
    engine_path: str = ""               # "" = engine.find_engine()
    coaching: bool = False
    # the sighted player's board
    sighted_board: str = "window"       # "window" | "dgt"
    sighted_port: str = ""              # "" = found automatically
    # the rule set (FIDE Laws, Appendices A and B): "" = from the time control, or standard | rapid | blitz;
    # adequate supervision (A.3): without it flags and illegal moves count only when claimed
    rules: str = ""
    supervised: bool = True

    def headers(self) -> dict[str, str]:
        """The PGN headers Event, Site, Date, Round; PGN's unknowns ("?", "????.??.??") for empty fields."""
        known = {"Board": self.board.strip(), **{tag: value.strip() for tag, value in self.players.items()}}
        return {"Event": self.event.strip() or "?", "Site": self.site.strip() or "?",
                "Date": self.date.strip() or "????.??.??", "Round": self.round.strip() or "?",
                **{tag: value for tag, value in known.items() if value}}


#: The player's tags a broadcast shows (PGN): rating, title, FIDE id — each for White and Black.
PLAYER_TAGS = ("WhiteElo", "WhiteTitle", "WhiteFideId", "BlackElo", "BlackTitle", "BlackFideId")


def start_headers(moment: float | None = None) -> dict[str, str]:
    """PGN's UTCDate and UTCTime of a game that starts now (or at ``moment``, seconds since 1970)."""
    when = datetime.datetime.fromtimestamp(time.time() if moment is None else moment, datetime.UTC)
    return {"UTCDate": when.strftime("%Y.%m.%d"), "UTCTime": when.strftime("%H:%M:%S")}


def serial_ports() -> list[tuple[str, str]]:
    """(device, description) of the serial ports present now (pyserial's detection; none when it cannot look)."""
    try:
        return [(p.device, p.description or p.device) for p in list_ports.comports()]
    except OSError:
        return []


def _profiles(role: str) -> list[tuple[str, str]]:
    found = []
    for name in available_profiles():
        if name == "simulator":
            continue
        try:
            profile = load_profile(name)
        except UserError:
            continue  # a broken profile file is not offered; `blindchess pegboard` says what is wrong with it
        if profile.role == role:
            found.append((name, profile.title))
    return found


def board_profiles() -> list[tuple[str, str]]:
    """(name, title) of the tactile-board profiles shipped in ``boards/`` (role "blind"), without the simulator."""
    return _profiles("blind")


def sighted_profiles() -> list[tuple[str, str]]:
    """(name, title) of the sighted players' e-board profiles (role "sighted")."""
    return _profiles("sighted")


def check_time_control(text: str, lang: str) -> str | None:
    """None when ``text`` is a valid time control (or empty = no clock), else the message saying what is wrong."""
    try:
        TimeControl.parse(text.strip())
    except ValueError:
        return t("new.bad_time_control", lang, text=text.strip(), error=t("new.time_control_examples", lang))
    return None


def _amount(seconds: float, lang: str) -> str:
    """90 min / 1 min 30 s / 30 s — as a person reads a time."""
    whole = round(seconds)
    minutes, secs = divmod(whole, 60)
    if minutes and secs:
        return t("new.tc_min_s", lang, minutes=minutes, seconds=secs)
    if minutes:
        return t("new.tc_min", lang, minutes=minutes)
    return t("new.tc_s", lang, seconds=secs)


def describe_time_control(text: str, lang: str) -> str:
    """The time control ``text`` as a person reads it ("90 min + 30 s per move"); ValueError if unreadable."""
    tc = TimeControl.parse(text.strip())
    if tc is None:
        return t("new.no_clock", lang)
    parts = []
    for index, period in enumerate(tc.periods):
        time = _amount(period.seconds, lang)
        if period.moves is not None:
            part = t("new.tc_moves", lang, moves=period.moves, time=time)
        elif index:
            part = t("new.tc_rest", lang, time=time)
        else:
            part = time
        if period.increment:
            part += t("new.tc_increment", lang, time=_amount(period.increment, lang))
        if period.delay:
            part += t("new.tc_delay", lang, time=_amount(period.delay, lang))
        parts.append(part)
    return t("new.tc_then", lang).join(parts)


def pgn_date(text: str) -> str | None:
    """A date as PGN writes it ("2025.06.01") from "2025.06.01", "2025-06-01", "1.6.2025" or "06/01/2025";
    "" for an empty text (unknown); None when ``text`` is no date."""
    text = text.strip()
    if not text or text in ("?", "????.??.??"):
        return ""
    if re.fullmatch(r"\d{4}\.(\d{2}|\?\?)\.(\d{2}|\?\?)", text) and "?" in text:
        return text                                     # PGN's partly known date: "2025.??.??"
    for pattern, order in ((r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", "ymd"),
                           (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", "dmy"),
                           (r"(\d{1,2})/(\d{1,2})/(\d{4})", "mdy")):
        match = re.fullmatch(pattern, text)
        if match is None:
            continue
        values = dict(zip(order, (int(g) for g in match.groups()), strict=True))
        try:
            day = datetime.date(values["y"], values["m"], values["d"])
        except ValueError:
            return None
        return f"{day.year:04d}.{day.month:02d}.{day.day:02d}"
    return None


class NewGameDialog(QDialog):
    """Ask for a :class:`GameSetup`; after ``accept`` it is in :attr:`chosen`.

    ``today`` is the date the date field starts with when ``initial`` has none (default: today).
    """

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", initial: GameSetup | None = None,
                 today: datetime.date | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.chosen: GameSetup | None = None
        init = initial or GameSetup(lang=lang)
        self.setObjectName("new_game")
        self.setWindowTitle(t("new.title", lang))
        a11y.label(self, t("new.title", lang), t("new.description", lang))

        players, players_form = self._group("new.group_players")
        self.white = self._field(players_form, LineInput(init.white, players), "new.white")
        self.white.setPlaceholderText(t("white", lang))
        self.black = self._field(players_form, LineInput(init.black, players), "new.black")
        self.black.setPlaceholderText(t("black", lang))
        self.swap = QPushButton(t("new.swap", lang), players)
        a11y.label(self.swap, t("new.swap", lang), t("new.swap_button_description", lang))
        self.swap.clicked.connect(self._swap)
        players_form.addRow("", self.swap)
        self.white_impaired = self._box(players_form, QCheckBox(players), "new.white_impaired")
        self.white_impaired.setChecked(init.white_impaired)
        self.black_impaired = self._box(players_form, QCheckBox(players), "new.black_impaired")
        self.black_impaired.setChecked(init.black_impaired)
        self.assistant = self._field(players_form, LineInput(init.assistant, players), "new.assistant")

        event, event_form = self._group("new.group_event")
        self.event_name = self._field(event_form, LineInput(init.event, event), "new.event")
        self.site = self._field(event_form, LineInput(init.site, event), "new.site")
        start_date = init.date or (today or datetime.date.today()).strftime("%Y.%m.%d")
        self.date = self._field(event_form, LineInput(start_date, event), "new.date")
        self.round = self._field(event_form, LineInput(init.round, event), "new.round")
        self.board = self._field(event_form, LineInput(init.board, event), "broadcast.new_board")
        self.player_tags = {tag: self._field(event_form, LineInput(init.players.get(tag, ""), event),
                                             f"broadcast.new_{tag.lower()}") for tag in PLAYER_TAGS}

        clock, clock_form = self._group("new.group_clock")
        self.time_control = self._field(clock_form, QComboBox(clock), "new.time_control")
        self.time_control.setEditable(True)
        # Enter in the field must not add a list entry (it had no value: a game without a clock)
        self.time_control.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for tc in TIME_CONTROLS:
            self.time_control.addItem(tc or t("new.no_clock", lang), tc)
        self.time_control.setCurrentText(init.time_control or t("new.no_clock", lang))
        line = self.time_control.lineEdit()
        assert line is not None  # an editable combo box has its line edit
        line.setObjectName("time_control_text")
        a11y.label(line, t("new.time_control", lang), t("new.time_control_description", lang))
        self.time_meaning = QLabel("", clock)
        self.time_meaning.setObjectName("time_meaning")
        self.time_meaning.setWordWrap(True)
        self._field(clock_form, self.time_meaning, "new.time_meaning")
        self.rules = self._field(clock_form, QComboBox(clock), "new.rules")
        for rules in RULES:
            self.rules.addItem(t(f"new.rules_{rules or 'auto'}", lang), rules)
        self.rules.setCurrentIndex(max(0, self.rules.findData(init.rules)))
        self.supervised = self._box(clock_form, QCheckBox(clock), "new.supervised")
        self.supervised.setChecked(init.supervised)
        self.time_control.editTextChanged.connect(self._show_time_meaning)
        self.rules.currentIndexChanged.connect(self._show_time_meaning)
        self._show_time_meaning()

        start = QWidget(clock)
        row = QHBoxLayout(start)
        row.setContentsMargins(0, 0, 0, 0)
        self.standard = QRadioButton(t("new.standard", lang), start)
        self.fischer = QRadioButton(t("new.chess960", lang), start)
        self.number = QSpinBox(start)
        self.number.setRange(0, 959)
        self.number.setValue(init.chess960 if init.chess960 is not None else 518)
        self.random = QCheckBox(t("new.random", lang), start)
        for widget, key in ((self.standard, "new.standard"), (self.fischer, "new.chess960"),
                            (self.number, "new.number"), (self.random, "new.random")):
            a11y.label(widget, t(key, lang), t(f"{key}_description", lang))
            row.addWidget(widget)
        row.addStretch(1)
        (self.fischer if init.chess960 is not None else self.standard).setChecked(True)
        self.fischer.toggled.connect(self._update_enabled)
        self.random.toggled.connect(self._update_enabled)
        caption = QLabel(t("new.start", lang), clock)
        a11y.label(caption, t("new.start", lang), t("new.start_description", lang))
        caption.setBuddy(self.standard)
        clock_form.addRow(caption, start)

        opponent, opponent_form = self._group("new.group_opponent")
        who = QWidget(opponent)
        who_row = QHBoxLayout(who)
        who_row.setContentsMargins(0, 0, 0, 0)
        self.human = QRadioButton(t("new.opponent_human", lang), who)
        self.computer = QRadioButton(t("new.opponent_computer", lang), who)
        for widget, key in ((self.human, "new.opponent_human"), (self.computer, "new.opponent_computer")):
            a11y.label(widget, t(key, lang), t(f"{key}_description", lang))
            who_row.addWidget(widget)
        who_row.addStretch(1)
        (self.computer if init.opponent == "engine" else self.human).setChecked(True)
        caption = QLabel(t("new.opponent", lang), opponent)
        a11y.label(caption, t("new.opponent", lang), t("new.opponent_description", lang))
        caption.setBuddy(self.human)
        opponent_form.addRow(caption, who)
        self.level = self._field(opponent_form, QComboBox(opponent), "new.level")
        for lv in LEVELS:
            self.level.addItem(t("new.level_item", lang, number=lv.number, name=tr(f"engine.level_{lv.name}", lang)),
                               lv.number)
        self.level.setCurrentIndex(max(0, self.level.findData(init.engine_level)))
        path_row = QWidget(opponent)
        path_layout = QHBoxLayout(path_row)
        path_layout.setContentsMargins(0, 0, 0, 0)
        self.engine_path = LineInput(init.engine_path, path_row)
        self.engine_path.setPlaceholderText(t("new.engine_path_automatic", lang))
        self.engine_path.setMinimumWidth(  # the placeholder is shown in full, not cut
            self.engine_path.fontMetrics().horizontalAdvance(self.engine_path.placeholderText()) + 24)
        a11y.label(self.engine_path, t("new.engine_path", lang), t("new.engine_path_description", lang))
        self.browse = QPushButton(t("new.browse", lang), path_row)
        a11y.label(self.browse, t("new.browse", lang), t("new.browse_description", lang))
        self.browse.clicked.connect(self._browse_engine)
        path_layout.addWidget(self.engine_path, 1)
        path_layout.addWidget(self.browse)
        caption = QLabel(t("new.engine_path", lang), opponent)
        a11y.label(caption, t("new.engine_path", lang), t("new.engine_path_description", lang))
        caption.setBuddy(self.engine_path)
        opponent_form.addRow(caption, path_row)
        self.coaching = self._box(opponent_form, QCheckBox(opponent), "new.coaching_box")
        self.coaching.setChecked(init.coaching)
        self.human.toggled.connect(self._update_enabled)

        boards, boards_form = self._group("new.group_boards")
        self.tactile = self._field(boards_form, QComboBox(boards), "new.tactile")
        self.tactile.addItem(t("new.tactile_none", lang), ("none", ""))
        self.tactile.addItem(t("new.tactile_simulator", lang), ("simulator", ""))
        profiles = board_profiles()
        ports = serial_ports()
        for name, title in profiles:
            self.tactile.addItem(t("new.tactile_profile", lang, title=title), ("profile", name))
        for device, description in ports:
            self.tactile.addItem(t("new.tactile_port", lang, port=device, description=description), ("serial", device))
        wanted = (init.tactile, init.profile if init.tactile == "profile" else init.port)
        index = self.tactile.findData(wanted)
        self.tactile.setCurrentIndex(index if index >= 0 else (1 if init.tactile == "simulator" else 0))
        self.profile = self._field(boards_form, QComboBox(boards), "new.profile")
        for name, title in profiles:
            self.profile.addItem(title, name)
        if init.profile:
            self.profile.setCurrentIndex(max(0, self.profile.findData(init.profile)))
        self.tactile.currentIndexChanged.connect(self._update_enabled)
        self.sighted_board = self._field(boards_form, QComboBox(boards), "new.sighted_board")
        self.sighted_board.addItem(t("new.sighted_window", lang), "window")
        self.sighted_board.addItem(t("new.sighted_dgt", lang), "dgt")
        self.sighted_board.setCurrentIndex(max(0, self.sighted_board.findData(init.sighted_board)))
        self.sighted_board.currentIndexChanged.connect(self._update_enabled)
        self.sighted_port = self._field(boards_form, QComboBox(boards), "new.sighted_port")
        self.sighted_port.setEditable(True)
        self.sighted_port.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.sighted_port.addItem(t("new.port_automatic", lang), "")
        for device, description in ports:
            self.sighted_port.addItem(t("new.tactile_port", lang, port=device, description=description), device)
        if init.sighted_port:
            found = self.sighted_port.findData(init.sighted_port)
            if found >= 0:
                self.sighted_port.setCurrentIndex(found)
            else:
                self.sighted_port.setCurrentText(init.sighted_port)
        port_line = self.sighted_port.lineEdit()
        assert port_line is not None
        a11y.label(port_line, t("new.sighted_port", lang), t("new.sighted_port_description", lang))
        self.language = self._field(boards_form, QComboBox(boards), "new.language")
        for code in UI_LANGS:
            self.language.addItem(LANG_NAMES[code], code)   # each language named in its own language
        self.language.setCurrentIndex(max(0, self.language.findData(init.lang)))

        self.problem = QLabel("", self)
        self.problem.setObjectName("problem")   # coloured by the look (theme.py: QLabel#problem)
        self.problem.setWordWrap(True)
        a11y.label(self.problem, t("new.problem", lang), t("new.problem_description", lang))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        a11y.label(buttons, t("new.buttons", lang), t("new.buttons_description", lang))
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(t("new.start_game", lang))
        a11y.label(self.ok, t("new.start_game", lang), t("new.start_game_description", lang))
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(t("cancel", lang))
        a11y.label(cancel, t("cancel", lang), t("new.cancel_description", lang))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)

        # two columns (players and event | clock and opponent), the boards below across both; in a scroll area,
        # so at 200 % on a small screen nothing is cut off: the fields scroll (Tab scrolls to the focused one)
        content = QWidget(self)
        content.setObjectName("new_game_fields")
        self._content = content
        grid = QGridLayout(content)
        left, right = QVBoxLayout(), QVBoxLayout()
        for box in (players, event):
            left.addWidget(box)
        left.addStretch(1)
        for box in (clock, opponent):
            right.addWidget(box)
        right.addStretch(1)
        self._grid, self._columns, self._single = grid, (left, right, boards), False
        grid.addLayout(left, 0, 0)
        grid.addLayout(right, 0, 1)
        grid.addWidget(boards, 1, 0, 1, 2)
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(1, 3)
        self.fields_area = QScrollArea(self)
        self.fields_area.setObjectName("new_game_scroll")
        self.fields_area.setWidgetResizable(True)
        self.fields_area.setFrameShape(QFrame.Shape.NoFrame)
        self.fields_area.setWidget(content)
        a11y.label(self.fields_area, t("new.title", lang), t("new.description", lang))
        layout = self._main = QVBoxLayout(self)
        layout.addWidget(self.fields_area, 1)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self._buttons = buttons
        self._update_enabled()
        self._fitted = False
        self._fit_screen()
        self.white.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ building
    def _group(self, key: str) -> tuple[QGroupBox, QFormLayout]:
        box = QGroupBox(t(key, self.lang), self)
        a11y.label(box, t(key, self.lang), t(f"{key}_description", self.lang))
        form = QFormLayout(box)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return box, form

    def _field(self, form: QFormLayout, widget: W, key: str) -> W:
        """``widget`` in ``form`` with its caption (the buddy) and its accessible name and description."""
        a11y.form_row(form, widget, t(key, self.lang), t(f"{key}_description", self.lang))
        return widget

    def _box(self, form: QFormLayout, box: QCheckBox, key: str) -> QCheckBox:
        """A check box whose own text is its caption ("Weiß sehbehindert"), in a row of ``form``."""
        box.setText(t(key, self.lang))
        a11y.label(box, t(key, self.lang), t(f"{key}_description", self.lang))
        form.addRow("", box)
        return box

    def _fit_screen(self) -> None:
        """Open at the size the fields ask for (Qt would cap a dialog at 2/3 of the screen), within the screen."""
        self.ensurePolished()
        content = self._content
        margins = self._main.contentsMargins()
        bar = self.fields_area.verticalScrollBar().sizeHint().width()
        width = content.sizeHint().width() + bar + margins.left() + margins.right() + 4
        height = (content.sizeHint().height() + self.problem.sizeHint().height() + self._buttons.sizeHint().height()
                  + 2 * self._main.spacing() + margins.top() + margins.bottom() + 4)
        screen = self.screen()
        if screen is not None and width > screen.availableGeometry().width() and not self._single:
            self._one_column()        # large text: the groups one below the other, nothing cut at the right
            self._fit_screen()
            return
        if self._single and screen is not None:     # one column: as wide as the screen lets it be
            width = screen.availableGeometry().width()
        want = QSize(width, height)
        if screen is not None:
            want = want.boundedTo(screen.availableGeometry().size())
        self.resize(want)

    def _one_column(self) -> None:
        """Players and event, clock and opponent, the boards: one below the other (scrolling down, not sideways)."""
        left, right, boards = self._columns
        grid = self._grid
        self._single = True
        grid.removeItem(right)
        grid.removeWidget(boards)
        grid.addLayout(right, 1, 0)
        grid.addWidget(boards, 2, 0)
        grid.setColumnStretch(1, 0)
        for form in self._content.findChildren(QFormLayout):
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)      # each caption above its field
        for combo in self._content.findChildren(QComboBox):   # a long entry does not widen the field (its list shows it)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
            combo.setMinimumWidth(combo.fontMetrics().averageCharWidth() * 14)   # the look's style sheet ignores it

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        """Fit once more when shown: only now the look's stylesheet has polished every field."""
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            QTimer.singleShot(0, self._fit_screen)

    # ------------------------------------------------------------------ behaviour
    def _swap(self) -> None:
        white, black = self.white.text(), self.black.text()
        self.white.setText(black)
        self.black.setText(white)
        wi, bi = self.white_impaired.isChecked(), self.black_impaired.isChecked()
        self.white_impaired.setChecked(bi)
        self.black_impaired.setChecked(wi)

    def _update_enabled(self) -> None:
        self.number.setEnabled(self.fischer.isChecked() and not self.random.isChecked())
        self.random.setEnabled(self.fischer.isChecked())
        self.profile.setEnabled(self.tactile.currentData()[0] == "serial")
        computer = self.computer.isChecked()
        for widget in (self.level, self.engine_path, self.browse, self.coaching):
            widget.setEnabled(computer)
        self.sighted_port.setEnabled(self.sighted_board.currentData() == "dgt")

    def _show_time_meaning(self) -> None:
        text = self._time_control_text()
        try:
            meaning = describe_time_control(text, self.lang)
            tc = TimeControl.parse(text)
            if tc is not None:      # the rule set it leads to, or the one chosen (Appendices A, B)
                chosen = self.rules.currentData() if hasattr(self, "rules") else ""
                rules = chosen or classify(tc)
                meaning += "; " + t("new.rules_meaning", self.lang, rules=t(f"new.rules_{rules}", self.lang))
        except ValueError:
            meaning = t("new.time_unreadable", self.lang)
        a11y.set_text(self.time_meaning, meaning, f"{t('new.time_meaning', self.lang)}: {meaning}")
        # read with the field (and again when it changes): the label beside it takes no focus
        self.time_control.setAccessibleDescription(f"{t('new.time_meaning', self.lang)}: {meaning}")

    def _browse_engine(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, t("new.engine_path", self.lang), self.engine_path.text())
        if name:
            self.engine_path.setText(name)

    def _time_control_text(self) -> str:
        """The time control as typed or chosen: a list entry's value, else the text itself ("" = no clock)."""
        text = self.time_control.currentText().strip()
        index = self.time_control.findText(text)
        if index >= 0:
            value = self.time_control.itemData(index)
            return value if isinstance(value, str) else text
        return text

    def _sighted_port_text(self) -> str:
        text = self.sighted_port.currentText().strip()
        index = self.sighted_port.findText(text)
        if index >= 0:
            value = self.sighted_port.itemData(index)
            return value if isinstance(value, str) else text
        return text

    def setup(self) -> GameSetup:
        """The game as entered (a random Chess960 number is drawn here, once)."""
        chess960 = None
        if self.fischer.isChecked():
            chess960 = random_number() if self.random.isChecked() else self.number.value()
        kind, port = self.tactile.currentData()
        profile = ""
        if kind == "profile":
            profile, port = port, ""
        elif kind == "serial":
            profile = self.profile.currentData() or ""
        sighted = self.sighted_board.currentData() or "window"
        names = {True: self.white.text().strip(), False: self.black.text().strip()}
        if self.computer.isChecked() and self.white_impaired.isChecked() != self.black_impaired.isChecked():
            side = not self.white_impaired.isChecked()      # the computer plays the side that is not impaired
            names[side] = names[side] or self._engine_name()
        return GameSetup(
            white=names[True] or t("white", self.lang),
            black=names[False] or t("black", self.lang),
            white_impaired=self.white_impaired.isChecked(), black_impaired=self.black_impaired.isChecked(),
            assistant=self.assistant.text().strip(), time_control=self._time_control_text(),
            chess960=chess960, tactile=kind, port=port, profile=profile,
            lang=self.language.currentData() or self.lang,
            event=self.event_name.text().strip(), site=self.site.text().strip(),
            date=pgn_date(self.date.text()) or "", round=self.round.text().strip(), board=self.board.text().strip(),
            players={tag: box.text().strip() for tag, box in self.player_tags.items() if box.text().strip()},
            opponent="engine" if self.computer.isChecked() else "human",
            engine_level=int(self.level.currentData() or 2), engine_path=self.engine_path.text().strip(),
            coaching=self.coaching.isChecked() and self.computer.isChecked(),
            sighted_board=sighted, sighted_port=self._sighted_port_text() if sighted == "dgt" else "",
            rules=self.rules.currentData() or "", supervised=self.supervised.isChecked(),
        )

    def _engine_name(self) -> str:
        """The computer's name on the scoresheet: the engine's file name ("Stockfish"), else "Computer"."""
        found = find_engine(self.engine_path.text().strip() or None)
        return Path(found).stem.capitalize() if found else t("new.computer_name", self.lang)

    def problems(self) -> tuple[str, QWidget] | None:
        """What is wrong with the entries and the field to fix it in; None when the game can start."""
        lang = self.lang
        problem = check_time_control(self._time_control_text(), lang)
        if problem:
            return problem, self.time_control
        if pgn_date(self.date.text()) is None:
            return t("new.bad_date", lang, text=self.date.text().strip()), self.date
        impaired = (self.white_impaired.isChecked(), self.black_impaired.isChecked())
        if not any(impaired):
            return t("new.nobody_impaired", lang), self.white_impaired
        if self.computer.isChecked():
            if all(impaired):
                return t("new.computer_needs_sighted_side", lang), self.human
            path = self.engine_path.text().strip()
            if find_engine(path or None) is None:
                key = "new.engine_missing_path" if path else "new.engine_missing"
                return t(key, lang, path=path), self.engine_path
        return None

    def _accept(self) -> None:
        found = self.problems()
        if found is not None:
            problem, widget = found
            # shown, and in the accessible name: a screen reader reads it
            a11y.set_text(self.problem, problem, f"{t('new.problem', self.lang)}: {problem}")
            a11y.announce(self.problem, problem, assertive=True)
            widget.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        a11y.set_text(self.problem, "", t("new.problem", self.lang))
        self.chosen = self.setup()
        self.accept()
