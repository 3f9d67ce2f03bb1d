"""The one error the server's table logic raises: a request refused, with a code for clients,
a reason key and its parts where it is raised (``Refused("forbidden", "referee_only")``, its
sentences in :file:`blot/server/reasons.json`, :mod:`blot.reasons`) and so one plain English
sentence (the rules engine's own, when it refused).

It is a :class:`~blot.errors.BlotError`, and :meth:`Refused.of` is the one place where the
engine's errors become server answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from blot.errors import BlotError, IllegalAction, NotationError, SetupError
from blot.reasons import Reason, register

register(Path(__file__).with_name("reasons.json"))


class Refused(BlotError):
    """A command that changes nothing. ``code`` is one of: ``malformed``, ``illegal``,
    ``not_your_turn``, ``not_seated``, ``forbidden``, ``not_found``, ``conflict``, ``server``,
    ``invalid`` (score sheets: inconsistent input; ``field`` names the part at fault),
    ``unauthorized`` (a wrong username or password), ``rate_limited`` (:class:`RateLimited`)."""

    def __init__(self, code: str, reason: str | Reason, field: str | None = None, /, **params: Any) -> None:
        super().__init__(reason, **params)
        self.code = code
        self.field = field

    @classmethod
    def of(cls, error: BlotError) -> Refused:
        """The answer to an engine error: a rule or notation that refuses an action is
        ``illegal``; a set-up (game, rules, options, cards) that cannot be made is ``malformed``
        and names its field."""
        if isinstance(error, Refused):
            return error
        code = "illegal" if isinstance(error, IllegalAction | NotationError) else "malformed"
        return cls.from_error(code, error, error.field if isinstance(error, SetupError) else None)

    @classmethod
    def from_error(cls, code: str, error: BlotError, field: str | None = None) -> Refused:
        """An error answered with another code (and field): the same sentence, key and parts."""
        refused = cls(code, error.message, field)
        refused.reason, refused.params = error.reason, error.params
        return refused

    def to_json(self) -> dict[str, Any]:
        """The websocket's error message: ``code`` (the class), ``message`` (the sentence) and,
        when it was raised with a key, its ``reason`` and ``params``."""
        return self.answer({"type": "error", "code": self.code, "message": self.message})

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """An error answer with this refusal's ``reason`` and ``params``, when it has them."""
        if self.reason is not None:
            body.update(Reason(self.reason, **self.params).to_json())
        return body


class RateLimited(Refused):
    """Too many login attempts: the answer is 429 with a ``Retry-After`` of ``retry_after`` seconds."""

    def __init__(self, reason: str | Reason, retry_after: float, /, **params: Any) -> None:
        super().__init__("rate_limited", reason, **params)
        self.retry_after = max(1, int(retry_after + 0.999))
