"""Notices for whoever runs blot: one sentence about something slow that is not an error (such
as compiling the solver once after an install). ``blot``'s commands print them on standard
error; the server logs them; a library user hears nothing unless it sets :data:`hook`."""

from __future__ import annotations

from collections.abc import Callable

#: Where notices go (None: nowhere).
hook: Callable[[str], None] | None = None


def notice(text: str) -> None:
    if hook is not None:
        hook(text)
