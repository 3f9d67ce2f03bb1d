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

Hands = TypeVar("Hands")


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
