"""What several test modules share: paths, waiting for a condition, the desktop with Orca, a table with its events, games."""
