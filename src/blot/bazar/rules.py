"""The ruleset and options of a Bazar Blot game (B-90, B-91) as one frozen value.

A ruleset is a named :class:`Preset`: the documented values it fixes (B-90: which declarations
count and what they are worth), which the engine reads instead of the ruleset's name, and its
name in each language of the page, so that a new ruleset is one more preset here and nothing
else (the lobby, the score sheet, the CLI, the records and the contract suite read
:data:`PRESETS`; docs/developers.md, "Adding a game or a ruleset"). The options (B-91) are
chosen per table and written in the record; a preset's values are not options (the record names
the ruleset).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any, Final

from blot.cards import ACE, JACK, KING, QUEEN
from blot.errors import SetupError

#: A ruleset's name: a key of :data:`PRESETS`.
Ruleset = str


@dataclass(frozen=True, slots=True)
class Preset:
    """What a ruleset fixes (B-25, B-41, B-44, B-45, B-90)."""

    #: B-25: a seat dealt all four 7s may show them as its first call and void the deal.
    four_sevens_void: bool
    #: B-45: four 8s void every other seat's declarations (else they only rank highest).
    four_eights_void_others: bool
    #: B-41: four of a kind's points by rank, ``(trump deal, no-trump deal)``; ``None`` for four 9s
    #: in a no-trump deal, which come from the option ``nt_four_nines``.
    four_points: Mapping[int, tuple[int, int | None]]
    #: B-44: four-of-a-kind order, high to low, in a trump deal and in a no-trump deal.
    four_order_trump: tuple[int, ...]
    four_order_no_trump: tuple[int, ...]
    #: Its name on the page, by language (``hy``, ``ru``, ``bg``, ``en``), which the server's
    #: game listing hands to the page.
    labels: Mapping[str, str]


#: The rulesets, the first the default: ``league`` (the National Blot League's rulebook) and
#: ``classic`` (Wikipedia), which changes only the declarations (B-90).
PRESETS: Final[dict[str, Preset]] = {
    "league": Preset(
        four_sevens_void=True,
        four_eights_void_others=True,
        four_points=MappingProxyType(
            {
                JACK: (20, 10),
                9: (15, None),
                ACE: (10, 20),
                10: (10, 15),
                KING: (10, 10),
                QUEEN: (10, 10),
                8: (0, 0),
            }
        ),
        four_order_trump=(8, JACK, 9, ACE, 10, KING, QUEEN),
        four_order_no_trump=(8, ACE, 10, KING, QUEEN, JACK, 9),
        labels=MappingProxyType({"hy": "Լիգա", "ru": "Лига", "bg": "Лига", "en": "League"}),
    ),
    "classic": Preset(
        four_sevens_void=False,
        four_eights_void_others=False,
        four_points=MappingProxyType(
            {
                JACK: (20, 20),
                9: (14, None),
                ACE: (10, 19),
                10: (10, 10),
                KING: (10, 10),
                QUEEN: (10, 10),
                8: (0, 0),
            }
        ),
        four_order_trump=(8, JACK, 9, ACE, 10, KING, QUEEN),
        four_order_no_trump=(8, JACK, 9, ACE, 10, KING, QUEEN),
        labels=MappingProxyType({"hy": "Դասական", "ru": "Классические", "bg": "Класически", "en": "Classic"}),
    ),
}
#: The values of ``nt_four_nines`` (B-91): four 9s in no trump are worth 10, or nothing.
NT_FOUR_NINES: Final[tuple[int, ...]] = (10, 0)
#: The lowest and highest target a game may be played to (B-70: 301 by default).
TARGET_RANGE: Final[tuple[int, int]] = (1, 10_000)


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that varies between tables. ``league`` (the National Blot League's rulebook) is
    the default; ``classic`` (Wikipedia) changes only the declarations (B-90).

    **Interpretation** (docs/rules.md does not settle it): ``nt_four_nines`` applies in both rulesets
    (its default, 10, is also the classic value), and four 9s worth 0 keep their place in the
    B-44 order, so they still decide which team's declarations count."""

    ruleset: Ruleset = "league"
    kanach: bool = False
    three_passes_end_bidding: bool = True
    nt_four_nines: int = 10
    target: int = 301

    def __post_init__(self) -> None:
        if self.ruleset not in PRESETS:
            raise SetupError(
                "unknown_ruleset", "ruleset", ruleset=repr(self.ruleset), rulesets=" or ".join(PRESETS)
            )
        for name in ("kanach", "three_passes_end_bidding"):
            if not isinstance(getattr(self, name), bool):
                raise SetupError("option_flag", "options", option=name)
        if type(self.nt_four_nines) is not int or self.nt_four_nines not in NT_FOUR_NINES:
            raise SetupError("option_nt_four_nines", "options")
        low, high = TARGET_RANGE
        if type(self.target) is not int or not low <= self.target <= high:
            raise SetupError("option_target", "options")

    @property
    def preset(self) -> Preset:
        """What the ruleset fixes; the engine reads these values, never the ruleset's name."""
        return PRESETS[self.ruleset]

    @property
    def top_level(self) -> int:
        """The highest bid: 25 (kapoot), or 30 (kanach) with that option (B-21, B-22)."""
        return 30 if self.kanach else 25

    def options(self) -> dict[str, Any]:
        """The options as a record writes them (B-91)."""
        out = asdict(self)
        del out["ruleset"]
        return out

    @staticmethod
    def option_fields() -> list[dict[str, Any]]:
        """What a table may choose of each option, as a lobby offers it: ``number`` (a whole
        number from ``min`` to ``max``), ``yes_no``, or ``choice`` (one of ``choices``)."""
        low, high = TARGET_RANGE
        return [
            {"name": "target", "kind": "number", "min": low, "max": high},
            {"name": "kanach", "kind": "yes_no"},
            {"name": "three_passes_end_bidding", "kind": "yes_no"},
            {"name": "nt_four_nines", "kind": "choice", "choices": list(NT_FOUR_NINES)},
        ]

    @classmethod
    def from_record(cls, ruleset: object = None, options: object = None) -> Rules:
        """Build from a record's ``ruleset`` (None: the first, league) and ``options``, refusing
        unknown keys."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise SetupError("options_must_be_object", "options")
        known = set(cls.__dataclass_fields__) - {"ruleset"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise SetupError(
                "unknown_option", "options", option=repr(unknown[0]), options=", ".join(sorted(known))
            )
        if ruleset is None:
            ruleset = next(iter(PRESETS))
        if not isinstance(ruleset, str):
            raise SetupError("ruleset_must_be", "ruleset", rulesets=" or ".join(PRESETS))
        return cls(ruleset=ruleset, **options)
