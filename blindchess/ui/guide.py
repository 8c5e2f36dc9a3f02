"""The user guide inside the program (F1), as NVDA shows its own: the pages of ``docs/user/<lang>/``.

The guide is the Markdown the Sphinx build of ``docs/`` reads, shipped with the program
(:func:`blindchess.base.guide_dir`). :func:`guide_pages` gives its pages in reading order — the
order of the ``toctree`` on the language's ``index.md``, a page missing in the language taken
from the English guide — each as plain Markdown for Qt: the table of contents becomes a list of
links and nothing of Sphinx's own syntax is left. :class:`GuideDialog` shows them: a contents
tree of the pages and their headings, which a screen reader walks with the arrow keys (Enter
moves the keyboard into the text at that heading), beside a read-only text with a caret, so
the text is read line by line; links to other pages of the guide open them in the same window.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..base import UI_LANGS, guide_dir
from . import a11y
from .text import t

__all__ = ["GuideDialog", "GuidePage", "guide_pages"]

#: The language whose guide is complete: a page another language lacks is shown from it.
ORIGINAL = "en"
#: Headings down to this level are listed in the contents under their page.
CONTENTS_DEPTH = 3

_DIRECTIVE = re.compile(r"^```\{(?P<name>[\w-]+)\}[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_TITLE = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class GuidePage:
    """One page of the guide: its name (``playing``), title, file and Markdown as Qt shows it."""

    name: str
    title: str
    path: Path
    markdown: str
    lang: str


def _title(text: str, fallback: str) -> str:
    found = _TITLE.search(text)
    return found.group(1) if found else fallback


def _toctree_entries(index: str) -> list[str]:
    """The entries of the index's ``toctree`` blocks, options and captions left out ("Name <page>": page)."""
    entries: list[str] = []
    for block in _DIRECTIVE.finditer(index):
        if block.group("name") != "toctree":
            continue
        for line in block.group("body").splitlines():
            line = line.strip()
            if not line or line.startswith(":"):
                continue
            named = re.fullmatch(r".*<(.+)>", line)
            entries.append(named.group(1) if named else line)
    return entries


def _folder(root: Path, lang: str) -> Path:
    return root / lang


def _page_names(root: Path, lang: str) -> list[str]:
    """The guide's pages in reading order: the toctree of ``index.md``, patterns matched against the pages there are."""
    folder = _folder(root, lang) if (_folder(root, lang) / "index.md").is_file() else _folder(root, ORIGINAL)
    existing = {p.stem for p in _folder(root, lang).glob("*.md")} | {p.stem for p in _folder(root, ORIGINAL).glob("*.md")}
    names = ["index"]
    for entry in _toctree_entries((folder / "index.md").read_text(encoding="utf-8")):
        matched = sorted(n for n in existing if fnmatch.fnmatchcase(n, entry)) if any(c in entry for c in "*?[") \
            else [entry] if entry in existing else []
        names += [n for n in matched if n not in names]
    return names


def _qt_markdown(text: str, titles: dict[str, str]) -> str:
    """``text`` without Sphinx's syntax: a ``toctree`` becomes a list of links, other directives their body."""

    def replace(block: re.Match[str]) -> str:
        if block.group("name") != "toctree":
            return block.group("body")
        names = [n for n in titles if n != "index"]
        return "\n".join(f"- [{titles[n]}]({n}.md)" for n in names) + "\n"

    return _DIRECTIVE.sub(replace, text)


def guide_pages(lang: str, root: Path | None = None) -> list[GuidePage]:
    """The pages of the guide in ``lang`` (German, English, Dutch, Russian), in reading order.

    A page the language does not have yet is the English one. No guide at all: an empty list.
    """
    root = guide_dir() if root is None else root
    lang = lang if lang in UI_LANGS else ORIGINAL
    if not (_folder(root, ORIGINAL) / "index.md").is_file():
        return []
    texts: dict[str, tuple[str, Path, str]] = {}
    for name in _page_names(root, lang):
        for code in (lang, ORIGINAL):
            path = _folder(root, code) / f"{name}.md"
            if path.is_file():
                texts[name] = (path.read_text(encoding="utf-8"), path, code)
                break
    titles = {name: _title(text, name) for name, (text, _path, _code) in texts.items()}
    return [GuidePage(name, titles[name], path, _qt_markdown(text, titles), code)
            for name, (text, path, code) in texts.items()]


