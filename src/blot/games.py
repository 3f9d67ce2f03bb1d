"""The registry: one :class:`GameSpec` per game, and the only place a game's name is written
outside its own package.

Every part of blot that handles "a game" (server, arena, simulator, records, bots, CLI) asks
the registry, never a list of its own. A spec names the game's package, and the game has one
module of that name at each layer (:mod:`blot.layers` lists them with their protocols: the rules
``blot.<package>``, ``blot.records.<package>``, ``blot.wire.<package>`` …), found by one typed
function, :meth:`GameSpec.layer`, and imported only when used, so that a command pays only for
what it runs. ``bots`` names the computer players by level (``module:Class``).

The registry imports no layer: the layers import it (the protocols sit beside :mod:`blot.game`).
Adding a game means writing its modules and one more spec here (docs/developers.md: "Adding a
game or a ruleset").

>>> from blot.games import spec, names
>>> names()
('bazar-blot', '3-5-8')
>>> bazar = spec("bazar-blot")
>>> bazar.seats, bazar.rulesets, bazar.bot_names()
(4, ('league', 'classic'), ['basic', 'expert', 'heuristic', 'pimc', 'random'])
>>> spec("chess")
Traceback (most recent call last):
...
blot.errors.SetupError: unknown game 'chess': use bazar-blot or 3-5-8
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from random import Random
from types import ModuleType
from typing import Any, Final, TypeVar

from blot.errors import SetupError
from blot.game import AnyGame, DealtCards, GameResult
from blot.layers import PACKAGES, Analyser, Engine, Presenter, Records, Stats, Wire
from blot.records.common import Replay

L = TypeVar("L")


@cache
def _module(path: str) -> ModuleType:
    return import_module(path)


@dataclass(frozen=True)
class GameSpec:
    """Everything about one game that the rest of blot needs, by module path (lazy)."""

    name: str
    title: str
    seats: int
    #: The seats playing together, team by team (each seat alone in a game without partners).
    teams: tuple[tuple[int, ...], ...]
    #: The game's package: its modules at each layer are ``blot.<layer>.<package>`` (the engine
    #: is ``blot.<package>`` itself).
    package: str
    #: Deals are played as a contract that is made or failed (the arena counts them).
    contracts: bool = False
    #: Which way play goes round the table: ``clockwise`` (the next seat on one's left, Bazar
    #: Blot B-1) or ``counterclockwise`` (on one's right, 3-5-8 T-1). Pages draw the table so.
    direction: str = "clockwise"
    #: Bot level -> ``module:Class``; each class takes ``rng`` and its settings as keywords.
    bots: Mapping[str, str] = field(default_factory=dict)
    #: An event may play its rounds in duplicate: the same cards dealt at every table, each pair
    #: scored against those who held its cards elsewhere.
    duplicate: bool = False
    #: The game has a paper score sheet that :mod:`blot.scoresheet` keeps (the Davtar): an
    #: event's referees keep it over the board; a game without one plays its events online.
    score_sheet: bool = False

    @property
    def pairs(self) -> bool:
        """Partners play as pairs (teams of two): an event's entry is two accounts, and the League
        bars pairs (League §7)."""
        return all(len(team) == 2 for team in self.teams)

    @property
    def engine(self) -> str:
        """The rules' package (``Game``, ``Rules``, ``DealtCards``, ``random_deal``, ``RULESETS``)."""
        return f"blot.{self.package}"

    def layer(self, protocol: type[L]) -> L:
        """The game's module of a layer (:mod:`blot.layers`), checked against its protocol."""
        package = PACKAGES[protocol]
        module: object = _module(f"{package}.{self.package}" if package else self.engine)
        if not isinstance(module, protocol):
            raise TypeError(f"{module!r} does not provide {protocol.__name__} for {self.name}")
        return module

    @property
    def rules_module(self) -> Engine:
        return self.layer(Engine)

    # --- the rules -------------------------------------------------------------------------------

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The engine's rulesets (its ``RULESETS``), the default first."""
        return tuple(self.rules_module.RULESETS)

    def rules(self, ruleset: object = None, options: object = None) -> Any:
        """The game's ``Rules`` for a ruleset and options as records and requests give them
        (checked: :class:`SetupError` naming ``ruleset`` or ``options``)."""
        rules_type = self.rules_module.Rules
        if ruleset is None:
            ruleset = self.rulesets[0]
        return rules_type.from_record(ruleset, options)

    def default_options(self) -> dict[str, Any]:
        options: dict[str, Any] = self.rules_module.Rules().options()
        return options

    def option_fields(self) -> list[dict[str, Any]]:
        """What a table may choose of each option (``Rules.option_fields``), for a lobby."""
        fields: list[dict[str, Any]] = self.rules_module.Rules.option_fields()
        return fields

    def counted_deals(self) -> int | None:
        """How many counted deals a game lasts (3-5-8: 9, T-50), or None for a game played to a
        target score (Bazar Blot's ``target`` option, B-70)."""
        counted: int | None = getattr(self.rules_module, "COUNTED_DEALS", None)
        return counted

    def first_dealer(self, seat: int = 0) -> int:
        """The dealer that makes ``seat`` speak (and in 3-5-8 lead) first."""
        return (seat - 1) % self.seats

    def new_game(
        self, rules: object = None, *, dealer: int | None = None, rng: Random | None = None
    ) -> AnyGame:
        """A new game; with ``rng`` it deals its own cards, without one it waits for
        :meth:`~blot.game.GameState.start_deal`. The first dealer defaults to
        :meth:`first_dealer`."""
        engine = self.rules_module
        return engine.Game(
            rules=rules if rules is not None else engine.Rules(),
            dealer=self.first_dealer() if dealer is None else dealer,
            rng=rng,
        )

    def random_deal(self, rng: Random) -> DealtCards:
        """Freshly shuffled cards for one deal."""
        return self.rules_module.random_deal(rng)

    def cards_from_json(self, payload: Mapping[str, Any]) -> DealtCards:
        """A deal's cards from the form a table's log stores (``DealtCards.to_json``)."""
        cards: DealtCards = self.rules_module.DealtCards.from_json(payload)
        return cards

    def ranking(self, result: GameResult) -> tuple[int, ...]:
        """Each seat's place in a finished game (0 first)."""
        return result.ranking()

    # --- records, bots, presenters ----------------------------------------------------------------

    def replay(self, record: Mapping[str, Any]) -> Replay:
        """Replay a record of this game through the rules (``RecordError`` on the first broken
        step)."""
        return self.layer(Records).replay(record)

    def record_of(
        self, game: AnyGame, players: list[str] | None = None, *, unfinished: bool = False
    ) -> dict[str, Any]:
        """The docs/format.md record of a game played through the engine."""
        return self.layer(Records).record_of(game, players, unfinished=unfinished)

    def bot_names(self) -> list[str]:
        return sorted(self.bots)

    def bot_class(self, level: str) -> type:
        """The class of a bot level (``SetupError`` when the game has no such bot)."""
        target = self.bots.get(level)
        if target is None:
            raise SetupError(
                f"unknown bot {level!r} for {self.name}: choose from {', '.join(self.bot_names())}", "bot"
            )
        module, _, name = target.partition(":")
        found = getattr(_module(module), name)
        if not isinstance(found, type):
            raise TypeError(f"{target} is not a class")
        return found

    def wire_module(self) -> Wire:
        """The JSON of this game's views, actions and events (:mod:`blot.wire`)."""
        return self.layer(Wire)

    def cli_module(self) -> Presenter:
        """The terminal presenter of this game (:mod:`blot.cli`)."""
        return self.layer(Presenter)

    def analysis_module(self) -> Analyser:
        """The double-dummy analysis of this game's deals (:mod:`blot.analysis`)."""
        return self.layer(Analyser)

    def stats_module(self) -> Stats:
        """What ``blot simulate`` counts for this game (:mod:`blot.simulate`)."""
        return self.layer(Stats)


