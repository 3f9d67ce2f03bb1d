"""A reference model of 3-5-8, written again from the rule text (docs/rules.md T-1 … T-50) and
nothing else, so that properties can check the engine against an independent reading rather
than against itself. It is slow and plain on purpose: cards are their text (``10H``), hands are
sets of text, and every rule is one small function named after its rule id.

It is driven beside the engine: the engine deals (:meth:`RefGame.deal` takes the same cards),
and both are given the same actions in record notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: T-1: strength, low to high, in every suit.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
#: T-10: the strains a seat may name.
STRAINS = ["S", "H", "D", "C", "NT"]
SEATS = 3
#: T-50: a game is nine counted deals.
COUNTED_DEALS = 9


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def targets(dealer: int) -> list[int]:
    """T-3: the seat after the dealer 8, the seat after him 5, the dealer 3."""
    out = [0, 0, 0]
    out[(dealer + 1) % SEATS] = 8
    out[(dealer + 2) % SEATS] = 5
    out[dealer] = 3
    return out


def exchange_plan(previous: RefResult | None) -> list[tuple[int, int]]:
    """T-20: (giver, receiver) card by card after the previous counted deal. Every trick above
    target is one card given, every trick below one card received; plus players with the higher
    previous target give first, minus players with the higher previous target receive first."""
    if previous is None:
        return []
    by_target = sorted(range(SEATS), key=lambda s: previous.targets[s], reverse=True)
    givers = [s for s in by_target for _ in range(max(0, previous.scores[s]))]
    receivers = [s for s in by_target for _ in range(max(0, -previous.scores[s]))]
    assert len(givers) == len(receivers), "T-40: the scores add up to 0"
    return list(zip(givers, receivers, strict=True))


def returned_card(receiver_hand: set[str], gift: str) -> str:
    """T-21: the strongest card of the gift's suit the receiver holds, if it is stronger than
    the gift; otherwise the gift itself."""
    same = [c for c in receiver_hand if suit(c) == suit(gift) and rank(c) > rank(gift)]
    return max(same, key=rank) if same else gift


def legal_cards(hand: set[str], trick: list[str], trump: str | None) -> set[str]:
    """T-31 … T-33: the cards a seat holding ``hand`` may add to ``trick`` (the cards already
    played, in order)."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    trumps_in_trick = [rank(c) for c in trick if suit(c) == trump]
    of_led = {c for c in hand if suit(c) == led}
    if of_led:
        if led == trump:  # T-31: a stronger trump than every trump in the trick when held
            stronger = {c for c in of_led if all(rank(c) > r for r in trumps_in_trick)}
            return stronger or of_led
        return of_led
    my_trumps = {c for c in hand if suit(c) == trump}
    if not my_trumps:  # T-33 (an NT deal has no trumps)
        return set(hand)
    if not trumps_in_trick:  # T-32: must trump
        return my_trumps
    stronger = {c for c in my_trumps if rank(c) > max(trumps_in_trick)}
    return stronger or set(hand)  # T-32: a stronger trump when held, else any card


