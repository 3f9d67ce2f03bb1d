"""Text from outside (a name in a record or the database, a bot program's standard error) made
safe to print on a terminal: its control characters become visible escapes.

A terminal obeys what it is sent, so a name holding ``ESC ] 0 ; … BEL`` sets the window's title
and one holding ``ESC [ 2 J`` clears the screen (issue 22). Every command that prints such text
passes it through :func:`printable` (or :func:`markup`, for text that goes into rich markup),
and the bot log through :func:`printable` too. What is replaced: the C0 controls (tab and
newline too: a name is one line), DEL, the C1 controls, the bidirectional controls that can
reorder what follows them on the line (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
U+2069) and the line and paragraph separators; each becomes its Python escape (``\\x1b``,
``\\u202e``), so that it shows and can be told apart. Everything else is left as it is: a name
of letters of any alphabet, emoji included, prints unchanged.

>>> printable("Ani\\x1b]0;owned\\x07")
'Ani\\\\x1b]0;owned\\\\x07'
>>> printable("Գոհար & Bagrat")
'Գոհար & Bagrat'
>>> markup("[/]")
'\\\\[/]'
"""

from __future__ import annotations

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_REPLACED = (*range(0x20), *range(0x7F, 0xA0), *_BIDI, 0x2028, 0x2029)
_TABLE = {code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in _REPLACED}


def printable(text: str) -> str:
    """``text`` with every control character replaced by its visible escape."""
    return text.translate(_TABLE)


def markup(text: str) -> str:
    """:func:`printable`, and escaped for rich markup (so that ``[/]`` or ``[bold]`` in a name
    prints as written instead of styling the line or raising an error)."""
    from rich.markup import escape

    return escape(printable(text))


__all__ = ["markup", "printable"]