_BOTS = "blot.bots"

SPECS: Final[dict[str, GameSpec]] = {
    spec.name: spec
    for spec in (
        GameSpec(
            name="bazar-blot",
            title="Bazar Blot",
            seats=4,
            teams=((0, 2), (1, 3)),
            package="bazar",
            contracts=True,
            duplicate=True,
            score_sheet=True,
            bots={
                "random": f"{_BOTS}.random_bot:RandomBot",
                "basic": f"{_BOTS}.bazar_basic:BasicBot",
                "heuristic": f"{_BOTS}.bazar_heuristic:HeuristicBot",
                "pimc": f"{_BOTS}.bazar_pimc:PimcBot",
                "expert": f"{_BOTS}.bazar_expert:ExpertBot",
            },
        ),
        GameSpec(
            name="3-5-8",
            title="3-5-8",
            seats=3,
            teams=((0,), (1,), (2,)),
            package="three_five_eight",
            direction="counterclockwise",
            bots={
                "random": f"{_BOTS}.random_bot:RandomBot",
                "basic": f"{_BOTS}.tfe_basic:BasicBot",
                "heuristic": f"{_BOTS}.tfe_heuristic:HeuristicBot",
                "pimc": f"{_BOTS}.tfe_pimc:PimcBot",
                "expert": f"{_BOTS}.tfe_expert:ExpertBot",
            },
        ),
    )
}


def names() -> tuple[str, ...]:
    """The games' names, in the order the registry lists them."""
    return tuple(SPECS)


def spec_of(game: object) -> GameSpec:
    """The spec of a game object (:class:`SetupError` for anything that is no game of blot's)."""
    module = type(game).__module__
    for candidate in SPECS.values():
        if module == candidate.engine or module.startswith(candidate.engine + "."):
            return candidate
    raise SetupError(f"{type(game).__name__} is not a game of {' or '.join(SPECS)}", "game")


def spec(name: object) -> GameSpec:
    """The spec of a game by name; :class:`SetupError` (naming ``game``) for any other value."""
    found = SPECS.get(name) if isinstance(name, str) else None
    if found is None:
        raise SetupError(f"unknown game {name!r}: use {' or '.join(SPECS)}", "game")
    return found
