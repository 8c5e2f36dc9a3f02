"""The game behind :class:`blindchess.session.Session`: one collaborator per group of FIDE articles."""
