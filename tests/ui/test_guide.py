"""The user guide inside the program: F1 opens it in the program's language, its headings are reachable.

The window runs offscreen; the guide is the real one in docs/user/ (shipped as blindchess._guide).
A screen reader meets a contents tree of the pages and their headings and a read-only text with a
caret: choosing a heading puts the caret on it, Enter moves the keyboard into the text there.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from blindchess.base import tr
from blindchess.ui import a11y
from blindchess.ui.guide import GuideDialog, guide_pages
from blindchess.ui.shortcuts import SHORTCUTS
from tests.support.paths import REPO
from tests.support.ui_window import open_window

USER = REPO / "docs" / "user"
LANGS = ("de", "en", "nl", "ru")


def _h1(path) -> str:
    return re.search(r"^# (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE).group(1)


def _h2(path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return re.findall(r"^## (.+)$", text, re.MULTILINE)


@pytest.mark.parametrize("lang", LANGS)
def test_f1_opens_the_guide_in_the_programs_language(qtbot, lang):
    assert ("guide", "help", "F1") in SHORTCUTS
    with open_window(qtbot, lang) as (_controller, window):
        seen: dict[str, object] = {}

        def look() -> None:
            dialog = QApplication.activeModalWidget()
            seen["dialog"] = type(dialog).__name__
            seen["title"] = dialog.windowTitle()
            seen["pages"] = [dialog.contents.topLevelItem(i).text(0) for i in range(dialog.contents.topLevelItemCount())]
            seen["text"] = dialog.text.toPlainText()
            seen["labels"] = a11y.missing_labels(dialog)
            dialog.reject()

        window.activateWindow()
        window.board.setFocus()            # the keyboard is in this window (the guide gives it back there)
        QTimer.singleShot(0, look)
        window.actions["guide"].trigger()
        assert seen["dialog"] == "GuideDialog" and seen["title"] == tr("ui.guide.title", lang)
        assert seen["pages"][0] == _h1(USER / lang / "index.md")
        assert seen["pages"][1] == _h1(USER / lang / "getting-started.md")
        assert _h1(USER / lang / "terms.md") in seen["pages"]
        assert "F1" in seen["text"] and seen["labels"] == []


@pytest.mark.parametrize("lang", ("nl", "ru"))
def test_every_heading_is_in_the_contents_and_enter_reads_the_text_from_there(qtbot, lang):
    dialog = GuideDialog(lang=lang)
    qtbot.addWidget(dialog)
    dialog.show()
    names = [p.name for p in dialog.pages]
    playing = dialog.contents.topLevelItem(names.index("playing"))
    children = [playing.child(i).text(0) for i in range(playing.childCount())]
    assert children == _h2(USER / lang / "playing.md")
    asking = playing.child(3)
    dialog.contents.setFocus()
    dialog.contents.setCurrentItem(asking)
    assert dialog.text.textCursor().block().text() == asking.text(0)
    assert dialog.text.accessibleName().endswith(_h1(USER / lang / "playing.md"))
    qtbot.keyClick(dialog.contents, Qt.Key.Key_Return)
    assert dialog.focusWidget() is dialog.text                  # the keyboard is in the text
    assert dialog.text.textCursor().block().text() == asking.text(0)
    assert "|" not in dialog.text.toPlainText()[:200]          # tables are tables, not Markdown source


def test_the_index_links_open_the_pages_and_sphinx_syntax_is_not_shown(qtbot):
    dialog = GuideDialog(lang="ru")
    qtbot.addWidget(dialog)
    index = dialog.pages[0]
    assert "toctree" not in index.markdown and "```" not in index.markdown
    assert "(tournament.md)" in index.markdown
    from PySide6.QtCore import QUrl

    dialog._follow(QUrl("tournament.md"))
    assert dialog.pages[dialog.current].name == "tournament"
    assert _h1(USER / "ru" / "tournament.md") in dialog.text.toPlainText()


def test_a_page_not_yet_translated_is_shown_in_english_and_no_guide_is_said(tmp_path, qtbot):
    for lang, pages in {"en": ("index", "one", "two"), "nl": ("index", "one")}.items():
        folder = tmp_path / lang
        folder.mkdir()
        for name in pages:
            body = "```{toctree}\n:glob:\n\none\ntwo*\n```\n" if name == "index" else "## Kop\n"
            (folder / f"{name}.md").write_text(f"# {lang} {name}\n\n{body}", encoding="utf-8")
    pages = guide_pages("nl", tmp_path)
    assert [(p.name, p.lang, p.title) for p in pages] == [("index", "nl", "nl index"), ("one", "nl", "nl one"),
                                                          ("two", "en", "en two")]
    empty = GuideDialog(lang="nl", root=tmp_path / "none")
    qtbot.addWidget(empty)
    assert empty.pages == [] and empty.text.toPlainText() == tr("ui.guide.missing", "nl")
