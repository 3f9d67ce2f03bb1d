"""``blot daily``: the day's deals of a running server played in the terminal (issue 45 item 5).

The command is a client of the server like the page (docs/protocol.md, "The day's deals" and the
table's websocket): it starts (or resumes) the day's set of a game, then at each of its turns
shows the hand, the trick and what the view's ``legal`` offers, and sends the choice typed (its
number or the call or card itself). The server decides everything; at the set's end the command
prints the day's results as the server lets the player see them. A player without ``--token``
plays as a guest named ``--name`` (the token printed resumes the same set)."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from typing import Any

from blot.cli.http import server_json
from blot.cli.terminal import QUIT_WORDS, EndOfInput, Quit
from blot.errors import BlotError

Ask = Callable[[str], str]
Say = Callable[[str], None]


def choices(legal: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """What the seat may do now, as ``(label, message)``: each legal call or card (a 3-5-8 gift or
    discard is a card too), or Bazar Blot's first-trick declarations (the best set, or none)."""
    kind = legal.get("kind")
    if kind == "declare":
        best = legal.get("best") or []
        nothing = ("declare nothing", {"declare": "none"})
        return [(f"declare {' + '.join(best)}", {"declare": "best"}), nothing] if best else [nothing]
    options = legal.get("calls") if kind == "call" else legal.get("cards")
    return [(str(x), {"action": str(x)}) for x in options or []]


def _show_turn(view: dict[str, Any], seat: int, options: list[tuple[str, dict[str, Any]]], say: Say) -> None:
    """The seat's hand, the trick on the table and the numbered choices."""

    def who(s: Any) -> str:
        return "you" if s == seat else f"seat {int(s) + 1}"

    trick = " ".join(f"{t.get('card')} ({who(t.get('seat'))})" for t in view.get("trick") or [])
    say(f"Deal {view.get('deal_number')}. Your hand: {' '.join(str(c) for c in view.get('hand') or [])}")
    c = view.get("contract")
    if isinstance(c, dict):
        times = f" x{c['multiplier']}" if c.get("multiplier", 1) > 1 else ""
        say(f"Contract: {c.get('level')}{c.get('strain')}{times} by {who(c.get('seat'))}")
    elif view.get("trump") and view.get("caller") is not None:
        say(f"Trump: {view['trump']} named by {who(view['caller'])}")
    if trick:
        say(f"On the table: {trick}")
    left = (view.get("legal") or {}).get("left")
    say(
        ("Put back a card" + (f" ({left} to go)" if left else "") + ": ")
        if (view.get("legal") or {}).get("kind") == "discard"
        else "Your turn:"
    )
    say("  " + "  ".join(f"{i}) {label}" for i, (label, _) in enumerate(options, 1)))


def pick(answer: str, options: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The choice typed: its number, or the call or card itself (any case); None for neither."""
    text = answer.strip()
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1][1]
    for label, message in options:
        if text.upper() == label.upper() or text.upper() == str(message.get("action", "")).upper():
            return message
    return None


def _over(message: dict[str, Any]) -> bool:
    view = message.get("view") or {}
    table = message.get("table") or {}
    return bool(view.get("game_over")) or bool(table.get("ended")) or table.get("status") == "finished"


def play_table(server: str, table: str, seat: int, token: str, ask: Ask, say: Say) -> None:
    """Play the seat at ``table`` over its websocket until the game is over."""
    from websockets.sync.client import connect

    url = (
        server.rstrip("/").replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        + f"/ws/tables/{table}"
    )
    asked_at = -1
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        last: dict[str, Any] = {}
        for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                say(f"Refused: {message.get('message')}")
                asked_at = -1  # asked again at once, from the last view
                message = last
            elif kind not in ("snapshot", "event"):
                continue
            last = message or last
            if _over(last):
                return
            view = last.get("view") or {}
            n = int(last.get("n") or 0)
            if not view.get("legal") or view.get("to_act") != seat or n == asked_at:
                continue
            asked_at = n
            options = choices(view["legal"])
            _show_turn(view, seat, options, say)
            while True:
                try:
                    answer = ask("> ")
                except EOFError:
                    raise EndOfInput from None
                if answer.strip().lower() in QUIT_WORDS:
                    raise Quit
                chosen = pick(answer, options)
                if chosen is not None:
                    break
                say("Type the number of a choice, or the call or card itself.")
            ws.send(json.dumps({"type": "action", **chosen}))


def show_results(results: dict[str, Any], say: Say) -> None:
    """The day's results as the server lets this player see them: rank, ranking, par, travellers."""
    what = f"{results.get('game')} ({results.get('ruleset')})"
    say(f"The day's deals of {results.get('day')}: {what}, {results.get('field')} finished.")
    ranking = results.get("ranking") or []
    if not ranking:
        say("The ranking opens once you have played all the day's deals.")
    for line in ranking:
        mark = "  <- you" if line.get("you") else ""
        percent = float(line.get("percent") or 0)
        say(f"{line.get('rank'):>3}. {line.get('name')}: {percent:.1f}% (total {line.get('total')}){mark}")
    par = results.get("par")
    if par:
        say(f"     par (the bots): {float(par.get('percent') or 0):.1f}% (total {par.get('total')})")
    for deal in results.get("deals") or []:
        if deal.get("secret"):
            say(f"Deal {deal.get('number')}: still secret.")
            continue
        entries = [
            f"{e.get('name')} {e.get('score')} ({float(e.get('percent') or 0):.1f}%)"
            for e in deal.get("traveller") or []
        ]
        dp = deal.get("par")
        if dp:
            entries.append(f"par {dp.get('score')} ({float(dp.get('percent') or 0):.1f}%)")
        say(f"Deal {deal.get('number')}: " + ", ".join(entries))


def run(
    server: str,
    game: str | None,
    ruleset: str | None,
    name: str,
    token: str | None,
    ask: Ask = input,
    say: Say = print,
) -> None:
    """``blot daily``: start or resume the day's set of ``game`` (the first not finished when
    None), play it, print its results."""
    if not token:
        token = str(server_json(server, "POST", "/api/players", None, {"name": name})["token"])
        say(f"Playing as the guest {name} (come back to this set with --token {token}).")
    today = server_json(server, "GET", "/api/daily", token)
    sets = [
        s
        for s in today.get("sets", [])
        if (game is None or s["game"] == game) and (ruleset is None or s["ruleset"] == ruleset)
    ]
    if not sets:
        offered = ", ".join(f"{s['game']}/{s['ruleset']}" for s in today.get("sets", [])) or "none"
        raise BlotError(f"the server offers no such set of the day's deals (offered: {offered})")
    chosen = next((s for s in sets if s["status"] != "finished"), sets[0])
    query = urllib.parse.urlencode({"ruleset": chosen["ruleset"]})
    results_path = f"/api/daily/{urllib.parse.quote(chosen['game'], safe='')}/results?{query}"
    if chosen["status"] != "finished":
        what = f"{chosen['game']} ({chosen['ruleset']})"
        size = f"{chosen['deals']} deals against {chosen['bots']} bots"
        say(f"The day's deals of {today.get('day')}: {what}, {size}.")
        started = server_json(
            server,
            "POST",
            f"/api/daily/{urllib.parse.quote(chosen['game'], safe='')}/start",
            token,
            {"ruleset": chosen["ruleset"]},
        )
        play_table(server, str(started["table"]), int(started["seat"]), token, ask, say)
    show_results(server_json(server, "GET", results_path, token), say)
