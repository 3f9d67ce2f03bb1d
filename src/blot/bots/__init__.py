"""Computer players behind one protocol: ``choose(view) -> action``; they only ever see a view.

Bots are named ``NAME[:key=value,...]`` wherever bots are named (``blot simulate``, ``blot play``):
``basic``, ``random``, ``basic:boldness=1.5``. Each game lists its own bots; a bot's module is
imported only when the bot is made.

>>> from random import Random
>>> from blot.bazar import Game
>>> game = Game(rng=Random(1))
>>> bot = make_bot("bazar-blot", "heuristic", Random(2))
>>> bot.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import inspect
from importlib import import_module
from random import Random
from typing import Any

from blot.errors import BlotError
from blot.protocol import Bot

#: game -> bot name -> "module:Class"
REGISTRY: dict[str, dict[str, str]] = {
    "bazar-blot": {
        "random": "blot.bots.random_bot:RandomBot",
        "basic": "blot.bots.bazar_basic:BasicBot",
        "heuristic": "blot.bots.bazar_heuristic:HeuristicBot",
        "pimc": "blot.bots.bazar_pimc:PimcBot",
    },
    "3-5-8": {
        "random": "blot.bots.random_bot:RandomBot",
        "basic": "blot.bots.tfe_basic:BasicBot",
        "heuristic": "blot.bots.tfe_heuristic:HeuristicBot",
        "pimc": "blot.bots.tfe_pimc:PimcBot",
    },
}


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


def bot_names(game: str) -> list[str]:
    return sorted(REGISTRY.get(game, {}))


def make_bot(game: str, spec: str, rng: Random | None = None) -> Bot:
    """A new bot for ``game`` from its spec, with its own random source."""
    name, settings = parse_bot_spec(spec)
    known = REGISTRY.get(game)
    if known is None:
        raise BlotError(f"unknown game {game!r}: use bazar-blot or 3-5-8")
    if name not in known:
        raise BlotError(f"unknown bot {name!r} for {game}: choose from {', '.join(sorted(known))}")
    module_name, _, class_name = known[name].partition(":")
    cls = getattr(import_module(module_name), class_name)
    accepted = set(inspect.signature(cls).parameters) - {"rng"}
    for key in settings:
        if key not in accepted:
            choices = ", ".join(sorted(accepted)) or "none"
            raise BlotError(f"bot {name} has no setting {key!r} (its settings: {choices})")
    try:
        bot: Bot = cls(rng=rng or Random(), **settings)
    except (TypeError, ValueError) as e:
        raise BlotError(f"bot {spec}: {e}") from None
    return bot
