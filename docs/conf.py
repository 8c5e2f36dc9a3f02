"""Sphinx configuration of blindchess's guides (``make lint`` builds them with warnings as errors).

The pages are Markdown (MyST). The user guide in ``user/<lang>/`` is also shipped with the program
and shown in its own window (F1, :mod:`blindchess.ui.guide`), so it uses plain Markdown only: no
MyST roles or directives but the table of contents of each index page.
"""

from __future__ import annotations

project = "blindchess"
author = "The blindchess authors"
copyright = "the blindchess authors, GPL-3.0-or-later"   # noqa: A001 - Sphinx's name

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
html_theme = "alabaster"
html_title = "blindchess"
language = "en"

import logging

# Pages other parts of the project write (the install pages, screen readers, the broadcast, the
# architecture, the platforms) are taken into the tables of contents by these patterns, so a guide
# builds before they exist; any other pattern that matches nothing is still an error.
OPTIONAL_PAGES = ("install-*", "screen-readers*", "broadcast*", "architecture*", "platforms*", "speech*")


class _OptionalPagesNotYetWritten(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not ("didn't match any documents" in message and any(repr(p) in message for p in OPTIONAL_PAGES))


def setup(app):  # noqa: ANN001, ANN201 - Sphinx's extension hook
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(_OptionalPagesNotYetWritten())
    return {"parallel_read_safe": True}
