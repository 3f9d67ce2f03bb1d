#!/usr/bin/env python3
"""A bot of the blot bot protocol (docs/bot-protocol.md) with one simple rule per decision:

- a call: name the suit it holds most of (Bazar Blot: the lowest bid in it, with four cards or
  more; else pass);
- Bazar Blot's declarations: the best set, as the view offers it;
- a card to give or discard (3-5-8): the weakest; a card to play: the strongest. Any trump is
  stronger than any other card; then the game's order decides: in Bazar Blot trumps rank
  J 9 A 10 K Q 8 7 and the other suits A 10 K Q J 9 8 7, in 3-5-8 every suit A K Q … 2.

    blot arena --a "cmd:python3 examples/bots/rule_bot.py" --b random --deals 20
"""

import json
import sys

# Each order from weakest to strongest.
NATURAL = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
BAZAR_PLAIN = ["7", "8", "9", "J", "Q", "K", "10", "A"]
BAZAR_TRUMP = ["7", "8", "Q", "K", "10", "A", "9", "J"]


def strength(card, view):
    rank, trump = card[:-1], card[-1] == view["trump"]
    if view["game"] == "3-5-8":
        return trump, NATURAL.index(rank)
    return trump, (BAZAR_TRUMP if trump else BAZAR_PLAIN).index(rank)


def choose(view, legal):
    offer = view["legal"]
    if offer["kind"] == "call":
        count = {suit: sum(card[-1] == suit for card in view["hand"]) for suit in "SHDC"}
        suit = max("SHDC", key=count.get)
        if suit in legal:  # 3-5-8: the first strain named is trump
            return suit
        bids = [a for a in legal if a[:-1].isdigit() and a[-1] == suit]
        if bids and count[suit] >= 4:
            return min(bids, key=lambda a: int(a[:-1]))
        return "pass" if "pass" in legal else legal[0]
    if offer["kind"] == "declare":
        return {"declare": offer["best"]}
    pick = min if offer["kind"] in ("give", "discard") else max
    return pick(legal, key=lambda card: strength(card, view))


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        hello = {"type": "hello", "protocol": 1, "name": "rule (Python)", "author": "blot examples"}
        send({**hello, "games": ["bazar-blot", "3-5-8"]})
    elif message["type"] == "act":
        send({"type": "action", "id": message["id"], "action": choose(message["view"], message["legal"])})
    elif message["type"] == "bye":
        break
