"""Refusals keyed where they are raised (issues 26 item 5 and 39 item 1): every refusal a client can
meet is raised with a stable key and its parts (``IllegalAction("does_not_hold", seat=2,
card="KS")``); its sentences, in Armenian, Russian, Bulgarian and English, are in one catalogue
beside the code that raises it (blot/reasons.json, blot/<game>/reasons.json,
blot/scoresheet/reasons.json, blot/server/reasons.json); the English is what ``str(error)`` and
the wire's ``message`` say, and the page fetches its own language's (``/api/reasons/<lang>``).

The test walks the code: every key raised anywhere has a sentence in all four languages whose
parts are the ones the raise gives, every key of a catalogue is raised somewhere, and the modules
a request reaches raise no bare sentence but the few internal ones listed here."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import blot.bazar
import blot.scoresheet
import blot.server.errors
import blot.three_five_eight
from blot.errors import IllegalAction
from blot.reasons import LANGUAGES, Reason, catalogue, is_key, origin
from blot.server.errors import Refused

from .conftest import Player, Socket, start_with_bots

SRC = Path(__file__).resolve().parents[2] / "src" / "blot"
assert blot.bazar and blot.three_five_eight and blot.scoresheet and blot.server.errors  # registered
#: The refusals' constructors, and which argument is the key.
KEY_ARG = {
    "Refused": 1, "RateLimited": 0, "IllegalAction": 0, "NotationError": 0, "SetupError": 0,
    "SheetError": 1, "BlotError": 0, "Reason": 0, "SheetNotFound": 0,
}  # fmt: skip
#: The modules a client's request reaches (the command line, records, simulations, the solver and
#: the server's start-up are not): they raise keys only, but for the sentences below.
REACHED = [
    "server", "accounts.py", "games.py", "bots/__init__.py", "bots/settings.py", "bazar", "three_five_eight",
    "cards.py", "engine.py", "game.py", "wire", "scoresheet", "store/scoresheets.py", "numbers.py",
]  # fmt: skip
NOT_REACHED = {"server/config.py", "server/instance.py", "server/analysis_worker.py"}
#: Sentences no client request can cause (the server's start, a deal read back from a table's own
#: log, the engines' checks of what the server gives them, a game registered twice): no key.
INTERNAL = {
    "cannot listen on {}:{}: {}",
    "the password profile {} is not Argon2id",
    "a table's log starts with its creation",
    "unknown log entry {}",
    "unknown table command {}",
    "this game has no random source: give the cards of the deal",
    "the current deal is not over yet",
    "a game with no counted deal has no winner",
    "the game is not finished: it has no ranking yet",
    "{} is not a game of {}",
    "may_pass needs one flag per seat",
    "{} holds bits that are not cards of the 52-card deck",
    "a 3-5-8 deal needs {} hands",
    "hands must be a list of 3 strings of cards",
    "hands must be a list of 4 strings of cards",
    "a deal needs 4 hands, not {}",
    "seat {} holds {} cards, not 8",
    "seat {} holds {}, not in the 32-card deck",
    "{} dealt twice",
    "the talon must be a string of 4 cards",
    "dealer must be a seat from 0 to 3, not {}",
    "the dealer must be a seat from 0 to 2, not {}",
    "{} {} cards, not {}",
    "{} holds {}, which is not a card",
    "{} appears twice in {}",
    "{} has {}",
    "a game {} is registered already",
}


def _python_files() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" not in path.parts:
            yield str(path.relative_to(SRC)), ast.parse(path.read_text(encoding="utf-8"))


def _reached(where: str) -> bool:
    return where not in NOT_REACHED and any(where == p or where.startswith(p + "/") for p in REACHED)


def _constants(trees: list[ast.Module]) -> dict[str, list[str]]:
    """Module-level names that hold keys (``CHANGED = "event_changed"``, a dict of keys)."""
    out: dict[str, list[str]] = {}
    for tree in trees:
        for n in tree.body:
            if isinstance(n, ast.Assign | ast.AnnAssign) and n.value is not None:
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                values = n.value.values if isinstance(n.value, ast.Dict) else [n.value]
                keys = [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
                if keys and len(keys) == len(values) and all(is_key(k) for k in keys):
                    for t in targets:
                        if isinstance(t, ast.Name):
                            out.setdefault(t.id, []).extend(keys)
    return out


def _helpers(trees: list[ast.Module]) -> dict[str, int]:
    """Functions that raise the key they are given (``_spend(window, key, refusal)``) -> which
    argument of theirs is the key."""
    out: dict[str, int] = {}
    for tree in trees:
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            params = [a.arg for a in fn.args.args if a.arg not in ("self", "cls")]
            for n in ast.walk(fn):
                if isinstance(n, ast.Call):
                    name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)
                    at = KEY_ARG.get(name or "")
                    if at is not None and len(n.args) > at:
                        arg = n.args[at]
                        if isinstance(arg, ast.Name) and arg.id in params:
                            out[fn.name] = params.index(arg.id)
    return out


def _keys_of(node: ast.expr, constants: dict[str, list[str]]) -> list[str]:
    """The keys an argument names: literal (``"a" if x else "b"`` names two), or held by a
    module-level name (``CHANGED``, ``_MISSING[what]``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_key(node.value):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _keys_of(node.body, constants) + _keys_of(node.orelse, constants)
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id, [])
    return []


