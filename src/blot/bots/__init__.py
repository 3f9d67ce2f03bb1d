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

import inspect
from random import Random
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from blot.cards import Card
from blot.errors import BlotError
from blot.game import Action, Bot, Trick, View

if TYPE_CHECKING:
    from blot.games import GameSpec

#: The kind of bot spec that names a program: ``cmd:COMMAND LINE``.
EXTERNAL = "cmd"


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


def tricks_seen(view: PlayedCards) -> list[tuple[int, tuple[Card, ...]]]:
    """Every trick a deal view shows as (leader, cards), the one in progress last."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    return tricks


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"pimc:samples=20,seconds=0.5"`` -> ``("pimc", {"samples": 20, "seconds": 0.5})``."""
    name, _, rest = spec.strip().partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BlotError(f"bot setting {item!r} must be written key=value, e.g. {name}:samples=20")
        settings[key.strip()] = _value(value.strip())
    return name, settings


def split_bot_specs(text: str) -> list[str]:
    """A comma-separated list of bot specs, where a spec's own settings are comma-separated too:
    ``"pimc:samples=5,seconds=0.5,basic"`` -> ``["pimc:samples=5,seconds=0.5", "basic"]`` (a piece
    with ``=`` and no ``:`` is one more setting of the spec before it)."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_bot(game: str | GameSpec, spec: str, rng: Random | None = None) -> Bot[View, Action]:
    """A new bot for ``game`` (a name or a spec) from its bot spec, with its own random source."""
    from blot.games import spec as spec_of

    game_spec = spec_of(game) if isinstance(game, str) else game
    kind, colon, command = spec.strip().partition(":")
    if kind == EXTERNAL and colon:
        from blot.bots.external import ExternalBot

        return ExternalBot(game_spec, command.strip(), rng)
    name, settings = parse_bot_spec(spec)
    cls = game_spec.bot_class(name)
    accepted = set(inspect.signature(cls).parameters) - {"rng"}
    for key in settings:
        if key not in accepted:
            choices = ", ".join(sorted(accepted)) or "none"
            raise BlotError(f"bot {name} has no setting {key!r} (its settings: {choices})")
    try:
        bot: Bot[View, Action] = cls(rng=rng or Random(), **settings)
    except (TypeError, ValueError) as e:
        raise BlotError(f"bot {spec}: {e}") from None
    return bot
