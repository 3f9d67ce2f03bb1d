"""``cheat``: a dishonest ``expert`` for measuring the fair-play test (issue 43 item 1, L-9).

It plays exactly as ``expert`` but, on a share ``peek`` of the deals, it sees hidden hands when it
chooses a card: in Bazar Blot its partner's (a pair on the phone), with ``all=true`` every hidden
hand. 3-5-8 has no partners: there ``peek`` shows it one opponent's hand (the seat after it in
play order), ``all=true`` both opponents' hands and the talon or discard pile. The peeked hands
are fixed in every deal its search samples, so its double-dummy search sees them; its calls,
gifts and discards are the expert's own (only the card play cheats). ``cheat:peek=0`` is the
honest twin: the same bot, never peeking.

Which deals it peeks at is a pure function of the deal's cards (a hash of the hands dealt and
the dealer), so a seeded run is reproducible, both cheats of a pair peek on the same deals, and
``peek=0`` plays the very cards ``expert`` plays with the same seed.

It is a test instrument, never a player: only ``blot arena`` and ``blot simulate`` make it
(:func:`blot.bots.check_bot`'s ``testing``); the lobby's levels, the server's tables and the bot
protocol's built-ins do not know it. The play loop (:func:`blot.play.moves`) shows it the game
(``see``) before each of its turns; nothing else does.
"""

from __future__ import annotations

import hashlib
from random import Random
from typing import Any, ClassVar

from blot.bots.bazar_expert import ExpertBot as BazarExpert
from blot.bots.bazar_info import Knowledge
from blot.bots.settings import Setting
from blot.bots.tfe_expert import ExpertBot as TfeExpert
from blot.bots.tfe_info import DISCARD, TfeKnowledge
from blot.cards import DECK32, DECK52
from blot.game import AnyGame

#: The cheat's own settings, added to the expert's.
PEEK: dict[str, Setting] = {
    "peek": Setting(float, 0, 1, "share of the deals on which it sees hidden hands", default=0.25),
    "all": Setting(str, help="sees every hidden hand", choices=("false", "true"), default="false"),
}


def peeks(dealt: tuple[int, ...], dealer: int, share: float) -> bool:
    """Whether a cheat of ``share`` peeks on the deal of ``dealt`` hands and ``dealer``: a hash of
    the deal read as a number from 0 to 1, below ``share``."""
    text = f"blot-cheat:{dealer}:" + ",".join(str(h) for h in dealt)
    x = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2**64
    return x < share


class Peeker:
    """What both games' cheats share: the hands seen at the current turn."""

    peek: float
    all: str
    #: The hands seen before this turn, by seat (empty: not peeking at this deal or turn).
    seen: dict[int, int]

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        super().__init__(rng, **settings)  # type: ignore[call-arg]  # the game's expert, next in the MRO
        self.seen = {}

    def targets(self, seat: int) -> list[int]:
        """The seats whose hands a peek shows."""
        raise NotImplementedError

    def see(self, game: AnyGame, seat: int) -> None:
        """Before each of its turns, the play loop shows it the game: it keeps the hands its
        settings let it see, on the deals it peeks at, and nothing else."""
        self.seen = {}
        deal: Any = game.deal
        if deal is None or not self.peek or not peeks(tuple(deal.dealt), deal.dealer, self.peek):
            return
        self.seen = {s: deal.hand(s) for s in self.targets(seat)}


class BazarCheat(Peeker, BazarExpert):
    """Bazar Blot's cheat: sees its partner's hand, or with ``all=true`` all three others."""

    name = "cheat"
    SETTINGS: ClassVar[dict[str, Setting]] = {**BazarExpert.SETTINGS, **PEEK}

    def targets(self, seat: int) -> list[int]:
        return [s for s in range(4) if s != seat] if self.all == "true" else [(seat + 2) % 4]

    def knowledge(self, view: Any) -> Knowledge:
        k = super().knowledge(view)
        for s, hand in self.seen.items():
            k.known[s] = hand
            k.forbidden[s] = DECK32 & ~hand
        return k


class TfeCheat(Peeker, TfeExpert):
    """3-5-8's cheat: sees the next seat's hand, or with ``all=true`` both others' and the talon
    or discard pile."""

    name = "cheat"
    SETTINGS: ClassVar[dict[str, Setting]] = {**TfeExpert.SETTINGS, **PEEK}

    def targets(self, seat: int) -> list[int]:
        return [(seat + 1) % 3, (seat + 2) % 3] if self.all == "true" else [(seat + 1) % 3]

    def knowledge(self, deal: Any) -> TfeKnowledge:
        k = super().knowledge(deal)
        if not self.seen:
            return k
        for s, hand in self.seen.items():
            k.known[s] = hand
            k.forbidden[s] = DECK52 & ~hand
        if self.all == "true" and k.sizes[DISCARD]:
            rest = k.hidden
            for s in self.seen:
                rest &= ~self.seen[s]
            k.known[DISCARD] = rest
            k.forbidden[DISCARD] = DECK52 & ~rest
        return k


#: Each game's cheat, by game name.
