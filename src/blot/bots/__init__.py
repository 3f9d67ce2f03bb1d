"""Computer players behind one protocol (:class:`blot.game.Bot`): ``choose(view) -> action``;
they only ever see their seat's view of the game.

Bots are named ``NAME[:key=value,...]`` wherever bots are named (``blot simulate``, ``blot play``,
``blot arena``, the server): ``basic``, ``random``, ``basic:boldness=1.5``. Each game's spec in
:mod:`blot.games` lists its built-in bots; a bot's module is imported only when the bot is made.
``cmd:COMMAND LINE`` is a program that speaks the bot protocol (:mod:`blot.bots.external`,
docs/bot-protocol.md).

>>> from random import Random
>>> from blot.bazar import GAME_NAME, Game
>>> game = Game(rng=Random(1))
>>> bot = make_bot(GAME_NAME, "heuristic", Random(2))
>>> bot.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

from importlib import import_module
from random import Random
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from blot.bots.settings import Setting, check_settings
from blot.cards import Card
from blot.errors import SetupError
from blot.game import Action, Bot, Trick, View

if TYPE_CHECKING:
    from blot.games import GameSpec

#: The bot levels that may sit at a rated table, each at its own settings (issue 22): a rating
#: measures play, and ``random`` (10 wins in a row against it took an account to the top of the
#: leaderboard), a level with weakened settings or a program of unknown strength would hand out
#: ratings. Both games' specs list these levels.
RATED_LEVELS = ("basic", "heuristic", "pimc", "expert")

#: The kind of bot spec that names a program: ``cmd:COMMAND LINE``.
EXTERNAL = "cmd"
#: The fair-play tests' dishonest bot (:mod:`blot.bots.cheat`): ``blot arena`` and ``blot simulate``
#: only (``testing``), never a level of the lobby, the server or the bot protocol.
CHEAT = "cheat"
#: The cheating bots of the fair-play test, by module path as the games name their bots (the
#: module imports this package, which names it only by its path).
CHEATS = {"bazar-blot": "blot.bots.cheat:BazarCheat", "3-5-8": "blot.bots.cheat:TfeCheat"}
#: The longest bot spec accepted (a name and a few settings).
SPEC_LIMIT = 200


T = TypeVar("T")


def deal_of(view: View, deal_view: type[T]) -> T:
    """The deal part of a bot's view: bots are given the game's view (its ``deal``); tests may
    give a deal's view directly."""
    deal = getattr(view, "deal", view)
    assert isinstance(deal, deal_view), "a bot is asked to act only during a deal"
    return deal


class PlayedCards(Protocol):
    """The tricks of a deal view (both games' ``DealView``)."""

    @property
    def tricks(self) -> tuple[Trick, ...]: ...

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]: ...

    @property
    def seat(self) -> int: ...


def tricks_seen(view: PlayedCards) -> list[tuple[int, tuple[Card, ...]]]:
    """Every trick a deal view shows as (leader, cards), the one in progress last."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    return tricks


def cards_played(tricks: list[tuple[int, tuple[Card, ...]]], seats: int) -> tuple[int, list[int]]:
    """Every card of ``tricks`` (as :func:`tricks_seen` gives them) and the cards each seat
    played there, as card sets."""
    by_seat = [0] * seats
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            by_seat[(leader + i) % seats] |= c.bit
    played = 0
    for cards_of_seat in by_seat:
        played |= cards_of_seat
    return played, by_seat


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"pimc:samples=20,seconds=0.5"`` -> ``("pimc", {"samples": "20", "seconds": "0.5"})``:
    the name and each setting's text, unchecked (:func:`check_bot` checks them)."""
    if len(spec) > SPEC_LIMIT:
        raise SetupError("bot_spec_length", "bot", n=SPEC_LIMIT)
    name, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise SetupError("bot_setting_form", "bot", setting=repr(item), bot=name)
        if key in settings:
            raise SetupError("bot_setting_twice", "bot", bot=name, setting=repr(key))
        settings[key] = value.strip()
    return name.strip(), settings


