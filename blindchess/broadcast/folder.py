"""The broadcast as files in a folder, the LiveChess convention: ``DIR/games.pgn`` and ``DIR/roundN/games.pgn``.

Each file is written whole or not at all (a temporary file beside it, then renamed onto it:
:func:`blindchess.base.files.write_text`), so a tool polling the folder never reads half a
file; a file is written again only when its text changed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..base import UserError, os_error_text, tr, write_text

__all__ = ["FolderWriter"]


class FolderWriter:
    """Writes the PGN pages (``/games.pgn``, ``/roundN/games.pgn``) into ``folder``."""

    def __init__(self, folder: Path, lang: str) -> None:
        self.folder = Path(folder)
        self.lang = lang
        self._written: dict[str, bytes] = {}

    def check(self) -> None:
        """Raise UserError (in the broadcast's language) when nothing can be written into the folder."""
        try:
            fd, name = tempfile.mkstemp(prefix=".blindchess-check-", dir=self.folder)
            os.close(fd)
            os.unlink(name)
        except OSError as exc:
            raise UserError(tr("broadcast.folder_unwritable", self.lang, folder=self.folder,
                               error=os_error_text(exc, self.lang))) from exc

    def write(self, files: dict[str, str]) -> None:
        """Write the PGN files (path → text: ``/games.pgn``, ``/roundN/games.pgn``) whose text changed (a file
        whose text is the same is left alone). Raises UserError (in the broadcast's language) when the folder or a
        file in it cannot be written — what was written stays."""
        for route, text in sorted(files.items()):
            body = text.encode("utf-8")
            if self._written.get(route) == body:
                continue
            target = self.folder / route.lstrip("/")
            try:
                target.parent.mkdir(exist_ok=True)
            except OSError as exc:
                raise UserError(tr("broadcast.folder_unwritable", self.lang, folder=self.folder,
                                   error=os_error_text(exc, self.lang))) from exc
            write_text(target, text, self.lang)   # UserError: the file and the reason
            self._written[route] = body
