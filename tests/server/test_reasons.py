"""Refusals in the player's language (issue 26 item 5): every sentence the server and the rules
engines can refuse a client with has a stable key in blot.server.reasons, and the page has it in
Armenian, Bulgarian, Russian and English (web/reasons.js). The test walks the code: every
sentence written in a refusal (a raise, a refusal function's answer, an error answer) of the
modules a request reaches."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blot.server.reasons import INTERNAL, REASONS, reason_of

from .conftest import Player, Socket, start_with_bots

SRC = Path(__file__).resolve().parents[2] / "src" / "blot"
WEB = SRC / "web"
#: The modules a client's request reaches (the command line, records, simulations, the solver and
#: the server's start-up are not).
REACHED = [
    "server", "accounts.py", "games.py", "bots/__init__.py", "bots/settings.py", "bazar", "three_five_eight",
    "cards.py", "engine.py", "game.py", "wire", "scoresheet", "store/scoresheets.py", "numbers.py",
]  # fmt: skip
NOT_REACHED = {"server/config.py", "server/instance.py", "server/analysis_worker.py"}
#: The refusals' constructors, and which argument is the sentence.
SENTENCE_ARG = {
    "Refused": 1, "RateLimited": 0, "IllegalAction": 0, "NotationError": 0, "SetupError": 0,
    "SheetError": 1, "BlotError": 0, "_json": 3,
}  # fmt: skip


def _modules() -> Iterator[Path]:
    for part in REACHED:
        path = SRC / part
        for f in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if str(f.relative_to(SRC)) not in NOT_REACHED:
                yield f


def _shapes(node: ast.expr) -> list[str]:
    """The sentences an expression writes, each variable part as ``{}`` (none: not a sentence)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)]  # type: ignore[misc]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _shapes(node.left) for b in _shapes(node.right)]
    if isinstance(node, ast.IfExp):
        return _shapes(node.body) + _shapes(node.orelse)
    return []


def written_refusals() -> dict[str, str]:
    """Every refusal sentence in the code a request reaches -> where (file:line)."""
    found: dict[str, str] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(SRC))
        nodes: list[tuple[ast.expr, int]] = []
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and (
                "refus" in fn.name or "why_not" in fn.name
            ):
                nodes += [
                    (n.value, n.lineno)
                    for n in ast.walk(fn)
                    if isinstance(n, ast.Return) and n.value is not None
                ]
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            # a sentence kept in a name before it is refused with: what the function assigns to it
            assigned: dict[str, list[ast.expr]] = {}
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign):
                    for target in n.targets:
                        if isinstance(target, ast.Name):
                            assigned.setdefault(target.id, []).append(n.value)
            for n in ast.walk(fn):
                if isinstance(n, ast.Call):
                    name = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None)
                    at = SENTENCE_ARG.get(name or "")
                    if at is not None and len(n.args) > at:
                        arg = n.args[at]
                        values = assigned.get(arg.id, []) if isinstance(arg, ast.Name) else [arg]
                        nodes += [(v, n.lineno) for v in values]
        for n in ast.walk(tree):
            if not where.startswith("server/"):
                continue
            # the server's error answers: {"message": …}, message = …, and what _too_large says
            if isinstance(n, ast.Dict):
                for k, v in zip(n.keys, n.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "message" and v is not None:
                        nodes.append((v, n.lineno))
            if isinstance(n, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "message" for t in n.targets
            ):
                nodes.append((n.value, n.lineno))
            if isinstance(n, ast.FunctionDef) and n.name == "_too_large":
                nodes += [
                    (r.value, r.lineno)
                    for r in ast.walk(n)
                    if isinstance(r, ast.Return) and r.value is not None
                ]
        for node, line in nodes:
            for shape in _shapes(node):
                if shape.strip():
                    found.setdefault(shape, f"{where}:{line}")
    return found


def _as_shape(sentence: str) -> str:
    return re.sub(r"\{\w+\}", "{}", sentence)


def test_every_refusal_a_request_can_meet_has_a_key_and_every_key_a_refusal() -> None:
    written = written_refusals()
    assert len(written) > 200  # the walk reaches the engines and the server
    catalogued = {_as_shape(s): key for key, s in REASONS.items()}
    missing = {
        shape: where for shape, where in written.items() if shape not in catalogued and shape not in INTERNAL
    }
    assert not missing, missing
    unused = {key for shape, key in catalogued.items() if shape not in written}
    assert not unused, sorted(unused)
    assert not INTERNAL - set(written), sorted(INTERNAL - set(written))
    assert len(catalogued) == len(REASONS)  # no two keys for one sentence


def _page_sentences() -> dict[str, dict[str, str]]:
    text = (WEB / "reasons.js").read_text(encoding="utf-8")
    out = {}
    for lang in ("en", "hy", "bg", "ru"):
        block = re.search(rf"const {lang} = (\{{.*?\n\}});", text, re.S)
        assert block, lang
        out[lang] = json.loads(block.group(1))
    return out


def test_the_page_says_every_refusal_in_four_languages() -> None:
    page = _page_sentences()
    assert page["en"] == REASONS  # the page's English is the server's, word for word
    for lang in ("hy", "bg", "ru"):
        assert set(page[lang]) == set(REASONS), (lang, sorted(set(page[lang]) ^ set(REASONS)))
        for key, sentence in page[lang].items():
            fields = set(re.findall(r"\{(\w+)\}", sentence))
            assert fields == set(re.findall(r"\{(\w+)\}", REASONS[key])), (lang, key, sentence)
            assert sentence != REASONS[key] or not re.search(r"[a-z]{4}", sentence.replace("{", " ")), (
                lang,
                key,
            )


@pytest.mark.parametrize(
    ("message", "reason", "params"),
    [
        ("a username uses the letters of one alphabet only", "username_one_alphabet", {}),
        ("seat 2 is taken", "seat_taken", {"seat": "2"}),
        (
            "seat 0 holds hearts and must follow spades",
            "must_follow",
            {"seat": "0", "suit": "hearts", "lead": "spades"},
        ),
        ("seat 0 holds trumps and must follow hearts", "must_follow_trumps", {"seat": "0", "lead": "hearts"}),
        # a bot setting's rule is not read as the events' whole-number sentence (issue 25)
        (
            "bot pimc: samples is a whole number from 1 to 1000, not '1000000'",
            "bot_setting_value",
            {
                "bot": "pimc",
                "setting": "samples",
                "rule": "a whole number from 1 to 1000",
                "value": "'1000000'",
            },
        ),
        (
            "rounds is a whole number between 1 and 30",
            "field_whole",
            {"field": "rounds", "low": "1", "high": "30"},
        ),
        (
            "seat 1 cannot declare KS QS JS: it does not hold JS",
            "declare_refused",
            {
                "seat": "1",
                "declaration": "KS QS JS",
                "why": {"reason": "hand_lacks", "params": {"cards": "JS"}},
            },
        ),
    ],
)
def test_a_sentence_is_read_back_to_its_key_and_parts(
    message: str, reason: str, params: dict[str, Any]
) -> None:
    assert reason_of(message) == (reason, params)


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
    assert client.get("/api/nothing").json()["reason"] == "no_such_route"