def _sentence(node: ast.expr) -> str | None:
    """A sentence written in place of a key, each variable part as ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and not is_key(node.value):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)  # type: ignore[misc]
    return None


Site = tuple[str, str, set[str] | None]


def raises() -> tuple[dict[str, list[Site]], dict[str, str]]:
    """Every key raised in src/blot -> (where, the constructor, the parts given, None when given
    by ``**``), and every bare sentence raised in a module a request reaches -> where."""
    keys: dict[str, list[Site]] = {}
    bare: dict[str, str] = {}
    files = list(_python_files())
    constants = _constants([tree for _, tree in files])
    helpers = _helpers([tree for _, tree in files])
    for where, tree in files:
        for n in ast.walk(tree):
            if not isinstance(n, ast.Call):
                continue
            name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)
            if name == "__init__" and where.startswith("server/"):
                name = "Refused"  # a refusal of its own kind (table.Moved): super().__init__(code, key)
            at = KEY_ARG.get(name or "", helpers.get(name or ""))
            if at is None or len(n.args) <= at:
                continue
            given = (
                None  # given by ** or inside a helper
                if name not in KEY_ARG or any(k.arg is None for k in n.keywords)
                else {k.arg for k in n.keywords if k.arg}
            )
            for key in _keys_of(n.args[at], constants):
                keys.setdefault(key, []).append((f"{where}:{n.lineno}", name or "", given))
            sentence = _sentence(n.args[at])
            if sentence is not None and " " in sentence and _reached(where):
                bare.setdefault(sentence, f"{where}:{n.lineno}")
    return keys, bare


def _parts(sentence: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", sentence))


def test_every_key_raised_has_its_sentence_in_four_languages_with_the_parts_it_is_given() -> None:
    keys, _ = raises()
    assert len(keys) > 300  # the walk reaches the engines, the score sheet and the server
    known = catalogue()
    missing = {key: sites[0][0] for key, sites in keys.items() if key not in known}
    assert not missing, missing
    for key, sites in keys.items():
        fields = _parts(known[key]["en"])
        for where, name, given in sites:
            if given is None:
                continue
            assert given - {"field"} <= fields, (key, where, given)  # no part the sentence lacks
            if name != "Reason":  # a raise gives every part (a Reason may be completed later)
                assert fields <= given | {"field"}, (key, where, given)


def test_every_key_of_a_catalogue_is_raised_somewhere_and_each_sits_beside_its_code() -> None:
    keys, _ = raises()
    unused = sorted(set(catalogue()) - set(keys))
    assert not unused, unused
    homes = {"bazar": blot.bazar, "three_five_eight": blot.three_five_eight, "scoresheet": blot.scoresheet}
    for key, sites in keys.items():
        packages = {where.split("/")[0] for where, _, _ in sites}
        home = origin(key).parent
        for package, module in homes.items():
            if home == Path(module.__file__ or "").parent:  # a game's key is raised by that game only
                assert packages == {package}, (key, sorted(packages))


def test_a_request_meets_no_bare_sentence_but_the_internal_ones() -> None:
    _, bare = raises()
    unkeyed = {s: where for s, where in bare.items() if s not in INTERNAL}
    assert not unkeyed, unkeyed
    assert not INTERNAL - set(bare), sorted(INTERNAL - set(bare))  # the list holds no stale line


def test_each_language_says_every_key_with_the_same_parts() -> None:
    for key, by_lang in catalogue().items():
        assert set(by_lang) == set(LANGUAGES), key
        english = by_lang["en"]
        for lang in ("hy", "ru", "bg"):
            sentence = by_lang[lang]
            assert sentence.strip(), (lang, key)
            assert _parts(sentence) == _parts(english), (lang, key, sentence)
            assert sentence != english or not re.search(r"[a-z]{4}", re.sub(r"\{\w+\}", " ", sentence)), (
                lang,
                key,
            )


def test_the_english_sentence_is_rendered_from_the_key_and_its_parts() -> None:
    refused = IllegalAction("does_not_hold", seat=2, card="KS")
    assert str(refused) == "seat 2 does not hold KS"
    assert (refused.reason, refused.params) == ("does_not_hold", {"seat": 2, "card": "KS"})
    nested = Refused(
        "illegal", "declare_refused", seat=1, declaration="KS QS JS", why=Reason("hand_lacks", cards="JS")
    )
    assert str(nested) == "seat 1 cannot declare KS QS JS: it does not hold JS"
    assert nested.to_json() == {
        "type": "error",
        "code": "illegal",
        "message": "seat 1 cannot declare KS QS JS: it does not hold JS",
        "reason": "declare_refused",
        "params": {
            "seat": "1",
            "declaration": "KS QS JS",
            "why": {"reason": "hand_lacks", "params": {"cards": "JS"}},
        },
    }
    assert IllegalAction("a sentence of its own").reason is None  # no key: the page shows the sentence


def test_an_engine_refusal_keeps_its_key_through_the_server() -> None:
    deal = blot.bazar.Deal(blot.bazar.random_deal(__import__("random").Random(1)).hands, dealer=3)
    try:
        deal.apply(deal.parse_action("contra"))
    except IllegalAction as e:
        answer = Refused.of(e).to_json()
    assert (answer["code"], answer["reason"], answer["params"]) == ("illegal", "no_bid_to_contra", {})
    assert answer["message"] == "there is no bid to contra"


def test_the_page_gets_each_language_from_the_server(client: Any) -> None:
    for lang in LANGUAGES:
        answer = client.get(f"/api/reasons/{lang}")
        assert answer.status_code == 200
        assert answer.json() == {key: by_lang[lang] for key, by_lang in catalogue().items()}
        assert "max-age" in answer.headers["cache-control"]
        again = client.get(f"/api/reasons/{lang}", headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304 and not again.content
    assert client.get("/api/reasons/ru").json()["seat_taken"] == "место {seat} занято"
    unknown = client.get("/api/reasons/fr")
    assert (unknown.status_code, unknown.json()["reason"]) == (404, "unknown_language")
    long = client.get("/api/reasons/" + "x" * 5000).json()["message"]
    assert long == "there is no language xxxxxxxxxxxx…: use hy, ru, bg, en"  # not 5,000 x's said back
    page = (SRC / "web" / "reasons.js").read_text(encoding="utf-8")
    assert "/api/reasons/" in page and "seat_taken" not in page  # no copy of the sentences


def test_http_and_websocket_refusals_carry_their_reason(client: Any, player: Player) -> None:
    refused = client.post("/api/accounts", json={"username": "AniԱ", "password": "correct horse battery"})
    body = refused.json()
    assert (body["error"], body["reason"], body["params"]) == ("malformed", "username_one_alphabet", {})
    assert body["message"] == "a username uses the letters of one alphabet only"  # as before
    table = start_with_bots(player, "bazar-blot")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        assert "contra" not in sock.my_turn(0)["legal"]["calls"]  # the first call of the deal
        sock.act(action="contra")
        error = sock.until(lambda m: m["type"] == "error")
        assert (error["code"], error["reason"], error["params"]) == ("illegal", "no_bid_to_contra", {})
        sock.act(action="QS")  # a card during the bidding: keyed with its part
        error = sock.until(lambda m: m["type"] == "error")
        assert (error["reason"], error["params"]) == ("call_during_bidding", {"call": "QS"})
    assert client.get("/api/nothing").json()["reason"] == "no_such_route"
