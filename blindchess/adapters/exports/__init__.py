"""The records written out: the spoken score (:mod:`.audio`), PDF scoresheet and envelope, PGN export, a game read back (:mod:`.source`)."""
