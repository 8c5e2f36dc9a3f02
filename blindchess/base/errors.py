"""The one exception type whose message may reach a user.

Anything raised as :class:`UserError` carries a message already in the user's
language; the CLI and the app show it as it is, without a traceback.
"""


class UserError(Exception):
    """An error caused by the user's input or environment, with a ready message."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message
