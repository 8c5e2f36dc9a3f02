"""Message catalogues (TOML), one file per domain and language."""
