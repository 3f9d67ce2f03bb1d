"""The ruleset of a 3-5-8 game. There is one (``standard``, T-1 … T-50) and no options; it is a
value all the same, so that both games are set up the same way (:mod:`blot.games`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from blot.errors import SetupError


@dataclass(frozen=True, slots=True)
class Preset:
    """A ruleset: here only its name on the page, by language (the lobby shows it)."""

    labels: Mapping[str, str]


#: The one ruleset (the engine reads no preset values: T-1 … T-50 do not vary).
PRESETS: Final[Mapping[str, Preset]] = MappingProxyType(
    {
        "standard": Preset(
            MappingProxyType({"hy": "Ստանդարտ", "ru": "Стандартные", "bg": "Стандартни", "en": "Standard"})
        )
    }
)
RULESETS: Final = tuple(PRESETS)


@dataclass(frozen=True, slots=True)
class Rules:
    ruleset: Literal["standard"] = "standard"

    def options(self) -> dict[str, Any]:
        """The options as a record writes them: none."""
        return {}

    @staticmethod
    def option_fields() -> list[dict[str, Any]]:
        """What a table may choose: nothing."""
        return []

    @classmethod
    def from_record(cls, ruleset: object = "standard", options: object = None) -> Rules:
        """Check a table's or record's ``ruleset`` and ``options``."""
        if ruleset not in (None, "standard"):
            raise SetupError("tfe_one_ruleset", "ruleset")
        if options not in (None, {}) and not (isinstance(options, Mapping) and not options):
            raise SetupError("tfe_one_ruleset", "options")
        return DEFAULT_RULES


DEFAULT_RULES: Final = Rules()
