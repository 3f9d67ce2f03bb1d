"""How the server behaves; ``blot serve`` sets these from its options."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ServerConfig:
    db_url: str
    #: Seconds a player who dropped keeps the seat before a bot plays it (until the player returns).
    grace: float = 60.0
    #: Seconds a bot waits before it moves, so that people can follow.
    bot_delay: float = 0.8
    #: Extra seconds after a trick is complete before a bot leads the next one.
    trick_pause: float = 1.2
    #: Seconds the result of a deal stays on the table before the next deal is dealt.
    deal_pause: float = 4.0
    #: Seed of the shuffles (tests); None: the operating system's randomness.
    seed: int | None = None
