"""``python -m blindchess`` is the ``blindchess`` command."""

import sys

from .cli import main

sys.exit(main())