def trick_winner(trick: list[str], trump: str | None) -> int:
    """T-34: the position of the highest trump, or with none the highest card of the suit led."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: rank(trick[i]))
    led = suit(trick[0])
    return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: rank(trick[i]))


@dataclass
class RefResult:
    dealer: int
    void: bool
    trump: str | None
    targets: list[int]
    tricks: list[int]
    scores: list[int]
    trick_winners: list[int]


@dataclass
class RefDeal:
    """One deal: T-2 cards, T-10 calls, T-20/T-21 exchange, T-22 talon and discard, T-30 … T-34
    tricks, T-40 scores."""

    dealer: int
    hands: list[set[str]]
    talon: set[str]
    may_pass: list[bool]
    plan: list[tuple[int, int]]
    phase: str = "call"
    to_act: int | None = None
    trump: str | None = None
    calls: int = 0
    exchanged: list[tuple[int, int, str, str]] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    trick: list[str] = field(default_factory=list)
    leader: int = 0
    taken: list[int] = field(default_factory=lambda: [0, 0, 0])
    winners: list[int] = field(default_factory=list)
    result: RefResult | None = None

    def __post_init__(self) -> None:
        assert all(len(h) == 16 for h in self.hands) and len(self.talon) == 4  # T-2
        self.to_act = self.first

    @property
    def first(self) -> int:
        return (self.dealer + 1) % SEATS

    def legal(self) -> set[str]:
        """What the seat to act may do, in record notation."""
        seat = self.to_act
        if seat is None:
            return set()
        if self.phase == "call":  # T-10: a strain, or pass once in the whole game
            return set(STRAINS) | ({"pass"} if self.may_pass[seat] else set())
        if self.phase in ("exchange", "discard"):  # T-20: any card to give; T-22: any 4 to put back
            return set(self.hands[seat])
        return legal_cards(self.hands[seat], self.trick, None if self.trump == "NT" else self.trump)

    def apply(self, action: str) -> None:
        assert action in self.legal(), (action, self.phase, self.to_act)
        seat = self.to_act
        assert seat is not None
        if self.phase == "call":
            self._call(seat, action)
        elif self.phase == "exchange":
            self._give(seat, action)
        elif self.phase == "discard":
            self.hands[seat].remove(action)
            self.discarded.append(action)
            if len(self.discarded) == 4:
                self.phase = "play"  # T-30: the 8-target player leads
        else:
            self._play(seat, action)

    def _call(self, seat: int, action: str) -> None:
        self.calls += 1
        if action == "pass":
            self.may_pass[seat] = False
            if self.calls == 3:  # T-10: all three passed, the deal is void
                self.phase, self.to_act = "over", None
                self.result = RefResult(
                    self.dealer, True, None, targets(self.dealer), [0, 0, 0], [0, 0, 0], []
                )
            else:
                self.to_act = (seat + 1) % SEATS
            return
        self.trump = action  # T-10: the first strain named
        if action == "NT":  # T-20: never an exchange after NT
            self.plan = []
        if self.plan:
            self.phase, self.to_act = "exchange", self.plan[0][0]
        else:
            self._show_talon()

    def _give(self, giver: int, gift: str) -> None:
        receiver = self.plan[len(self.exchanged)][1]
        self.hands[giver].remove(gift)
        back = returned_card(self.hands[receiver], gift)  # T-21
        self.hands[receiver].add(gift)
        self.hands[receiver].remove(back)
        self.hands[giver].add(back)
        self.exchanged.append((giver, receiver, gift, back))
        if len(self.exchanged) == len(self.plan):
            self._show_talon()
        else:
            self.to_act = self.plan[len(self.exchanged)][0]

    def _show_talon(self) -> None:
        """T-22: the talon is shown and the 8-target player takes it, then puts back four."""
        self.hands[self.first] |= self.talon
        self.phase, self.to_act = "discard", self.first
        self.leader = self.first

    def _play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < SEATS:
            self.to_act = (seat + 1) % SEATS
            return
        winner = (self.leader + trick_winner(self.trick, None if self.trump == "NT" else self.trump)) % SEATS
        self.taken[winner] += 1
        self.winners.append(winner)
        self.trick, self.leader, self.to_act = [], winner, winner  # T-30: the winner leads
        if len(self.winners) == 16:
            t = targets(self.dealer)
            scores = [self.taken[s] - t[s] for s in range(SEATS)]  # T-40
            self.phase, self.to_act = "over", None
            self.result = RefResult(self.dealer, False, self.trump, t, list(self.taken), scores, self.winners)


@dataclass
class RefGame:
    """A game: deals until nine are counted (T-50), the dealer moving on after a counted deal
    and dealing again after a void one (T-2, T-10), each seat's one pass (T-10)."""

    dealer: int
    may_pass: list[bool] = field(default_factory=lambda: [True, True, True])
    results: list[RefResult] = field(default_factory=list)
    deal: RefDeal | None = None

    @property
    def counted(self) -> list[RefResult]:
        return [r for r in self.results if not r.void]

    @property
    def is_over(self) -> bool:
        return len(self.counted) >= COUNTED_DEALS

    @property
    def totals(self) -> list[int]:
        return [sum(r.scores[s] for r in self.counted) for s in range(SEATS)]

    def start_deal(self, hands: list[set[str]], talon: set[str]) -> None:
        assert not self.is_over and (self.deal is None or self.deal.phase == "over")
        previous = self.counted[-1] if self.counted else None
        self.deal = RefDeal(
            self.dealer, [set(h) for h in hands], set(talon), self.may_pass, exchange_plan(previous)
        )

    def apply(self, action: str) -> None:
        deal = self.deal
        assert deal is not None
        deal.apply(action)
        if deal.result is not None:
            self.results.append(deal.result)
            if not deal.result.void:
                self.dealer = (self.dealer + 1) % SEATS

    def winner(self) -> int:
        """T-50: the highest total; tied leaders by more points in the last deal, then by who
        won the latest trick of the last deal."""
        totals = self.totals
        tied = [s for s in range(SEATS) if totals[s] == max(totals)]
        last = self.counted[-1]
        best_last = max(last.scores[s] for s in tied)
        tied = [s for s in tied if last.scores[s] == best_last]
        for seat in reversed(last.trick_winners):
            if seat in tied:
                return seat
        return tied[0]
