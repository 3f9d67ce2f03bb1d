"""What a bot's settings may be: each bot class lists its settings (``SETTINGS``), with their
type and the documented range, and :func:`check_settings` is the one place that reads them from
text (``pimc:samples=20,seconds=0.5``) and refuses what is not allowed, in one plain sentence.

The command line and the server share these checks. Web tables are stricter (``web``): a
setting may have a lower ceiling there (``web_high``), so that no client can make a bot think
for minutes on the server's threads.

>>> s = Setting(int, 1, 1000, "deals sampled per decision", web_high=100)
>>> s.read("pimc", "samples", "20")
20
>>> s.read("pimc", "samples", "1.5")
Traceback (most recent call last):
...
blot.errors.SetupError: bot pimc: samples is a whole number from 1 to 1000, not '1.5'
>>> s.read("pimc", "samples", "500", web=True)
Traceback (most recent call last):
...
blot.errors.SetupError: bot pimc: samples is at most 100 at a web table, not 500
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar

from blot.errors import SetupError

_INT = re.compile(r"^[+-]?\d{1,9}$")


@dataclass(frozen=True)
class Setting:
    """One setting of a bot: ``int``, ``float`` (finite, from ``low`` to ``high``) or ``str``
    (one of ``choices``)."""

    kind: type
    low: float = 0
    high: float = 0
    help: str = ""
    #: The highest value a web table accepts (None: the same as ``high``).
    web_high: float | None = None
    choices: tuple[str, ...] = ()
    #: ``low`` itself is excluded (a time limit must be above 0).
    above_low: bool = False
    #: The setting may be left unset (None) when a bot is built from code.
    optional: bool = False
    #: The value a bot is built with when the setting is not given.
    default: Any = None

    def describe(self) -> str:
        """The accepted values, as the players' guide's bot table writes them."""
        if self.kind is str:
            return " or ".join(self.choices)
        low = _number(self.low)
        if self.above_low:
            return f"above {low}, at most {_number(self.high)}"
        what = "a whole number" if self.kind is int else "a number"
        return f"{what} from {low} to {_number(self.high)}"

    def accepts(self, value: object) -> bool:
        """Whether ``value`` (already of this setting's kind) is one this setting allows."""
        if self.kind is str:
            return value in self.choices
        number = int if self.kind is int else int | float
        if not isinstance(value, number) or isinstance(value, bool) or not math.isfinite(value):
            return False
        too_low = value <= self.low if self.above_low else value < self.low
        return not too_low and value <= self.high

    def check(self, bot: str, key: str, value: Any) -> Any:
        """``value`` when this setting allows it, else SetupError saying what is allowed (a bot
        checks the settings it is built with, from the command line or from code alike)."""
        if not self.accepts(value):
            raise SetupError(
                "bot_setting_value",
                "bot",
                bot=bot,
                setting=key,
                rule=self.describe(),
                value=repr(str(value)[:40]),
            )
        return value

    def read(self, bot: str, key: str, text: str, web: bool = False) -> Any:
        """The value of ``text`` for this setting, or SetupError saying what is allowed."""
        text = text.strip()
        if self.kind is str:
            return self.check(bot, key, text)
        value: float
        if self.kind is int:
            value = int(text) if _INT.match(text) else math.nan
        else:
            try:
                value = float(text)
            except ValueError:
                value = math.nan
        if not self.accepts(value):
            raise SetupError(
                "bot_setting_value", "bot", bot=bot, setting=key, rule=self.describe(), value=repr(text[:40])
            )
        if web and self.web_high is not None and value > self.web_high:
            raise SetupError(
                "bot_setting_web_max",
                "bot",
                bot=bot,
                setting=key,
                high=_number(self.web_high),
                value=text[:40],
            )
        return value


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


class Configured:
    """A bot built from its class's ``SETTINGS`` as ``cls(rng, **settings)``: each setting given
    (checked: SetupError), else its default, becomes an attribute of the same name. The one
    place a bot's constructor reads its settings, so that a new setting is one line in
    ``SETTINGS`` (issue 39: each bot had written every name three times, as a parameter, in a
    dict to check and as an attribute)."""

    name: ClassVar[str] = ""
    SETTINGS: ClassVar[dict[str, Setting]] = {}

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        cls = type(self)
        unknown = sorted(set(settings) - set(cls.SETTINGS))
        if unknown:
            raise TypeError(f"{cls.__name__} has no setting {', '.join(unknown)}")
        for key, setting in cls.SETTINGS.items():
            value = settings.get(key, setting.default)
            if value is not None or not setting.optional:
                setting.check(cls.name, key, value)
            setattr(self, key, value)
        self.rng = rng or Random()


def check_settings(
    bot: str, accepted: Mapping[str, Setting], given: Mapping[str, str], web: bool = False
) -> dict[str, Any]:
    """The settings ``given`` as text, read and checked against a bot's ``accepted`` ones."""
    out: dict[str, Any] = {}
    for key, text in given.items():
        setting = accepted.get(key)
        if setting is None:
            choices = ", ".join(sorted(accepted)) or "none"
            raise SetupError("bot_setting_unknown", "bot", bot=bot, setting=repr(key[:40]), settings=choices)
        out[key] = setting.read(bot, key, text, web)
    return out
