"""How the test of information samples, for both games: its settings, each decision's own random
source, and the share of sampled deals in which the card played is a best card. Light to import
(no solver): the server reads the settings at start."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from blot.cards import Card
from blot.fairplay.figures import Decision

Hands = TypeVar("Hands")
#: Where a card was played: the record's game (from 1), the deal's number, the seat, the trick,
#: whether it was the deal's opening lead, the side ("declarer" or "defence"; 3-5-8: "").
Where = tuple[int, int, int, int, bool, str]


@dataclass(frozen=True)
class Settings:
    """How the test samples: ``samples`` deals per decision, drawn in proportion to the calls'
    likelihood from ``pool`` times as many (``trust`` as ``expert``'s), decisions from trick
    ``from_trick`` on (earlier ones cost tens of milliseconds a deal to solve exactly), the
    random source from ``seed``; ``bidding``: also each call against par (Bazar Blot)."""

    samples: int = 16
    pool: int = 3
    trust: float = 0.9
    from_trick: int = 3
    seed: int = 0
    bidding: bool = True
    #: 3-5-8: decisions with at most this many tricks to play (each solved exactly).
    tfe_left: int = 6


def rng_for(settings: Settings, *parts: object) -> Random:
    """A random source for one decision, from the settings' seed and where the decision is: the
    figures of a record are the same however many records are read with it."""
    text = ":".join(str(p) for p in (settings.seed, *parts))
    return Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def share_best(
    card: Card,
    deals: Iterable[tuple[Hands, int]],
    values: Callable[[Hands], Mapping[Card, int]],
) -> tuple[float, int]:
    """``q``: the weighed share of ``deals`` (hands, weight) in which ``card`` is a best card by
    ``values`` (each legal card's double-dummy value there), and the deals' total weight (1.0
    and 0 when there were none)."""
    hits = total = 0
    for hands, weight in deals:
        valued = values(hands)
        total += weight
        hits += weight * (valued[card] == max(valued.values()))
    return (hits / total if total else 1.0), total


def judge(
    where: Where,
    card: Card,
    legal: int,
    loss: int | None,
    actual: Callable[[], Mapping[Card, int]],
    weighed: bool,
    chances: Callable[[], tuple[float, int]],
) -> Decision:
    """One card played, as both games judge it, at ``where``. A forced card loses
    nothing and is not weighed; otherwise the loss is the stored one, or the card's value
    against the best in ``actual`` (each legal card's value in the actual deal), and a decision
    the test ``weighed`` has its ``chances`` (``q`` and the deals behind it)."""
    if legal == 1:
        return Decision(*where, 0, 1)
    if loss is None:
        values = actual()
        loss = max(values.values()) - values[card]
    if not weighed:
        return Decision(*where, loss, legal, loss == 0)
    q, drawn = chances()
    return Decision(*where, loss, legal, loss == 0, q, drawn)
