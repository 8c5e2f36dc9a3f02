"""The application's looks — light, dark and high contrast — and font scaling.

A *choice* is what the user sets (``Settings.theme``):

* ``"normal"`` — follow the system: its high-contrast setting (Qt's
  ``QStyleHints.accessibility().contrastPreference()``) gives the high-contrast
  look, its dark colour scheme (``QStyleHints.colorScheme()``) the dark look,
  anything else the light look. Changes of the system setting are followed
  while the app runs.
* ``"light"``, ``"dark"``, ``"high-contrast"`` — that look, whatever the system says.

Every colour of a look is data in :data:`SCHEMES`: the Qt palette, the
colours the app paints itself (clock digits in low time, problems, frames),
the board's colours and the stylesheet, which is generated from the same
data. :func:`text_pairs` lists every text/background pair of a look, and the
tests compute their contrast (WCAG 2.x relative luminance) from the palette
and the stylesheet actually applied: every text reaches 4.5:1 (WCAG 1.4.3 AA),
every mark and frame 3:1 against what it is drawn on (WCAG 1.4.11).

Font scaling multiplies the platform font, so every widget grows together;
the "next step" line is 1.25 times the scaled font (by the stylesheet, so it
grows as well), the board's coordinates follow the widget font.

Errors: :func:`apply` raises ``ValueError`` for an unknown choice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

#: What the user may choose (``Settings.theme``); "normal" follows the system.
CHOICES = ("normal", "light", "dark", "high-contrast")
#: Kept for older callers: the choices.
THEMES = CHOICES
#: Smallest and largest font scale (Ctrl+- / Ctrl++).
MIN_SCALE, MAX_SCALE = 0.8, 3.0
#: The "next step" line relative to the (scaled) application font.
NEXT_STEP_FACTOR = 1.25
#: WCAG 2.x minimum contrast: text (1.4.3, level AA) and graphical objects (1.4.11).
TEXT_CONTRAST, MARK_CONTRAST = 4.5, 3.0

_ROLE = QPalette.ColorRole
_GROUP = QPalette.ColorGroup


@dataclass(frozen=True)
class Theme:
    """One look. All colours are "#rrggbb".

    ``palette``: Qt palette role name -> colour (Active and Inactive groups);
    ``disabled``: the same for the Disabled group (roles not named there take ``palette``'s);
    ``app``: colours the app paints itself — "clock_low" (clock digits in low time),
    "problem" (a problem line), "focus" (focus frame), "running" (frame of the running clock),
    "border" (control borders), "diff_text"/"diff_background"/"first_diff_background" (score entries
    that differ);
    ``board``: the board's colours — "light", "dark" (squares), "coord", "background",
    "last" (tint of the last move's squares), "last_frame" (its corner marks), "lifted", "diff",
    "select", "cursor";
    ``frame_width``: control border width in pixels (0: the style's own frames).
    """

    name: str
    dark: bool
    palette: Mapping[str, str]
    disabled: Mapping[str, str]
    app: Mapping[str, str]
    board: Mapping[str, str]
    frame_width: int = 0

    def role(self, role: str, *, disabled: bool = False) -> str:
        """The colour of palette ``role`` (e.g. "WindowText") in the active or disabled group."""
        if disabled and role in self.disabled:
            return self.disabled[role]
        return self.palette[role]


SCHEMES: dict[str, Theme] = {
    "light": Theme(
        name="light", dark=False,
        palette={
            "Window": "#efefef", "WindowText": "#000000", "Base": "#ffffff", "AlternateBase": "#f4f4f4",
            "Text": "#000000", "Button": "#e4e4e4", "ButtonText": "#000000", "BrightText": "#ffffff",
            "Highlight": "#1c5fb0", "HighlightedText": "#ffffff", "ToolTipBase": "#ffffdc", "ToolTipText": "#000000",
            "PlaceholderText": "#5c5c5c", "Link": "#0b4fa8", "LinkVisited": "#6a1b9a",
            "Light": "#ffffff", "Midlight": "#cacaca", "Mid": "#a0a0a0", "Dark": "#6e6e6e", "Shadow": "#4a4a4a",
        },
        disabled={"WindowText": "#5e5e5e", "Text": "#5e5e5e", "ButtonText": "#5e5e5e",
                  "Base": "#efefef", "Button": "#e4e4e4", "Highlight": "#6e6e6e", "HighlightedText": "#ffffff"},
        app={"clock_low": "#b00000", "problem": "#b00000", "focus": "#1e6fd9", "running": "#1e6fd9",
             "border": "#6e6e6e", "diff_text": "#000000", "diff_background": "#ffc8c8",
             "first_diff_background": "#ff8a8a"},
        board={"light": "#f0d9b5", "dark": "#b58863", "coord": "#333333", "background": "#ffffff",
               "last": "#cdd26a", "last_frame": "#1a237e", "lifted": "#0d47a1", "diff": "#a00000",
               "select": "#0b5d1e", "cursor": "#0a0a0a", "halo": "#ffffff"},
    ),
    "dark": Theme(
        name="dark", dark=True,
        palette={
            "Window": "#1e1e1e", "WindowText": "#f0f0f0", "Base": "#121212", "AlternateBase": "#262626",
            "Text": "#f0f0f0", "Button": "#2d2d2d", "ButtonText": "#f0f0f0", "BrightText": "#ffffff",
            "Highlight": "#5aa9ff", "HighlightedText": "#000000", "ToolTipBase": "#2d2d2d", "ToolTipText": "#f0f0f0",
            "PlaceholderText": "#a8a8a8", "Link": "#8ab4f8", "LinkVisited": "#d7aefb",
            "Light": "#505050", "Midlight": "#3c3c3c", "Mid": "#2a2a2a", "Dark": "#101010", "Shadow": "#000000",
        },
        disabled={"WindowText": "#9a9a9a", "Text": "#9a9a9a", "ButtonText": "#9a9a9a",
                  "Base": "#1e1e1e", "Button": "#262626", "Highlight": "#505050", "HighlightedText": "#f0f0f0"},
        app={"clock_low": "#ff7b7b", "problem": "#ff8f8f", "focus": "#5aa9ff", "running": "#5aa9ff",
             "border": "#8a8a8a", "diff_text": "#000000", "diff_background": "#ffc8c8",
             "first_diff_background": "#ff8a8a"},
        board={"light": "#d9c7a8", "dark": "#8f6a4a", "coord": "#e0e0e0", "background": "#1e1e1e",
               "last": "#cdd26a", "last_frame": "#0d1450", "lifted": "#0d47a1", "diff": "#a00000",
               "select": "#0b5d1e", "cursor": "#000000", "halo": "#ffffff"},
    ),
    "high-contrast": Theme(
        name="high-contrast", dark=True,
        palette={
            "Window": "#000000", "WindowText": "#ffffff", "Base": "#000000", "AlternateBase": "#1a1a1a",
            "Text": "#ffffff", "Button": "#000000", "ButtonText": "#ffff00", "BrightText": "#000000",
            "Highlight": "#ffff00", "HighlightedText": "#000000", "ToolTipBase": "#000000", "ToolTipText": "#ffff00",
            "PlaceholderText": "#c0c0c0", "Link": "#ffff00", "LinkVisited": "#ff80ff",
            "Light": "#ffffff", "Midlight": "#c0c0c0", "Mid": "#808080", "Dark": "#ffffff", "Shadow": "#ffffff",
        },
        disabled={"WindowText": "#a0a0a0", "Text": "#a0a0a0", "ButtonText": "#a0a0a0",
                  "Highlight": "#a0a0a0", "HighlightedText": "#000000"},
        app={"clock_low": "#ff7070", "problem": "#ff7070", "focus": "#ff00ff", "running": "#00e5ff",
             "border": "#ffff00", "diff_text": "#000000", "diff_background": "#ffc8c8",
             "first_diff_background": "#ff8a8a"},
        board={"light": "#ffffff", "dark": "#6e6e6e", "coord": "#ffff00", "background": "#000000",
               "last": "#ffd700", "last_frame": "#0000c0", "lifted": "#0040c0", "diff": "#b00000",
               "select": "#006000", "cursor": "#a000a0", "halo": "#ffffff"},
        frame_width=2,
    ),
}

#: Text colour / background pairs of a look, as (what, foreground key, background key). Keys are palette
#: roles ("Text"), disabled roles ("disabled:Text"), app colours ("app:clock_low") or board colours
#: ("board:coord"). :func:`text_pairs` turns them into colours.
TEXT_ROLES: tuple[tuple[str, str, str], ...] = (
    ("window text", "WindowText", "Window"),
    ("text in fields and tables", "Text", "Base"),
    ("text in alternate table rows", "Text", "AlternateBase"),
    ("button text", "ButtonText", "Button"),
    ("selected text", "HighlightedText", "Highlight"),
    ("tool tip", "ToolTipText", "ToolTipBase"),
    ("placeholder text", "PlaceholderText", "Base"),
    ("link", "Link", "Base"),
    ("link on the window", "Link", "Window"),
    ("visited link", "LinkVisited", "Base"),
    ("bright text on dark (pressed buttons)", "BrightText", "Dark"),
    ("disabled window text", "disabled:WindowText", "disabled:Window"),
    ("disabled field text", "disabled:Text", "disabled:Base"),
    ("disabled button text", "disabled:ButtonText", "disabled:Button"),
    ("disabled selected text", "disabled:HighlightedText", "disabled:Highlight"),
    ("clock digits in low time", "app:clock_low", "Window"),
    ("problem line", "app:problem", "Window"),
    ("differing score entry", "app:diff_text", "app:diff_background"),
    ("first differing score entry", "app:diff_text", "app:first_diff_background"),
    ("board coordinates", "board:coord", "board:background"),
)
#: Frames of the window (WCAG 1.4.11, 3:1) as (what, mark key, background key).
MARK_ROLES: tuple[tuple[str, str, str], ...] = (
    ("focus frame on the window", "app:focus", "Window"),
    ("focus frame in a field", "app:focus", "Base"),
    ("running clock frame", "app:running", "Window"),
)
#: The board's marks. Each is drawn twice: a line ``HALO_EXTRA`` pixels wider in "halo", then the mark itself,
#: so a mark stands out on light squares, dark squares and the last move's tint alike.
BOARD_MARKS = ("last_frame", "lifted", "diff", "select", "cursor")
#: The squares a mark may be drawn on: plain light/dark, and both tinted by the last move.
BOARD_GROUNDS = ("light", "dark", "light+last", "dark+last")
#: Opacity (0–255) of the last move's tint over a square.
LAST_TINT_ALPHA = 170
#: How much wider (pixels) the halo line is than the mark it surrounds.
HALO_EXTRA = 4


@dataclass(frozen=True)
class Pair:
    """A foreground/background pair of one look and its contrast ratio.

    With a ``halo`` (board marks) the mark counts as seen when the mark or its halo reaches the ratio.
    """

    theme: str
    what: str
    foreground: str
    background: str
    halo: str | None = None

    @property
    def ratio(self) -> float:
        own = contrast(self.foreground, self.background)
        return own if self.halo is None else max(own, contrast(self.halo, self.background))


def colour_of(theme: Theme, key: str) -> str:
    """The colour named by ``key`` in ``theme`` (see :data:`TEXT_ROLES`). KeyError for an unknown key."""
    kind, _, name = key.rpartition(":")
    if kind == "app":
        return theme.app[name]
    if kind == "board":
        return theme.board[name]
    return theme.role(name, disabled=kind == "disabled")


def ground(theme: Theme, name: str) -> str:
    """The colour of a square as painted: "light", "dark", or "light+last"/"dark+last" (under the tint)."""
    square, _, tint = name.partition("+")
    base = theme.board[square]
    return blend(theme.board["last"], base, LAST_TINT_ALPHA / 255) if tint else base


def blend(top: str, bottom: str, opacity: float) -> str:
    """``top`` painted over ``bottom`` with ``opacity`` (0..1), as "#rrggbb"."""
    a, b = QColor(top), QColor(bottom)
    mix = [round(x * opacity + y * (1 - opacity)) for x, y in
           ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def text_pairs(theme: Theme) -> list[Pair]:
    """Every text/background pair of ``theme`` (from its data)."""
    return [Pair(theme.name, what, colour_of(theme, fg), colour_of(theme, bg)) for what, fg, bg in TEXT_ROLES]


def mark_pairs(theme: Theme) -> list[Pair]:
    """Every frame/mark and what it is drawn on, from ``theme``'s data: window frames, then board marks
    (with their halo) on every square colour, then each board mark against its own halo."""
    pairs = [Pair(theme.name, what, colour_of(theme, fg), colour_of(theme, bg)) for what, fg, bg in MARK_ROLES]
    halo = theme.board["halo"]
    for mark in BOARD_MARKS:
        for name in BOARD_GROUNDS:
            pairs.append(Pair(theme.name, f"board {mark} on {name}", theme.board[mark], ground(theme, name), halo))
        pairs.append(Pair(theme.name, f"board {mark} against its halo", theme.board[mark], halo))
    return pairs


# ----------------------------------------------------------------------------- contrast (WCAG 2.x)
def relative_luminance(colour: str) -> float:
    """WCAG 2.x relative luminance of "#rrggbb" (0 black … 1 white). ValueError for another form."""
    match = re.fullmatch(r"#([0-9a-fA-F]{6})", colour.strip())
    if match is None:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    value = match.group(1)
    channels = []
    for i in (0, 2, 4):
        c = int(value[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground: str, background: str) -> float:
    """WCAG 2.x contrast ratio of two "#rrggbb" colours, 1.0 … 21.0."""
    a, b = relative_luminance(foreground), relative_luminance(background)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


# ----------------------------------------------------------------------------- the system's setting
@dataclass(frozen=True)
class SystemLook:
    """What the platform asks for: a dark colour scheme, high contrast."""

    dark: bool = False
    high_contrast: bool = False


def system_look(app: QGuiApplication) -> SystemLook:
    """The platform's colour scheme and contrast preference as Qt reports them (Qt 6.5+ / 6.10+)."""
    hints = app.styleHints()
    dark = hints.colorScheme() == Qt.ColorScheme.Dark
    high = hints.accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast
    return SystemLook(dark=dark, high_contrast=high)


def resolve(choice: str, system: SystemLook) -> str:
    """The look (a key of :data:`SCHEMES`) for the user's ``choice``; ValueError for an unknown choice."""
    if choice not in CHOICES:
        raise ValueError(f"unknown theme {choice!r}; choices: {', '.join(CHOICES)}")
    if choice != "normal":
        return choice
    if system.high_contrast:
        return "high-contrast"
    return "dark" if system.dark else "light"


# ----------------------------------------------------------------------------- applying a look
def palette(theme: Theme) -> QPalette:
    """The Qt palette of ``theme`` (all three colour groups)."""
    result = QPalette()
    for name, colour in theme.palette.items():
        role = getattr(_ROLE, name)
        for group in (_GROUP.Active, _GROUP.Inactive, _GROUP.Disabled):
            result.setColor(group, role, QColor(colour))
    for name, colour in theme.disabled.items():
        result.setColor(_GROUP.Disabled, getattr(_ROLE, name), QColor(colour))
    return result


def stylesheet(theme: Theme, point_size: float) -> str:
    """The application stylesheet of ``theme`` for an application font of ``point_size`` points."""
    a, p = theme.app, theme.palette
    next_step = f"{point_size * NEXT_STEP_FACTOR:.2f}"
    box = max(13, round(point_size * 1.6))   # check boxes and radio buttons grow with the text
    rules = [
        f"QLabel#next_step {{ font-size: {next_step}pt; font-weight: bold; }}",
        f"QCheckBox::indicator, QRadioButton::indicator {{ width: {box}px; height: {box}px; }}",
        f"QToolTip {{ color: {p['ToolTipText']}; background-color: {p['ToolTipBase']};"
        f" border: 1px solid {a['border']}; }}",
        f"QLabel#problem {{ color: {a['problem']}; font-weight: bold; }}",
    ]
    if theme.frame_width:
        # every control keeps the same border width focused or not (no jump, no clipping): focus changes its colour
        w, d = theme.frame_width, theme.disabled
        box = max(18, box)
        controls = "QPushButton, QComboBox, QLineEdit, LineInput, QSpinBox, QDoubleSpinBox, QDateEdit, QTimeEdit"
        fields = "QLineEdit, LineInput, QSpinBox, QDoubleSpinBox, QDateEdit, QTimeEdit"   # LineInput: ui/line.py
        rules += [
            "* { outline: none; }",
            f"{controls} {{ border: {w}px solid {a['border']}; padding: 3px;"
            f" color: {p['ButtonText']}; background-color: {p['Button']}; }}",
            f"{fields} {{ color: {p['Text']}; background-color: {p['Base']}; }}",
            # lists and tables: a frame but no padding (their headers are placed by the view itself)
            f"QAbstractItemView {{ border: {w}px solid {a['border']}; color: {p['Text']};"
            f" background-color: {p['Base']}; }}",
            "QHeaderView { border: 0px; }",
            f"QCheckBox, QRadioButton {{ border: {w}px solid transparent; padding: 2px; }}",
            f"QWidget:focus {{ border: {w}px solid {a['focus']}; }}",
            f"QHeaderView::section {{ color: {p['ButtonText']}; background-color: {p['Window']};"
            f" border: 1px solid {a['border']}; }}",
            f"QTableWidget, QTableView {{ gridline-color: {a['border']}; }}",
            f"QCheckBox::indicator, QRadioButton::indicator {{ width: {box}px; height: {box}px;"
            f" border: {w}px solid {a['border']}; background-color: {p['Base']}; }}",
            f"QRadioButton::indicator {{ border-radius: {box // 2 + w}px; }}",
            f"QCheckBox::indicator:checked, QRadioButton::indicator:checked {{ background-color: {p['Highlight']}; }}",
            f"QWidget:disabled {{ color: {d['WindowText']}; border-color: {d['WindowText']}; }}",
            # the board paints its own squares, coordinates and cursor frame: no frame of the stylesheet around it
            # (a frame that comes and goes with the focus would move every square)
            "BoardView, BoardView:focus { border: 0px; padding: 0px; }",
            "BoardView QHeaderView::section { border: 0px; padding: 0px; }",
            "QCheckBox:disabled, QRadioButton:disabled { border-color: transparent; }",
            f"QCheckBox::indicator:disabled, QRadioButton::indicator:disabled {{ border-color: {d['WindowText']}; }}",
        ]
    else:
        rules.append(
            "QLineEdit:focus, LineInput:focus, QComboBox:focus, QPushButton:focus, QTableWidget:focus, QSpinBox:focus,"
            f" QDateEdit:focus {{ border: 2px solid {a['focus']}; }}")
    return "\n".join(rules) + "\n"


class _State:
    """What :func:`apply` last applied (one application per process)."""

    choice: str = "normal"
    theme: Theme = SCHEMES["light"]
    scale: float = 1.0
    base_point_size: float | None = None
    watching: QObject | None = None


def current() -> Theme:
    """The look applied last (the light look before any :func:`apply`)."""
    return _State.theme


def colour(key: str) -> str:
    """A colour of the current look: "clock_low", "problem", ... (``Theme.app``) — KeyError otherwise."""
    return _State.theme.app[key]


def board_colours(name: str | None = None) -> dict[str, str]:
    """The board's colours of look ``name`` (a :data:`SCHEMES` key or a choice), default the current look."""
    if name is None:
        return dict(_State.theme.board)
    if name in SCHEMES:
        return dict(SCHEMES[name].board)
    if name == "normal":
        return dict(_State.theme.board)
    raise KeyError(name)


def point_size(font_scale: float) -> float:
    """The application font's point size at ``font_scale`` (after the first :func:`apply`)."""
    base = _State.base_point_size or 10.0
    return base * max(MIN_SCALE, min(MAX_SCALE, font_scale))


def apply(app: QApplication, choice: str, font_scale: float) -> Theme:
    """Apply the user's look ``choice`` and ``font_scale`` to every window of ``app``; returns the look.

    "normal" follows the system's contrast and colour-scheme settings, also when they change later.
    ValueError for an unknown choice.
    """
    if _State.base_point_size is None:
        size = app.font().pointSizeF()
        _State.base_point_size = size if size > 0 else 10.0
    theme = SCHEMES[resolve(choice, system_look(app))]
    _State.choice, _State.theme, _State.scale = choice, theme, font_scale
    font = QFont(app.font())
    font.setPointSizeF(point_size(font_scale))
    app.setFont(font)
    app.setPalette(palette(theme))
    app.setStyleSheet(stylesheet(theme, point_size(font_scale)))   # every widget is polished and repainted again
    _watch_system(app)
    return theme


def _watch_system(app: QApplication) -> None:
    """Re-apply the current choice when the system's colour scheme or contrast preference changes."""
    if _State.watching is app:
        return
    _State.watching = app
    hints = app.styleHints()

    def follow() -> None:
        if _State.choice == "normal":
            apply(app, _State.choice, _State.scale)

    hints.colorSchemeChanged.connect(lambda _scheme: follow())
    hints.accessibility().contrastPreferenceChanged.connect(lambda _preference: follow())
