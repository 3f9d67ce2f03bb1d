"""The one error the server's table logic raises: a request refused, with a code for clients
(they translate it) and one plain English sentence (the rules engine's own, when it refused).

It is a :class:`~blot.errors.BlotError`, and :meth:`Refused.of` is the one place where the
engine's errors become server answers."""

from __future__ import annotations

from typing import Any

from blot.errors import BlotError, IllegalAction, NotationError, SetupError


class Refused(BlotError):
    """A command that changes nothing. ``code`` is one of: ``malformed``, ``illegal``,
    ``not_your_turn``, ``not_seated``, ``forbidden``, ``not_found``, ``conflict``, ``server``,
    ``invalid`` (score sheets: inconsistent input; ``field`` names the part at fault),
    ``unauthorized`` (a wrong username or password), ``rate_limited`` (:class:`RateLimited`)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    @classmethod
    def of(cls, error: BlotError) -> Refused:
        """The answer to an engine error: a rule or notation that refuses an action is
        ``illegal``; a set-up (game, rules, options, cards) that cannot be made is ``malformed``
        and names its field."""
        if isinstance(error, Refused):
            return error
        if isinstance(error, IllegalAction | NotationError):
            return cls("illegal", str(error))
        if isinstance(error, SetupError):
            return cls("malformed", str(error), error.field)
        return cls("malformed", str(error))

    def to_json(self) -> dict[str, Any]:
        """The websocket's error message: ``code`` (the class), ``message`` (the sentence) and,
        when the sentence is catalogued (:mod:`blot.server.reasons`), its ``reason`` and ``params``."""
        from blot.server.reasons import with_reason

        return with_reason({"type": "error", "code": self.code, "message": self.message}, self.message)


class RateLimited(Refused):
    """Too many login attempts: the answer is 429 with a ``Retry-After`` of ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = max(1, int(retry_after + 0.999))
