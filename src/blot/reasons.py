"""Refusals keyed where they are raised (issue 39 item 1): one catalogue of sentences per part of
blot, each key with its sentence in every language of the page (``hy``, ``ru``, ``bg``, ``en``).

A refusal is raised with its key and its variable parts, ``IllegalAction("does_not_hold",
seat=2, card="KS")``; its English sentence, rendered from the catalogue, is what ``str(error)``
says (the command line, the logs, the wire's ``message``), and the key and the parts are what a
client gets as ``reason`` and ``params`` to say it in its reader's language. A part that is itself
a refusal (:class:`Reason`, or an error) is given as a nested ``{"reason", "params"}``.

Each catalogue is a JSON file beside the code that raises its keys (``blot/reasons.json`` for the
shared ones, ``blot/bazar/reasons.json``, ``blot/three_five_eight/reasons.json``,
``blot/scoresheet/reasons.json``, ``blot/server/reasons.json``), registered by its package with
:func:`register`; ``tests/server/test_reasons.py`` checks that every key raised anywhere is in one
of them in all four languages, and that every key there is raised somewhere.

>>> str(Reason("seat_taken", seat=2))
'seat 2 is taken'
>>> Reason("seat_taken", seat=2).to_json()
{'reason': 'seat_taken', 'params': {'seat': '2'}}
>>> sentence("seat_taken", "ru")
'место {seat} занято'
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any, Final

#: The languages of the page; every key has a sentence in each.
LANGUAGES: Final[tuple[str, ...]] = ("hy", "ru", "bg", "en")

_KEY = re.compile(r"[a-z][a-z0-9_]*")
_PENDING: list[Path] = [Path(__file__).with_name("reasons.json")]
_LOADED: dict[str, dict[str, str]] = {}
_ORIGIN: dict[str, Path] = {}
_LOCK = threading.Lock()


def register(path: Path) -> None:
    """Add a catalogue (a JSON file ``{key: {lang: sentence}}``); it is read when first needed."""
    with _LOCK:
        if path not in _PENDING and path not in _ORIGIN.values():
            _PENDING.append(path)


def catalogue() -> dict[str, dict[str, str]]:
    """Every registered key -> its sentence by language (read once, on first use)."""
    with _LOCK:
        while _PENDING:
            path = _PENDING.pop(0)
            for key, sentences in json.loads(path.read_text(encoding="utf-8")).items():
                if key in _LOADED:
                    raise ValueError(f"the reason {key} is in both {_ORIGIN[key]} and {path}")
                _LOADED[key] = sentences
                _ORIGIN[key] = path
        return _LOADED


def origin(key: str) -> Path:
    """The catalogue file that holds a key."""
    catalogue()
    return _ORIGIN[key]


def is_key(text: str) -> bool:
    """Whether ``text`` is written as a key (a sentence has spaces)."""
    return _KEY.fullmatch(text) is not None


def sentence(key: str, lang: str = "en") -> str:
    """The sentence of a key in a language, its ``{params}`` unfilled."""
    return catalogue()[key][lang]


def sentences(lang: str) -> dict[str, str]:
    """Every key's sentence in one language: what the page downloads (``/api/reasons/{lang}``)."""
    return {key: by_lang[lang] for key, by_lang in catalogue().items()}


def _text(value: object) -> str:
    """A part as an f-string writes it (an enum by its own format, as the sentence was written)."""
    return format(value)


def render(key: str, params: dict[str, Any]) -> str:
    """The English sentence of a key with its parts filled in; a key no catalogue holds is said as
    it is (the test catches it first)."""
    template = catalogue().get(key, {}).get("en")
    if template is None:
        return key
    return re.sub(
        r"\{(\w+)\}", lambda m: _text(params[m.group(1)]) if m.group(1) in params else m.group(0), template
    )


def params_json(params: dict[str, Any]) -> dict[str, Any]:
    """The parts as the wire gives them: each as text, a nested refusal as ``{reason, params}``."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        nested = getattr(value, "reason", None)
        if isinstance(nested, str) and isinstance(getattr(value, "params", None), dict):
            out[name] = {"reason": nested, "params": params_json(value.params)}
        elif isinstance(value, dict) and set(value) == {"reason", "params"}:
            out[name] = value  # already as the wire gives it (a cluster owner's answer)
        else:
            out[name] = _text(value)
    return out


class Reason:
    """A refusal's key and parts, not raised (a refusal function's answer, a nested part)."""

    __slots__ = ("params", "reason")

    def __init__(self, reason: str, /, **params: Any) -> None:
        self.reason = reason
        self.params = params

    def __str__(self) -> str:
        return render(self.reason, self.params)

    def __repr__(self) -> str:
        return (
            "Reason(" + ", ".join([repr(self.reason), *(f"{k}={v!r}" for k, v in self.params.items())]) + ")"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reason) and (self.reason, self.params) == (other.reason, other.params)

    def __hash__(self) -> int:
        return hash(self.reason)

    def to_json(self) -> dict[str, Any]:
        """``{"reason", "params"}`` as the wire gives them."""
        return {"reason": self.reason, "params": params_json(self.params)}
