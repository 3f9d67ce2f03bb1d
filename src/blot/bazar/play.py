"""Which cards may be played (B-31 … B-33) and why a card may not, on int bitmasks.

A trick in progress is the list of its card indices; ``win_pos`` is the position in it of the
card winning so far. Tables come from :mod:`blot.bazar.tables`.
"""

from __future__ import annotations

from blot.bazar.tables import ABOVE, NT, TRUMP_MASKS
from blot.cards import CARDS, SUIT_MASKS, SUIT_NAMES
from blot.reasons import Reason


def legal_mask(hand: int, trick: list[int], win_pos: int, tix: int) -> int:
    """The cards of ``hand`` that may be played to ``trick`` in a deal of strain ``tix``."""
    n = len(trick)
    if not n:
        return hand
    led = trick[0] >> 4
    follow = hand & SUIT_MASKS[led]
    if tix == NT:
        return follow or hand  # B-31, B-33
    if follow:
        if led == tix:  # B-31: trump led, beat the highest trump when able
            return (follow & ABOVE[tix][trick[win_pos]]) or follow
        return follow
    trumps = hand & TRUMP_MASKS[tix]
    if not trumps:
        return hand  # B-33
    if n >= 2 and win_pos == n - 2:
        return hand  # B-32 (a): the partner is winning
    winner = trick[win_pos]
    if winner >> 4 == tix:  # B-32 (b)/(c): beat the trump in the trick, else anything
        return (trumps & ABOVE[tix][winner]) or hand
    return trumps  # B-32 (b): any trump beats every card in the trick


def refusal_reason(seat: int, hand: int, trick: list[int], win_pos: int, tix: int, card: int) -> Reason:
    """One sentence saying why the card at index ``card`` (held, not legal) may not be played."""
    led = trick[0] >> 4
    suit = SUIT_NAMES[led]
    if hand & SUIT_MASKS[led]:
        if led == tix and not (1 << card) & SUIT_MASKS[led]:
            return Reason("must_follow_trumps", seat=seat, lead=suit)
        if led == tix:
            best = CARDS[trick[win_pos]]
            return Reason("must_overtrump_follow", seat=seat, card=best)
        return Reason("must_follow", seat=seat, suit=suit, lead=suit)
    winner = trick[win_pos]
    if winner >> 4 == tix:
        return Reason("must_overtrump", seat=seat, lead=suit, card=CARDS[winner])
    return Reason("must_trump", seat=seat, lead=suit)


def trick_winner_pos(trick: list[int] | tuple[int, ...], keys: list[int]) -> int:
    """B-34: the position of the winning card, with the strength table ``KEY[tix]``."""
    led = trick[0] >> 4
    best = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if keys[c] > keys[trick[best]] and (c >> 4 == led or keys[c] >= 100):
            best = i
    return best
