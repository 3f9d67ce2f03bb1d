"""The 3-5-8 expert's played-out choices (trump call, gifts, discard: :mod:`blot.bots.tfe_rollout`)
make their discard (T-22) and play their cards through the compiled ``heuristic`` play-outs (issue
44 item 1): every played-out deal scores exactly what the Python ``heuristic`` bots playing it
would score (T-40), so the expert's choices are unchanged."""

from __future__ import annotations

from random import Random
from typing import Any, cast

from blot.bots import make_bot, tfe_rollout
from blot.bots.tfe_heuristic import HeuristicBot
from blot.game import View
from blot.games import spec
from blot.three_five_eight import Deal, Game, random_deal


def python_played_out(deal: Deal, players: list[HeuristicBot], me: int) -> int:
    """The deal played to its end by the Python bots, every step of it (as before the change)."""
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        deal.apply(players[seat].choose(cast(View, deal.view(seat))))
    return deal.scores[me]


def experts_choices(games: int, seed: int) -> list[str]:
    """The experts' actions up to the play in seeded games of two deals (the second has an
    exchange)."""
    game = spec("3-5-8")
    rng = Random(seed)
    actions: list[str] = []
    for number in range(games):
        state = game.new_game(dealer=number % 3)
        assert isinstance(state, Game)
        bots = [make_bot(game, "expert:call_samples=6", Random(number * 10 + s)) for s in range(3)]
        players = [make_bot(game, "heuristic", Random(s)) for s in range(3)]
        for _ in range(2):
            state.start_deal(random_deal(rng))
            deal = state.deal
            assert deal is not None
            while not deal.is_over:
                seat = state.to_act
                assert seat is not None
                if deal.phase.name == "PLAY":  # the cards by a cheap player: only the choices count
                    state.apply(players[seat].choose(state.view(seat)))
                    continue
                action = bots[seat].choose(state.view(seat))
                actions.append(f"{seat}:{action}")
                state.apply(action)
    return actions


def test_issue44_the_experts_played_out_choices_are_the_same_with_the_compiled_play(monkeypatch: Any) -> None:
    compiled = tfe_rollout.played_out
    seen: dict[str, list[int]] = {"compiled": [], "python": []}

    def spy(name: str, played: Any) -> Any:
        def score(deal: Deal, players: list[HeuristicBot], me: int) -> int:
            result = int(played(deal, players, me))
            seen[name].append(result)
            return result

        return score

    monkeypatch.setattr(tfe_rollout, "played_out", spy("compiled", compiled))
    ours = experts_choices(3, seed=8)
    monkeypatch.setattr(tfe_rollout, "played_out", spy("python", python_played_out))
    theirs = experts_choices(3, seed=8)
    assert len(seen["compiled"]) > 100
    assert seen["compiled"] == seen["python"]
    assert ours == theirs


def test_issue44_a_deal_played_out_from_its_call_scores_as_the_python_bots_play_it() -> None:
    """From just after the trump call: the discard (T-22) by the Python bots, then the card play
    compiled; the seat's score (T-40) is the one the Python bots' whole play gives, for every
    seat of 60 seeded deals."""
    rng = Random(12)
    for _ in range(60):
        deal = Deal.random(rng, dealer=rng.randrange(3))
        deal.apply(rng.choice([a for a in deal.legal_actions() if str(a) != "pass"]))
        players = [HeuristicBot(Random(s)) for s in range(3)]
        for me in range(3):
            assert tfe_rollout.played_out(deal.copy(), players, me) == python_played_out(
                deal.copy(), players, me
            )
