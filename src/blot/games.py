"""The registry: one :class:`GameSpec` per game, and the only place a game's name is written
outside its own package.

Every part of blot that handles "a game" (server, arena, simulator, records, bots, CLI) asks
the registry, never a list of its own. A spec names the game's package, and the game has one
module of that name at each layer (:mod:`blot.layers` lists them with their protocols: the rules
``blot.<package>``, ``blot.records.<package>``, ``blot.wire.<package>`` …), found by one typed
function, :meth:`GameSpec.layer`, and imported only when used, so that a command pays only for
what it runs. ``bots`` names the computer players by level (``module:Class``).

A spec says what its game provides (``provides``: the optional layers of :mod:`blot.layers`;
``score_sheet``, ``contracts``, ``duplicate``): what it leaves out is refused in one sentence
where it is asked for, and the contract suite skips it. A game outside blot's own tree (the toy
game of the tests) names its modules in ``modules`` and is added with :func:`register`.

The registry imports no layer: the layers import it (the protocols sit beside :mod:`blot.game`).
Adding a game means writing its modules and one more spec here (docs/developers.md: "Adding a
game or a ruleset").

>>> from blot.games import spec, names
>>> names()
('bazar-blot', '3-5-8')
>>> bazar = spec("bazar-blot")
>>> bazar.seats, bazar.rulesets[0], bazar.bot_names()
(4, 'league', ['basic', 'expert', 'heuristic', 'pimc', 'random'])
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
from blot.game import AnyGame, DealtCards, GameResult, Replay
from blot.layers import OPTIONAL, PACKAGES, WHAT, Analyser, Engine, Presenter, Records, Stats, Wire

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
    #: The optional layers it has (:data:`blot.layers.OPTIONAL`); every game has the required ones.
    provides: frozenset[type] = frozenset()
    #: Where its module of a layer is when it is not ``blot.<layer>.<package>`` (a game outside
    #: blot's own tree): protocol -> module path.
    modules: Mapping[type, str] = field(default_factory=dict)
    #: The file of its page presenter when it is not ``blot/web/games/<package>.js`` (served as
    #: that module: ``GET /static/games/<package>.js``).
    web_presenter: str | None = None

    def has(self, protocol: type) -> bool:
        """Whether the game has a module of that layer (a required one, or one it provides)."""
        return protocol not in OPTIONAL or protocol in self.provides

    @property
    def pairs(self) -> bool:
        """Partners play as pairs (teams of two): an event's entry is two accounts, and the League
        bars pairs (League §7)."""
        return all(len(team) == 2 for team in self.teams)

    @property
    def engine(self) -> str:
        """The rules' package (``Game``, ``Rules``, ``DealtCards``, ``random_deal``, ``PRESETS``)."""
        return self.modules.get(Engine) or f"blot.{self.package}"

    def layer(self, protocol: type[L]) -> L:
        """The game's module of a layer (:mod:`blot.layers`), checked against its protocol; a
        :class:`SetupError` in one sentence for an optional layer the game does not provide."""
        if not self.has(protocol):
            raise SetupError(f"{self.title} has {WHAT[protocol]}", "game")
        package = PACKAGES[protocol]
        path = self.modules.get(protocol) or (f"{package}.{self.package}" if package else self.engine)
        module: object = _module(path)
        if not isinstance(module, protocol):
            raise TypeError(f"{module!r} does not provide {protocol.__name__} for {self.name}")
        return module

    @property
    def rules_module(self) -> Engine:
        return self.layer(Engine)

    # --- the rules -------------------------------------------------------------------------------

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The engine's rulesets (the names of its ``PRESETS``), the default first."""
        return tuple(self.rules_module.PRESETS)

    def ruleset_labels(self) -> dict[str, dict[str, str]]:
        """Each ruleset's name in each language of the page (its preset's ``labels``)."""
        return {name: dict(preset.labels) for name, preset in self.rules_module.PRESETS.items()}

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
                "unknown_bot", "bot", bot=repr(level), game=self.name, bots=", ".join(self.bot_names())
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
#: What blot's own games provide: every optional layer.
_ALL: Final = frozenset(OPTIONAL)


def _bots(prefix: str) -> dict[str, str]:
    """A game's bot table: the shared random bot, then ``blot.bots.<prefix>_<level>`` for the
    four levels every game has (each module names its class after the level)."""
    levels = {"basic": "BasicBot", "heuristic": "HeuristicBot", "pimc": "PimcBot", "expert": "ExpertBot"}
    return {
        "random": f"{_BOTS}.random_bot:RandomBot",
        **{level: f"{_BOTS}.{prefix}_{level}:{cls}" for level, cls in levels.items()},
    }


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
            provides=_ALL,
            bots=_bots("bazar"),
        ),
        GameSpec(
            name="3-5-8",
            title="3-5-8",
            seats=3,
            teams=((0,), (1,), (2,)),
            package="three_five_eight",
            direction="counterclockwise",
            provides=_ALL,
            bots=_bots("tfe"),
        ),
    )
}


def register(game: GameSpec) -> GameSpec:
    """Add a game to the registry (a game outside blot's tree; the tests' toy game). A name
    already taken is refused."""
    if game.name in SPECS:
        raise SetupError(f"a game {game.name!r} is registered already", "game")
    SPECS[game.name] = game
    return game


def unregister(name: str) -> None:
    """Take a game :func:`register` added out of the registry again."""
    SPECS.pop(name, None)


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
        raise SetupError("unknown_game", "game", game=repr(name), games=" or ".join(SPECS))
    return found
