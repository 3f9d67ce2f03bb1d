"""The ruleset and options of a Bazar Blot game (B-90, B-91) as one frozen value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from blot.errors import SetupError

Ruleset = Literal["league", "classic"]
RULESETS: tuple[Ruleset, ...] = ("league", "classic")


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
        if self.ruleset not in RULESETS:
            raise SetupError(f"unknown ruleset {self.ruleset!r}: use league or classic", "ruleset")
        for name in ("kanach", "three_passes_end_bidding"):
            if not isinstance(getattr(self, name), bool):
                raise SetupError(f"option {name} must be true or false", "options")
        if type(self.nt_four_nines) is not int or self.nt_four_nines not in (0, 10):
            raise SetupError("option nt_four_nines must be 10 or 0", "options")
        if type(self.target) is not int or not 1 <= self.target <= 10_000:
            raise SetupError("option target must be a whole number of points from 1 to 10000", "options")

    @property
    def league(self) -> bool:
        return self.ruleset == "league"

    @property
    def top_level(self) -> int:
        """The highest bid: 25 (kapoot), or 30 (kanach) with that option (B-21, B-22)."""
        return 30 if self.kanach else 25

    def options(self) -> dict[str, Any]:
        """The options as a record writes them (B-91)."""
        out = asdict(self)
        del out["ruleset"]
        return out

    @classmethod
    def from_record(cls, ruleset: object = "league", options: object = None) -> Rules:
        """Build from a record's ``ruleset`` and ``options``, refusing unknown keys."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise SetupError("options must be an object", "options")
        known = set(cls.__dataclass_fields__) - {"ruleset"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise SetupError(
                f"unknown option {unknown[0]!r}: known options are {', '.join(sorted(known))}", "options"
            )
        if not isinstance(ruleset, str):
            raise SetupError("ruleset must be league or classic", "ruleset")
        return cls(ruleset=ruleset, **options)  # type: ignore[arg-type]
