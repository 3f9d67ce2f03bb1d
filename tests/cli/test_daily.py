"""``blot daily`` (issue 45 item 5): the day's deals of a running server played in the terminal —
a guest starts the day's set, answers each turn with a number (the first choice), and the
command prints the day's results with the player's rank, the par line and the deal's traveller;
a second run of the same player is told the set is played and shown the results again."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from blot.cli.daily import choices, pick, run
from blot.errors import BlotError


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``blot serve`` in a thread: the day's deals of one deal per game, random bots, no pauses."""
    import uvicorn

    from blot.server.app import create_app, uvicorn_config
    from blot.server.config import ServerConfig

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    config = ServerConfig(
        db_url=f"sqlite:///{tmp_path / 'blot.sqlite3'}",
        bot_delay=0.0,
        trick_pause=0.0,
        deal_pause=0.0,
        password_profile="CHEAPEST",
        daily_deals={"bazar-blot": 1, "3-5-8": 1},
        daily_bots="random",
    )
    live = uvicorn.Server(uvicorn_config(create_app(config), config, host="127.0.0.1", port=port))
    thread = threading.Thread(target=live.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not live.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    live.should_exit = True
    thread.join(timeout=20)


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_item5_blot_daily_plays_the_days_set_and_prints_the_results(server: str, game: str) -> None:
    said: list[str] = []
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "1"

    run(server, game, None, "Ani", None, ask=ask, say=said.append)
    text = "\n".join(said)
    assert asked, "the player was asked nothing"
    assert "Your hand:" in text and "1)" in text
    assert "  1. Ani: " in text and "<- you" in text  # ranked first of one
    assert "par (the bots):" in text
    assert "Deal 1: Ani " in text
    token = said[0].split("--token ", 1)[1].rstrip(").")
    again: list[str] = []
    run(server, game, None, "Ani", token, ask=ask, say=again.append)  # played: the results only
    assert "Your hand:" not in "\n".join(again) and "<- you" in "\n".join(again)


def test_a_set_the_server_does_not_offer_is_one_sentence(server: str) -> None:
    with pytest.raises(BlotError, match="offers no such set"):
        run(server, "no-such-game", None, "Ani", None, ask=lambda p: "1", say=lambda s: None)


def test_a_choice_is_its_number_or_the_call_or_card_itself() -> None:
    calls = choices({"kind": "call", "calls": ["pass", "8S", "8H"]})
    assert pick("2", calls) == {"action": "8S"} and pick("8h", calls) == {"action": "8H"}
    assert pick("9", calls) is None and pick("contra", calls) is None
    declare = choices({"kind": "declare", "options": [[], ["AS KS QS"]], "best": ["AS KS QS"]})
    assert [m for _, m in declare] == [{"declare": "best"}, {"declare": "none"}]
    assert choices({"kind": "discard", "cards": ["7H"], "left": 4}) == [("7H", {"action": "7H"})]


def test_a_server_that_cannot_be_reached_is_one_sentence() -> None:
    with pytest.raises(BlotError, match="cannot be reached"):
        run("http://127.0.0.1:9", None, None, "Ani", None, ask=lambda p: "1", say=lambda s: None)
