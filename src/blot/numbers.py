"""Reading a whole number that a person or a client typed.

``str.isdigit`` is not the test: it also accepts characters such as ``²`` that ``int`` refuses,
and ``int`` refuses numbers of more than 4,300 digits, so ``text.isdigit() and int(text)`` can
raise where a plain refusal is wanted.

>>> whole_number(" 42 "), whole_number("²"), whole_number("-3"), whole_number("9" * 5000)
(42, None, None, None)
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")


def whole_number(text: str, digits: int = 9) -> int | None:
    """``text`` (spaces around it allowed) as a number when it is 1 to ``digits`` ASCII digits,
    else None."""
    text = text.strip()
    if len(text) > digits or not _DIGITS.fullmatch(text):
        return None
    return int(text)
