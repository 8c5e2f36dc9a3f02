"""The table: one game at one table as the three people at it live it (pure core)."""
