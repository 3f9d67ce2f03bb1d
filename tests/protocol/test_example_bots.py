"""Issue 23, item 8: the rule example bots (examples/bots/rule_bot.py, rule.js) rank cards as each
game does. They ranked every card 2 … A, so in a Bazar Blot trump they played the ace over the
jack (B-10: trumps J 9 A 10 K Q 8 7, other suits A 10 K Q J 9 8 7; 3-5-8: A … 2, T-1).

Whole games are played with the example bot in every seat, and every card it plays, gives or
discards is checked against the engines' own orders: the strongest legal card to play (any trump
above any other card), the weakest to give or discard."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from random import Random

import pytest

from blot.bazar.tables import PLAIN_ORDER, TRUMP_ORDER
from blot.bots.external import ExternalBot
from blot.cards import Card
from blot.games import names, spec

from .test_protocol import JS, PY, need_node

BAZAR, TFE = names()


def strength(game: str, card: Card, trump: str | None) -> tuple[bool, int]:
    """How strong ``card`` is in a trick of this deal (``trump``: the view's, a suit letter, NT
    or null): any trump above any other card, then the game's rank order."""
    is_trump = str(card.suit) == trump
    if game == TFE:
        return is_trump, card.rank  # T-1: A K Q … 2 in every suit
    return is_trump, (TRUMP_ORDER if is_trump else PLAIN_ORDER).index(card.rank)  # B-10


@pytest.mark.parametrize("game", names())
@pytest.mark.parametrize("language", ["python", "javascript"])
def test_the_rule_bots_play_their_strongest_card_and_give_their_weakest(
    game: str, language: str, bot_log: Path
) -> None:
    if language == "javascript":
        need_node()
    command = (PY if language == "python" else JS)["rule"]
    game_spec = spec(game)
    wire = game_spec.wire_module()
    kinds: Counter[str] = Counter()
    jack_over_ace = 0
    for seed in range(2):
        state = game_spec.new_game(rng=Random(seed))
        bots = [ExternalBot(game_spec, command.removeprefix("cmd:")) for _ in range(game_spec.seats)]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            shown = wire.view_json(view)
            assert shown is not None
            action = bots[seat].choose(view)
            kind = shown["legal"]["kind"]
            if kind in ("card", "give", "discard"):
                legal = [a for a in view.legal if isinstance(a, Card)]
                assert isinstance(action, Card)

                def key(card: Card, trump: str | None = shown["trump"]) -> tuple[bool, int]:
                    return strength(game, card, trump)

                expected = min(legal, key=key) if kind in ("give", "discard") else max(legal, key=key)
                assert key(action) == key(expected), (kind, shown["trump"], [str(c) for c in legal], action)
                kinds[kind] += 1
                trumps = {c.text for c in legal if str(c.suit) == shown["trump"]}
                if (
                    game == BAZAR
                    and kind == "card"
                    and {"J" + shown["trump"], "A" + shown["trump"]} <= trumps
                ):
                    assert action.text == "J" + shown["trump"]
                    jack_over_ace += 1
            state.apply(action)
        for seat, bot in enumerate(bots):
            bot.end(state.view(seat))
    assert kinds["card"] > 200
    if game == BAZAR:
        assert jack_over_ace > 0  # the case the old ranking got wrong came up and was played right
    else:
        assert kinds["discard"] >= 4 and kinds["give"] > 0
