"""The server's view of each game: how to start it, deal it, read an action from a message or
from the log, describe an action to each viewer, and turn a seat's view into JSON.

Nothing here decides a rule: every action goes through the engine's ``apply``, and every view
is built from the engine's own ``view(seat)``, which holds only what that seat may know. The
JSON shapes are the protocol of ``docs/protocol.md``; cards are always written one card per
JSON string (``"10H"``), never as bit sets, so that a test can scan the frames for cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from random import Random
from typing import Any, Final

from blot.cards import RANK_TEXT, Card, cards_of, format_cards, parse_card, parse_cards
from blot.errors import BlotError
from blot.server.errors import Refused

SUITS: Final = "SHDC"
#: The automatic move (turn timer, and the stand-in when a bot fails): documented in
#: docs/protocol.md. Cards are ranked lowest first by natural rank, then by suit S H D C.


def _lowest_card(legal: Iterable[Any]) -> Card:
    cards = [a for a in legal if isinstance(a, Card)]
    return min(cards, key=lambda c: (c.rank, int(c.suit)))


def cards_json(mask: int) -> list[str]:
    return [c.text for c in cards_of(mask)]


def _message_text(message: Mapping[str, Any]) -> str:
    action = message.get("action")
    if not isinstance(action, str) or not action.strip() or len(action) > 40:
        raise Refused("malformed", "an action message needs 'action', a call or a card in record notation")
    return action


class GameKind:
    """One game as the server drives it (subclassed per game)."""

    name: str = ""
    title: str = ""
    seats: int = 0

    # --- settings and dealing ------------------------------------------------------------------

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own settings (ruleset, options), checked; Refused when wrong."""
        raise NotImplementedError

    def info(self) -> dict[str, Any]:
        """What the lobby shows to create a table of this game."""
        raise NotImplementedError

    def new_game(self, settings: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def deal_payload(self, rng: Random) -> dict[str, Any]:
        """Freshly shuffled cards for the next deal, as the log stores them."""
        raise NotImplementedError

    def start_deal(self, game: Any, payload: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def needs_deal(self, game: Any) -> bool:
        return not game.is_over and (game.deal is None or game.deal.is_over)

    def deal_over(self, game: Any) -> bool:
        """The current deal is over (its result is on the table)."""
        return game.deal is not None and game.deal.is_over

    def trick_count(self, game: Any) -> int:
        raise NotImplementedError

    # --- actions -------------------------------------------------------------------------------

    def parse(self, game: Any, seat: int, message: Mapping[str, Any]) -> Any:
        """The engine action a client's message asks for (not yet checked by the rules)."""
        raise NotImplementedError

    def encode(self, game: Any, seat: int, action: Any) -> Any:
        """The action as the log stores it (JSON), taken before it is applied."""
        return str(action)

    def decode(self, game: Any, seat: int, stored: Any) -> Any:
        raise NotImplementedError

    def phase(self, game: Any) -> str:
        """The phase of the current deal, as the views name it (``deal`` before the first)."""
        raise NotImplementedError

    def describe(
        self, game: Any, seat: int, action: Any, before: str
    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """After ``action`` was applied: what everybody hears, and what only some seats see."""
        raise NotImplementedError

    def auto_action(self, game: Any) -> Any:
        raise NotImplementedError

    # --- views ---------------------------------------------------------------------------------

    def view(self, game: Any, seat: int | None) -> dict[str, Any] | None:
        """``seat``'s view as JSON, or the public view for ``None`` (spectators)."""
        raise NotImplementedError

    def record(self, game: Any, players: list[str]) -> dict[str, Any]:
        raise NotImplementedError

    def summary(self, game: Any) -> dict[str, Any]:
        """The result of a finished game, for listings."""
        raise NotImplementedError

    def frame(self, game: Any) -> dict[str, Any]:
        """The whole state, every hand visible, for the replay of a finished game."""
        raise NotImplementedError


# ------------------------------------------------------------------------------------------------
# Bazar Blot


class BazarKind(GameKind):
    name = "bazar-blot"
    title = "Bazar Blot"
    seats = 4

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        from blot.bazar import Rules

        try:
            rules = Rules.from_record(raw.get("ruleset", "league"), raw.get("options") or {})
        except BlotError as e:
            raise Refused("malformed", str(e)) from None
        return {"ruleset": rules.ruleset, "options": rules.options()}

    def info(self) -> dict[str, Any]:
        from blot.bazar import Rules

        return {
            "game": self.name,
            "title": self.title,
            "seats": self.seats,
            "rulesets": ["league", "classic"],
            "options": Rules().options(),
        }

    def new_game(self, settings: Mapping[str, Any]) -> Any:
        from blot.bazar import Game, Rules

        rules = Rules.from_record(settings.get("ruleset", "league"), settings.get("options") or {})
        return Game(rules, dealer=3)  # seat 0 speaks and leads first

    def deal_payload(self, rng: Random) -> dict[str, Any]:
        from blot.bazar import random_hands

        return {"hands": [format_cards(h) for h in random_hands(rng)]}

    def start_deal(self, game: Any, payload: Mapping[str, Any]) -> None:
        game.start_deal([parse_cards(text) for text in payload["hands"]])

    def trick_count(self, game: Any) -> int:
        return 0 if game.deal is None else len(game.deal.winners)

    def parse(self, game: Any, seat: int, message: Mapping[str, Any]) -> Any:
        if "declare" in message:
            return self._declare(game, seat, message["declare"])
        return self._text(game, _message_text(message))

    def _text(self, game: Any, text: str) -> Any:
        """A call while the bidding lasts, else a card: ``8H`` and ``10S`` are both bids and
        cards, so the phase decides how the text is read."""
        from blot.bazar import Phase, parse_call

        bidding = game.deal is not None and game.deal.phase is Phase.BIDDING
        try:
            return parse_call(text) if bidding else parse_card(text)
        except BlotError:
            pass
        try:
            return parse_card(text) if bidding else parse_call(text)
        except BlotError:
            raise Refused("illegal", f"{text.strip()!r} is neither a call nor a card") from None

    def _declare(self, game: Any, seat: int, choice: Any) -> Any:
        from blot.bazar.declarations import DECLARE_NONE

        deal = game.deal
        if deal is None or not deal.must_declare or deal.to_act != seat:
            raise Refused(
                "illegal", "declarations are made in the first trick, at one's own turn, before the card"
            )
        if choice == "best":
            return deal.best_declare(seat)
        if choice == "none":
            return DECLARE_NONE
        if not isinstance(choice, list) or not all(isinstance(t, str) for t in choice) or len(choice) > 8:
            raise Refused("malformed", "'declare' is best, none, or a list of declarations written as cards")
        try:
            masks = sorted(parse_cards(t) for t in choice)
        except BlotError as e:
            raise Refused("illegal", str(e)) from None
        for option in deal.options[seat]:
            if sorted(d.mask for d in option.declarations) == masks:
                return option
        raise Refused("illegal", "that is not a set of declarations this hand may declare (B-43)")

    def encode(self, game: Any, seat: int, action: Any) -> Any:
        from blot.bazar.declarations import Declare

        if isinstance(action, Declare):
            return {"declare": action.texts}
        return str(action)

    def decode(self, game: Any, seat: int, stored: Any) -> Any:
        if isinstance(stored, dict):
            return self._declare(game, seat, stored["declare"])
        return self._text(game, stored)

    def phase(self, game: Any) -> str:
        return "deal" if game.deal is None else str(game.deal.phase.value)

    def describe(
        self, game: Any, seat: int, action: Any, before: str
    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        from blot.bazar import Call
        from blot.bazar.declarations import Declare

        if isinstance(action, Declare):
            said = [{"kind": d.kind, "rank": RANK_TEXT[d.rank]} for d in action.declarations]
            return {"kind": "declare", "seat": seat, "declare": said}, {}
        if isinstance(action, Call):
            return {"kind": "call", "seat": seat, "action": str(action)}, {}
        deal = game.deal
        event: dict[str, Any] = {"kind": "card", "seat": seat, "action": str(action)}
        if deal.belotes and deal.belotes[-1] == (seat, action):
            event["belote"] = "belote" if len(deal.belotes) == 1 else "rebelote"
        if not deal.trick and deal.winners:
            event["trick_winner"] = deal.winners[-1]
        return event, {}

    def auto_action(self, game: Any) -> Any:
        from blot.bazar import PASS

        deal = game.deal
        legal = deal.legal_actions()
        if PASS in legal:
            return PASS
        if deal.must_declare:
            return deal.best_declare(deal.to_act)
        if any(isinstance(a, Card) for a in legal):
            return _lowest_card(legal)
        return legal[0]

    def view(self, game: Any, seat: int | None) -> dict[str, Any] | None:
        if game.deal is None:
            return None
        from blot.bazar import Call
        from blot.bazar.declarations import Declare

        v = game.view(0 if seat is None else seat)
        deal = game.deal
        played = [0, 0, 0, 0]
        for t in v.tricks:
            for i in range(4):
                played[t.seat_of(i)] += 1
        for s, _ in v.trick_seats():
            played[s] += 1
        legal: dict[str, Any] | None = None
        if seat is not None and v.legal:
            first = v.legal[0]
            if isinstance(first, Call):
                legal = {"kind": "call", "calls": [str(a) for a in v.legal]}
            elif isinstance(first, Declare):
                legal = {
                    "kind": "declare",
                    "options": [a.texts for a in v.legal],
                    "best": deal.best_declare(seat).texts,
                }
            else:
                legal = {"kind": "card", "cards": [str(a) for a in v.legal]}
        c = v.contract
        own = None
        if seat is not None and v.own_declarations is not None:
            own = [d.cards_text.split() for d in v.own_declarations]
        return {
            "game": self.name,
            "seat": seat,
            "deal_number": v.deal_number,
            "phase": v.phase.value,
            "to_act": v.to_act,
            "dealer": v.dealer,
            "hand": None if seat is None else cards_json(v.hand),
            "hand_sizes": [8 - p for p in played],
            "calls": [{"seat": s, "call": str(call)} for s, call in v.calls],
            "contract": None if c is None else c.to_json(),
            "trump": None if c is None else c.strain,
            "must_declare": seat is not None and v.must_declare,
            "own_declarations": own,
            "announced": [{"seat": a.seat, "kind": a.kind, "rank": RANK_TEXT[a.rank]} for a in v.announced],
            "shown": [
                {
                    "seat": s,
                    "kind": d.kind,
                    "rank": RANK_TEXT[d.rank],
                    "suit": None if d.suit is None else SUITS[d.suit],
                }
                for s, d in v.shown
            ],
            "declarations_team": v.declarations_team,
            "trick": [{"seat": s, "card": card.text} for s, card in v.trick_seats()],
            "tricks": [
                {"leader": t.leader, "cards": [x.text for x in t.cards], "winner": t.winner} for t in v.tricks
            ],
            "tricks_won": list(v.tricks_won),
            "card_points": list(v.card_points),
            "belotes": [{"seat": s, "card": card.text} for s, card in v.belotes],
            "legal": legal,
            "result": None if v.result is None else _bazar_result(v.result),
            "history": [_bazar_result(r) for r in v.history],
            "totals": list(v.totals),
            "game_over": None
            if not game.is_over
            else {
                "winner": game.winner,
                "match_score": game.match_score,
                "tars_kapoot": game.tars_kapoot,
                "totals": list(game.totals),
            },
        }

    def record(self, game: Any, players: list[str]) -> dict[str, Any]:
        from blot.records.bazar import record_of

        return record_of(game, players)

    def summary(self, game: Any) -> dict[str, Any]:
        return {
            "totals": list(game.totals),
            "winner": game.winner,
            "match_score": game.match_score,
            "deals": len(game.deals),
        }

    def frame(self, game: Any) -> dict[str, Any]:
        deal = game.deal
        c = deal.contract
        return {
            "phase": deal.phase.value,
            "to_act": deal.to_act,
            "hands": [cards_json(h) for h in deal.hands],
            "trick": [
                {"seat": (deal.leader + i) % 4, "card": card.text} for i, card in enumerate(_trick(deal))
            ],
            "contract": None
            if c is None
            else f"{c.level}{c.strain}" + {1: "", 2: "×2", 4: "×4"}[c.multiplier],
            "declarer": None if c is None else c.declarer,
            "tricks": list(deal.team_tricks),
            "card_points": list(deal.card_points),
            "result": None if deal.result is None else _bazar_result(deal.result),
            "totals": list(game.totals),
        }


def _trick(deal: Any) -> list[Card]:
    n = len(deal.trick)
    return list(deal.play[len(deal.play) - n :]) if n else []


def _bazar_result(r: Any) -> dict[str, Any]:
    out = r.to_json()
    out["tars_kapoot"] = r.tars_kapoot
    return dict(out)


# ------------------------------------------------------------------------------------------------
# 3-5-8


class TfeKind(GameKind):
    name = "3-5-8"
    title = "3-5-8"
    seats = 3

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        ruleset = raw.get("ruleset") or "standard"
        options = raw.get("options") or {}
        if ruleset != "standard" or options:
            raise Refused("malformed", "3-5-8 has one ruleset (standard) and no options")
        return {"ruleset": "standard", "options": {}}

    def info(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "title": self.title,
            "seats": self.seats,
            "rulesets": ["standard"],
            "options": {},
        }

    def new_game(self, settings: Mapping[str, Any]) -> Any:
        from blot.three_five_eight import Game

        return Game(dealer=2)  # seat 0 has the target 8, takes the talon and leads first

    def deal_payload(self, rng: Random) -> dict[str, Any]:
        from blot.three_five_eight import random_cards

        hands, talon = random_cards(rng)
        return {"hands": [format_cards(h) for h in hands], "talon": format_cards(talon)}

    def start_deal(self, game: Any, payload: Mapping[str, Any]) -> None:
        game.start_deal(list(payload["hands"]), payload["talon"])

    def trick_count(self, game: Any) -> int:
        return 0 if game.deal is None else len(game.deal.plays) // 3

    def parse(self, game: Any, seat: int, message: Mapping[str, Any]) -> Any:
        return self.decode(game, seat, _message_text(message))

    def decode(self, game: Any, seat: int, stored: Any) -> Any:
        from blot.three_five_eight import parse_action

        try:
            return parse_action(stored)
        except BlotError as e:
            raise Refused("illegal", str(e)) from None

    def phase(self, game: Any) -> str:
        return "deal" if game.deal is None else str(game.deal.phase.value)

    def describe(
        self, game: Any, seat: int, action: Any, before: str
    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        deal = game.deals[-1]
        if before == "call":
            return {"kind": "call", "seat": seat, "action": str(action)}, {}
        if before == "exchange":
            e = deal.exchanges[-1]
            secret = {"action": str(e.gift), "returned": str(e.returned)}
            public = {"kind": "give", "seat": seat, "to": e.receiver, "action": None, "returned": None}
            return public, {seat: secret, e.receiver: secret}
        if before == "discard":
            return {"kind": "discard", "seat": seat, "action": None}, {seat: {"action": str(action)}}
        event: dict[str, Any] = {"kind": "card", "seat": seat, "action": str(action)}
        if len(deal.plays) % 3 == 0:
            event["trick_winner"] = deal.tricks[-1].winner
        return event, {}

    def auto_action(self, game: Any) -> Any:
        from blot.three_five_eight import PASS

        legal = game.legal_actions()
        if PASS in legal:
            return PASS
        if any(isinstance(a, Card) for a in legal):
            return _lowest_card(legal)
        return legal[0]

    def view(self, game: Any, seat: int | None) -> dict[str, Any] | None:
        if game.deal is None:
            return None
        from blot.three_five_eight import Phase

        g = game.view(0 if seat is None else seat)
        d = g.deal
        first = (d.dealer + 1) % 3
        legal: dict[str, Any] | None = None
        if seat is not None and g.legal:
            if d.phase is Phase.CALL:
                legal = {"kind": "call", "calls": [str(a) for a in g.legal]}
            elif d.phase is Phase.EXCHANGE:
                receiver = d.plan[len(d.exchanges)][1]
                legal = {"kind": "give", "cards": [str(a) for a in g.legal], "to": receiver}
            elif d.phase is Phase.DISCARD:
                left = 4 - (0 if d.discard is None else d.discard.bit_count())
                legal = {"kind": "discard", "cards": [str(a) for a in g.legal], "left": left}
            else:
                legal = {"kind": "card", "cards": [str(a) for a in g.legal]}
        private = seat is not None
        return {
            "game": self.name,
            "seat": seat,
            "deal_number": len(game.deals),
            "counted": g.counted,
            "phase": d.phase.value,
            "to_act": d.to_act,
            "dealer": d.dealer,
            "targets": list(d.targets),
            "hand": cards_json(d.hand) if private else None,
            "hand_sizes": list(d.hand_sizes),
            "may_pass": list(d.may_pass),
            "calls": [{"seat": (first + i) % 3, "call": str(c)} for i, c in enumerate(d.calls)],
            "trump": None if d.trump is None else str(d.trump),
            "caller": d.caller,
            "plan": [{"giver": a, "receiver": b} for a, b in d.plan],
            "exchanges": [
                {
                    "giver": e.giver,
                    "receiver": e.receiver,
                    "gift": None if e.gift is None or not private else e.gift.text,
                    "returned": None if e.returned is None or not private else e.returned.text,
                }
                for e in d.exchanges
            ],
            "talon": None if d.talon is None else cards_json(d.talon),
            "discard": None if d.discard is None or not private else cards_json(d.discard),
            "trick": [{"seat": s, "card": card.text} for s, card in d.trick],
            "tricks": [
                {"leader": t.leader, "cards": [x.text for x in t.cards], "winner": t.winner} for t in d.tricks
            ],
            "tricks_taken": list(d.tricks_taken),
            "legal": legal,
            "result": None if not game.deals[-1].is_over else game.deals[-1].result.to_json(),
            "history": [r.to_json() for r in g.results if r is not game.deals[-1].result],
            "totals": list(g.totals),
            "game_over": None if not g.finished else {"winner": g.winner, "totals": list(g.totals)},
        }

    def record(self, game: Any, players: list[str]) -> dict[str, Any]:
        from blot.records.three_five_eight import record_of

        return record_of(game, players)

    def summary(self, game: Any) -> dict[str, Any]:
        return {"totals": list(game.totals), "winner": game.winner, "deals": len(game.deals)}

    def frame(self, game: Any) -> dict[str, Any]:
        deal = game.deals[-1]
        return {
            "phase": deal.phase.value,
            "to_act": deal.to_act,
            "hands": [cards_json(h) for h in deal.hands],
            "trick": [{"seat": s, "card": card.text} for s, card in deal.trick],
            "trump": None if deal.trump is None else str(deal.trump),
            "targets": list(deal.targets),
            "tricks": list(deal.tricks_taken),
            "talon": cards_json(deal.talon),
            "discard": [c.text for c in deal.discard],
            "exchanges": [
                {"giver": e.giver, "receiver": e.receiver, "gift": str(e.gift), "returned": str(e.returned)}
                for e in deal.exchanges
            ],
            "result": None if deal.result is None else deal.result.to_json(),
            "totals": list(game.totals),
        }


KINDS: Final[dict[str, GameKind]] = {k.name: k for k in (BazarKind(), TfeKind())}


def kind_of(game: str) -> GameKind:
    try:
        return KINDS[game]
    except KeyError:
        raise Refused("malformed", f"unknown game {game!r}: use bazar-blot or 3-5-8") from None


def bot_levels(game: str) -> list[str]:
    """The bots that can be seated at a table of ``game`` (those whose module is installed)."""
    from importlib.util import find_spec

    from blot.bots import REGISTRY

    out = []
    for name, target in sorted(REGISTRY.get(game, {}).items()):
        module = target.partition(":")[0]
        try:
            if find_spec(module) is not None:
                out.append(name)
        except ModuleNotFoundError:
            continue
    return out
