"""Debian's Orca (/usr/bin/orca) as installed, with its debug log written line by line.

Run under the system's Python: ``/usr/bin/python3 tests/support/orca_logged.py -u PREFS --debug-file LOG``.
Orca buffers its debug file, so a test would read what Orca spoke seconds late;
here the file is opened line-buffered. Orca also refuses to start while another
Orca of the same user runs (anywhere on the machine); a test's Orca lives in its
own X display and D-Bus session, so that check is left out. Nothing else changes:
the script's own ``main()`` runs.
"""

from __future__ import annotations

import builtins
import sys

ORCA = "/usr/bin/orca"


def _line_buffered(file, mode="r", *args, **kwargs):
    if mode == "w":
        return builtins.open(file, mode, buffering=1, encoding="utf-8")
    return builtins.open(file, mode, *args, **kwargs)


def main() -> int:
    with builtins.open(ORCA, encoding="utf-8") as f:
        source = f.read()
    namespace = {"__name__": "orca_script", "__file__": ORCA, "open": _line_buffered}
    sys.argv[0] = ORCA
    exec(compile(source, ORCA, "exec"), namespace)  # noqa: S102 - Orca's own start script, as installed
    namespace["otherOrcas"] = lambda: []
    return int(namespace["main"]() or 0)


if __name__ == "__main__":
    sys.exit(main())
