"""JSON from clients: parsed only when it is small and shallow enough, so that no message can
make the parser recurse (Python's parser raises ``RecursionError`` at about 1,000 levels) or the
server hold a large body.

>>> loads('{"type": "hello", "since": null}')
{'type': 'hello', 'since': None}
>>> depth('{"a": [1, "[[[", {"b": []}]}')
4
>>> loads("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
blot.server.errors.Refused: a message is nested at most 16 levels deep
"""

from __future__ import annotations

import json
import re
from typing import Any

from blot.server.errors import Refused

#: The deepest nesting a client's JSON may have (the deepest message of the protocol has 3).
MAX_DEPTH = 16

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings do not count)."""
    level = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def loads(text: str | bytes, what: str = "a message", code: str = "malformed") -> Any:
    """The JSON value of ``text``, or :class:`Refused` (``code``) saying in one sentence why not."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(code, "json_utf8", what=what) from None
    if depth(text) > MAX_DEPTH:
        raise Refused(code, "json_depth", what=what, n=MAX_DEPTH)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(code, "json_needed", what=what) from None