def split_bot_specs(text: str) -> list[str]:
    """A comma-separated list of bot specs, where a spec's own settings are comma-separated too:
    ``"pimc:samples=5,seconds=0.5,basic"`` -> ``["pimc:samples=5,seconds=0.5", "basic"]`` (a piece
    with ``=`` and no ``:`` is one more setting of the spec before it). An empty list is ``[]``;
    an empty place between commas (``"basic,"``) is a :class:`SetupError`, not a bot left out."""
    if not text.strip():
        return []
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise SetupError("bot_comma", "bot", spec=repr(text))
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def check_bot(
    game: str | GameSpec, spec: str, *, web: bool = False, testing: bool = False
) -> tuple[type, dict[str, Any]]:
    """The class and the checked settings of a bot spec for ``game``; :class:`SetupError` (one
    sentence) for an unknown bot, an unknown setting or a value out of its documented range.
    ``web``: the stricter ceilings of web tables (:class:`~blot.bots.settings.Setting`).
    ``testing``: ``blot arena`` and ``blot simulate`` also know the fair-play tests' ``cheat``
    (:mod:`blot.bots.cheat`), which nothing else makes."""
    from blot.games import spec as spec_of

    game_spec = spec_of(game) if isinstance(game, str) else game
    if not isinstance(spec, str) or not spec.strip():
        raise SetupError("bot_name", "bot")
    if is_external(spec):
        if web:
            raise SetupError("bot_web_listed", "bot")
        from blot.bots.external import ExternalBot
        from blot.bots.program import command_argv

        command_argv(spec.strip().partition(":")[2])  # the command line itself; the program when it starts
        return ExternalBot, {}
    name, given = parse_bot_spec(spec)
    if testing and name == CHEAT and not web and game_spec.name in CHEATS:
        module, _, attribute = CHEATS[game_spec.name].partition(":")
        cls = getattr(import_module(module), attribute)
    else:
        cls = game_spec.bot_class(name)
    accepted: dict[str, Setting] = getattr(cls, "SETTINGS", {})
    return cls, check_settings(name, accepted, given, web)


def check_bots(game: str | GameSpec, specs: list[str], *, testing: bool = False) -> None:
    """Check every spec of a command line's bot list (before anything is played)."""
    for one in specs:
        check_bot(game, one, testing=testing)


def make_bot(
    game: str | GameSpec, spec: str, rng: Random | None = None, *, web: bool = False, testing: bool = False
) -> Bot[View, Action]:
    """A new bot for ``game`` (a name or a spec) from its bot spec, with its own random source.
    ``web``: a web table's bot (the stricter ceilings, and the class's ``WEB_SECONDS`` as its
    time limit unless the spec sets ``seconds``)."""
    from blot.games import spec as spec_of

    game_spec = spec_of(game) if isinstance(game, str) else game
    if is_external(spec):  # a program: named by the command line or the server's operator
        from blot.bots.external import ExternalBot

        return ExternalBot(game_spec, spec.strip().partition(":")[2].strip(), rng)
    cls, settings = check_bot(game_spec, spec, web=web, testing=testing)
    limit = getattr(cls, "WEB_SECONDS", None)
    if web and limit is not None:
        # a web table's bot must answer in time: its work budget gets a safety limit in seconds
        settings.setdefault("seconds", limit)
    bot: Bot[View, Action] = cls(rng=rng or Random(), **settings)
    return bot


def is_external(spec: str) -> bool:
    """Whether a bot spec names a program (``cmd:COMMAND LINE``)."""
    kind, colon, _ = spec.strip().partition(":")
    return kind == EXTERNAL and bool(colon)


__all__ = [
    "EXTERNAL",
    "Setting",
    "check_bot",
    "check_bots",
    "deal_of",
    "is_external",
    "make_bot",
    "parse_bot_spec",
    "split_bot_specs",
    "tricks_seen",
]
