"""What each game provides at each layer, as typed protocols beside :mod:`blot.game` (the rules'
own protocol). The registry (:mod:`blot.games`) finds a game's module of a layer with one typed
function, :meth:`blot.games.GameSpec.layer`, which checks the module against its protocol; a
test checks every layer of every game (``tests/contract/test_layers.py``).

The first three layers every game has (:data:`REQUIRED`); the others a game provides or not
(:data:`OPTIONAL`), and its spec says which (``GameSpec.provides``, as OpenSpiel's game types
declare what a game offers): the contract suite checks what a spec provides and skips the rest,
and whatever asks a game for a layer it lacks gets a ``SetupError`` in one sentence.

Nothing here imports anything above :mod:`blot.game` and :mod:`blot.cards`, so the layers import
the registry and never the other way round; what an optional layer returns (a deal's analysis,
an encoding) is typed at its own package and named here only in words.

=====================  ===============================  =============================================
protocol               a game's module                  what it is for
=====================  ===============================  =============================================
:class:`Engine`        ``blot.<package>``               the rules: ``Game``, ``Rules``, ``DealtCards``
:class:`Records`       ``blot.records.<package>``       game records (docs/format.md)
:class:`Wire`          ``blot.wire.<package>``          the JSON of views, actions and events
:class:`Stats`         ``blot.simulate.<package>``      what ``blot simulate`` counts
:class:`Analyser`      ``blot.analysis.<package>``      the double-dummy analysis of finished deals
:class:`Presenter`     ``blot.cli.<package>``           the game in the terminal
:class:`Encoder`       ``blot.env.<package>``           the environments' observation and actions
=====================  ===============================  =============================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from random import Random
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from blot.cards import Card
from blot.game import Action, AnyGame, PublicView, Replay, View
from blot.game import DealtCards as Cards

#: A public event and the private additions some seats get (seat -> fields).
Event = tuple[dict[str, Any], dict[int, dict[str, Any]]]


@runtime_checkable
class Engine(Protocol):
    """The rules of a game (its package itself)."""

    #: The rulesets by name, the default first: each a preset with its ``labels`` by language.
    PRESETS: Mapping[str, Any]
    Game: Callable[..., AnyGame]
    Rules: Any
    DealtCards: Any

    def random_deal(self, rng: Random) -> Cards: ...


@runtime_checkable
class Records(Protocol):
    """Reading (``replay``) and writing (``record_of``) the game's records (docs/format.md)."""

    def replay(self, record: Mapping[str, Any]) -> Replay: ...

    def record_of(
        self, game: AnyGame, players: list[str] | None = None, *, unfinished: bool = False
    ) -> dict[str, Any]: ...


@runtime_checkable
class Wire(Protocol):
    """The JSON of the game's views, actions and events (:mod:`blot.wire`, docs/protocol.md)."""

    def view_json(self, view: View) -> dict[str, Any] | None: ...

    def public_json(self, view: PublicView) -> dict[str, Any] | None: ...

    def seat_json(self, view: View) -> dict[str, Any] | None:
        """The fields of the seat's :meth:`view_json` that differ from :meth:`public_json`: the
        seat's view is the public one with these (the server builds the public part once)."""
        ...

    def action_json(self, action: Action) -> Any: ...

    def action_from_json(self, game: AnyGame, value: Any) -> Action: ...

    def action_from_message(self, game: AnyGame, message: Mapping[str, Any]) -> Action: ...

    def event(self, game: AnyGame, seat: int, action: Action, before: Enum) -> Event: ...

    def frame(self, game: AnyGame) -> dict[str, Any]:
        """A replay's frame: every hand (``blot.wire.frame_of``), the deal's ``result`` (null until
        it is over) and the game's ``totals`` so far, and what else the game's replay shows."""
        ...

    def summary(self, game: AnyGame) -> dict[str, Any]: ...


@runtime_checkable
class Stats(Protocol):
    """What ``blot simulate`` counts for the game."""

    def count(self, game: AnyGame, c: Counter[str]) -> int:
        """Add a finished game's statistics to ``c``; the number of deals it had."""
        ...

    def derived(self, c: Counter[str]) -> dict[str, Any]:
        """The statistics ``blot simulate`` prints, from the counts."""
        ...


@runtime_checkable
class Analyser(Protocol):
    """The double-dummy analysis of the game's finished deals (:mod:`blot.analysis`)."""

    #: The compiled solver kernel it searches with (``blot analyse`` says when it compiles).
    kernel: ModuleType
    #: The smallest loss the replay's analysis calls large; a puzzle's every wrong card loses at
    #: least this much (:mod:`blot.puzzles`).
    large: int
    #: The average value of one card: a deal's whole value over its cards (accuracy's scale).
    card_value: float

    def analyse_deal(self, game: AnyGame, index: int) -> Any:
        """Deal ``index`` (from 0) of a game whose deals are all finished: a
        ``blot.analysis.values.DealAnalysis`` (typed where it is used, :func:`blot.analysis.analyse`)."""
        ...

    def play_deal(self, game: AnyGame, source: AnyGame, index: int) -> Iterator[int]:
        """Deal ``index`` of the finished ``source`` played again on ``game`` (which played the
        deals before it), pausing before each card with the number of cards played so far."""
        ...

    def strength(self, game: AnyGame, card: Card) -> int:
        """How high ``card`` ranks in its suit in ``game``'s deal (the trick order)."""
        ...


@runtime_checkable
class Presenter(Protocol):
    """The game in the terminal (:mod:`blot.cli`): its table and its replay."""

    #: The terminal table (a :class:`blot.cli.terminal.TerminalTable`).
    TABLE: Callable[..., Any]

    def print_replay(self, replay: Replay, console: Any = None) -> None: ...


@runtime_checkable
class Encoder(Protocol):
    """The game for learning agents (:mod:`blot.env`): a seat's view as a fixed-size array and
    every action as a number."""

    def encoding(self) -> Any:
        """A ``blot.env.encode.Encoding`` (typed where it is used, :mod:`blot.env`)."""
        ...


#: Every layer's protocol and the package of the games' modules of that layer ("": the game's
#: package itself); the contract suite checks each game against each it provides.
PACKAGES: Mapping[type, str] = {
    Engine: "",
    Records: "blot.records",
    Wire: "blot.wire",
    Stats: "blot.simulate",
    Analyser: "blot.analysis",
    Presenter: "blot.cli",
    Encoder: "blot.env",
}
LAYERS: tuple[type, ...] = tuple(PACKAGES)
#: The layers every game has: its rules, its records, its JSON (a table is played through these).
REQUIRED: tuple[type, ...] = (Engine, Records, Wire)
#: The layers a game may leave out, named in its spec's ``provides``: ``blot simulate``'s
#: counts, the double-dummy analysis (and the solver it compiles), the terminal table, the
#: learning environments.
OPTIONAL: tuple[type, ...] = (Stats, Analyser, Presenter, Encoder)
#: What each optional layer is, in the sentence that refuses it to a game without it.
WHAT: Mapping[type, str] = {
    Stats: "no statistics for blot simulate",
    Analyser: "no double-dummy analysis",
    Presenter: "no terminal table",
    Encoder: "no environment for learning agents",
}
