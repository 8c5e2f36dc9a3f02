"""Game records for every reader: braille, spoken score, PGN, printable scoresheet."""
