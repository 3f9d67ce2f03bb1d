"""The one error the server's table logic raises: a request refused, with a code for clients
(they translate it) and one plain English sentence (the rules engine's own, when it refused)."""

from __future__ import annotations


class Refused(Exception):
    """A command that changes nothing. ``code`` is one of: ``malformed``, ``illegal``,
    ``not_your_turn``, ``not_seated``, ``forbidden``, ``not_found``, ``conflict``, ``server``,
    ``invalid`` (score sheets: inconsistent input; ``field`` names the part at fault)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, str]:
        return {"type": "error", "code": self.code, "message": self.message}
