"""Tactile peg-board and DGT e-board: protocols, tracker (pure), serial link (adapter)."""