def headings(markdown: str) -> list[tuple[int, str, int]]:
    """(level, text, block number) of every heading of the page as Qt lays it out."""
    document = QTextDocument()
    document.setMarkdown(markdown)
    found = []
    block = document.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            found.append((level, block.text(), block.blockNumber()))
        block = block.next()
    return found


class GuideDialog(QDialog):
    """The user guide in its own window: the contents (pages and headings) and the page's text."""

    PAGE_ROLE = Qt.ItemDataRole.UserRole

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", root: Path | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.pages = guide_pages(lang, root)
        self.current: int | None = None
        self.setObjectName("guide")
        self.setWindowTitle(t("guide.title", lang))
        a11y.label(self, t("guide.title", lang), t("guide.description", lang))
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.contents = QTreeWidget(self)
        self.contents.setObjectName("guide_contents")
        self.contents.setHeaderHidden(True)
        a11y.label(self.contents, t("guide.contents", lang), t("guide.contents_description", lang))
        self.text = QTextBrowser(self)
        self.text.setObjectName("guide_text")
        self.text.setOpenLinks(False)              # links are followed here: another page of the guide, or the browser
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.text.anchorClicked.connect(self._follow)
        row.addWidget(self.contents, 1)
        row.addWidget(self.text, 3)
        layout.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        a11y.label(buttons, t("help.buttons", lang), t("guide.close_description", lang))
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setText(t("close", lang))
        a11y.label(close, t("close", lang), t("guide.close_description", lang))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._fill_contents()
        self.contents.currentItemChanged.connect(self._show_item)
        self.contents.itemActivated.connect(lambda _item, _column: self._read_here())
        first = self.contents.topLevelItem(0)
        if first is not None:
            self.contents.setCurrentItem(first)
        else:
            self.text.setPlainText(t("guide.missing", lang))
            a11y.label(self.text, t("guide.text", lang), t("guide.text_description", lang))
        screen = self.screen().availableGeometry() if self.screen() else None
        self.resize(min(960, screen.width()) if screen else 960, min(680, screen.height()) if screen else 680)
        self.contents.setFocus(Qt.FocusReason.OtherFocusReason)

    def _fill_contents(self) -> None:
        for index, page in enumerate(self.pages):
            top = QTreeWidgetItem([page.title])
            top.setData(0, self.PAGE_ROLE, (index, 0))
            self.contents.addTopLevelItem(top)
            parents = {1: top}
            for level, text, block in headings(page.markdown):
                if level == 1 or level > CONTENTS_DEPTH:
                    continue
                item = QTreeWidgetItem([text])
                item.setData(0, self.PAGE_ROLE, (index, block))
                (parents.get(level - 1) or top).addChild(item)
                parents[level] = item
        self.contents.expandAll()

    def show_page(self, index: int, block: int = 0) -> None:
        """Show page ``index`` with the caret at the start of its ``block`` (a heading), scrolled there."""
        page = self.pages[index]
        if self.current != index:
            self.current = index
            document = self.text.document()
            document.setBaseUrl(QUrl.fromLocalFile(str(page.path.parent) + "/"))
            document.setMarkdown(page.markdown)
            a11y.label(self.text, t("guide.text_named", self.lang, page=page.title), t("guide.text_description", self.lang))
        target = self.text.document().findBlockByNumber(block)
        cursor = QTextCursor(target)
        self.text.setTextCursor(cursor)
        top = self.text.document().documentLayout().blockBoundingRect(target).top()
        self.text.verticalScrollBar().setValue(int(top))

    def _show_item(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        if item is not None:
            index, block = item.data(0, self.PAGE_ROLE)
            self.show_page(index, block)

    def _read_here(self) -> None:
        """Enter on a heading: the keyboard goes into the text, at that heading."""
        self.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def _follow(self, url: QUrl) -> None:
        """A link: a page of the guide (``playing.md``, ``playing.md#asking``) opens here; anything else in the browser."""
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        name = Path(url.path()).stem
        for index, page in enumerate(self.pages):
            item = self.contents.topLevelItem(index)
            if page.name == name and item is not None:
                self.contents.setCurrentItem(item)
                return
