"""The stand-alone program's entry point: the blindchess command line (the app when started without a subcommand)."""

import sys

from blindchess.cli import main

if __name__ == "__main__":
    sys.exit(main())
