"""A journal's lines as text to search for a move or a square in.

Some keys hold hex digits by nature — each line's CRC, the game's id, the envelope's SHA-256 commitment —
and a square such as "b5" or a move such as "f1b5" can turn up in them by chance. :func:`journal_words`
leaves them out, so a square or a move found in the rest is really written there.
"""

from __future__ import annotations

import json
from pathlib import Path

#: Keys of a journal line whose values are hex digits (checksums, ids), never words of the game.
HEX_KEYS = ("crc", "game_id")


def journal_words(journal: Path, *, until: str | None = None) -> str:
    """The journal's lines as JSON text without :data:`HEX_KEYS` and the envelope's commitment; ``until``: only the
    lines before the first of that type."""
    lines = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if until is not None and data.get("type") == until:
            break
        public = data.get("public")
        if isinstance(public, dict):
            data["public"] = {k: v for k, v in public.items() if k != "commitment"}
        lines.append(json.dumps({k: v for k, v in data.items() if k not in HEX_KEYS}, ensure_ascii=False))
    return "\n".join(lines)
