"""A screen reader that keeps what it was given: the far end of the window's screen-reader channel in tests and
in the listening benchmark (speech-dispatcher itself is tested in tests/adapters/test_screenreader.py and, with
Orca, in tests/ui/test_orca*.py)."""

from __future__ import annotations


class RecordingReader:
    """What the channel gave it, in order: :attr:`texts` as (priority, text), :attr:`said` the texts alone,
    :attr:`cut_texts` the texts it was told to cut (texts cut are kept in :attr:`texts` too: an upper bound of
    what is heard)."""

    name = "recording screen reader"

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []
        self.cut_texts: list[str] = []
        self.lang: str | None = None

    @property
    def said(self) -> list[str]:
        return [text for _priority, text in self.texts]

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        self.texts.append((priority, text))
        return len(self.texts)

    def cut(self, ident: int) -> None:
        self.cut_texts.append(self.texts[ident - 1][1] if 0 < ident <= len(self.texts) else "")

    def cancel(self) -> None:
        pass

    def set_language(self, lang: str) -> None:
        self.lang = lang

    def close(self) -> None:
        pass
