"""Every string of the browser client exists in Armenian, Bulgarian, Russian and English, and
the test hooks that checks outside the repository rely on are in the page's code."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "blot" / "web"


def _languages() -> dict[str, set[str]]:
    text = (WEB / "i18n.js").read_text(encoding="utf-8")
    out = {}
    for name in ("en", "hy", "bg", "ru"):
        block = re.search(rf"const {name} = \{{(.*?)\n\}};", text, re.S)
        assert block, name
        out[name] = set(re.findall(r'^\s+"?([\w-]+)"?:', block.group(1), re.M))
    return out


def test_four_languages_have_the_same_strings() -> None:
    langs = _languages()
    assert len(langs["en"]) > 120
    for name, keys in langs.items():
        assert keys == langs["en"], (name, sorted(keys ^ langs["en"]))


def test_every_key_the_page_uses_is_translated() -> None:
    keys = _languages()["en"]
    used = set()
    for path in [*WEB.rglob("*.js"), WEB / "index.html"]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\("([\w-]+)"', text)) | set(re.findall(r'data-i18n="([\w-]+)"', text))
    dynamic = {
        "bot_basic", "bot_random", "decl_terz", "decl_fifty", "decl_hundred", "status_waiting",
        "status_playing", "status_finished", "ruleset_league", "ruleset_classic", "ruleset_standard",
        "opt_kanach", "opt_three_passes_end_bidding", "game_bazar-blot", "game_3-5-8", "made",
        "failed", "belote", "rebelote", "invite_public", "invite_private", "your_call",
        "your_trump_call", "card_points", "declarations", "points", "belote_points",
        *(f"rank_{r}" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")),
        *(f"{k}_{s}" for k in ("suit", "suits") for s in "SHDC"),
        "deal_kind_played", "deal_kind_void", "deal_kind_penalty", "hist_add", "hist_replace",
        "hist_delete", "missing_team", "missing_level", "missing_strain", "missing_cards",
        "missing_penalty_team", "error_invalid", "log_end_agree", "log_end_decline", "bot_heuristic",
        "bot_pimc", "error_unauthorized", "error_rate_limited",
        *(f"error_{c}" for c in ("malformed", "illegal", "not_your_turn", "not_seated", "forbidden",
                                 "not_found", "conflict", "server")),
    }  # fmt: skip
    used = {k for k in used if not k.endswith("_")}  # prefixes of keys made at run time
    missing = (used | dynamic) - keys
    assert not missing, sorted(missing)


def test_every_name_the_server_gives_the_page_is_translated() -> None:
    """Game names, rulesets, options and their values, bot levels, the chat's phrases: the page
    makes their keys from what the server sends (GET /api/games, chat_history)."""
    from blot.games import SPECS
    from blot.server.chat import PHRASES

    keys = _languages()["en"]
    wanted = {f"phrase_{p}" for p in PHRASES}
    for game in SPECS.values():
        wanted |= {f"game_{game.name}", *(f"ruleset_{r}" for r in game.rulesets)}
        wanted |= {f"bot_{b}" for b in game.bot_names()}
        for field in game.option_fields():
            wanted.add(f"opt_{field['name']}")
            if field["kind"] == "number":
                wanted.add(f"optval_{field['name']}")
    assert not wanted - keys, sorted(wanted - keys)


def test_the_test_hooks_are_there() -> None:
    app = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WEB.rglob("*.js")))
    for hook in (
        '"data-testid": "game"',
        '"data-testid": "new-table"',
        '"data-testid": "fill-bots"',
        '"data-testid": "start"',
        '"data-testid": "deal-result"',
        '"data-testid": "score-total"',
        '"data-testid": "game-over"',
        '"data-card": c',
        '"data-legal": ok ? "true" : null',
        '"data-call": c',
        '"data-call": ok ? call : null',
        '"data-declare": "best"',
        '"data-declare": "none"',
        "{ value: g.game }",  # the lobby's games, as the server lists them
        '"data-testid": "score"',
        '"data-testid": "propose-end"',
        '"data-testid": "confirm-end"',
        '"data-testid": "chat"',
    ):
        assert hook in app, hook


def test_the_score_sheet_hooks_are_there() -> None:
    page = (WEB / "scoresheet.js").read_text(encoding="utf-8")
    for hook in (
        '"data-testid": "create-sheet"',
        '"data-testid": `team-name-${i}`',
        '"data-testid": "sheet-table"',
        '"data-testid": `deal-row-${d.number}`',
        '"data-testid": "sheet-total-0"',
        '"data-testid": "sheet-total-1"',
        '"data-testid": "sheet-over"',
        '"data-testid": "sheet-match-score"',
        '"data-testid": "share-link"',
        '"data-testid": "submit-deal"',
        "`key-${d}`",
        '"data-testid": `cp-${i}`',
        "`level-${lvl}`",
        "`strain-${st}`",
        "`contract-team-${i}`",
        '"mult-2"',
        '"mult-4"',
        "`kapoot-${i}`",
        "`belote-${i}`",
        "`decl-team-${i}`",
        '"data-testid": "decl-points"',
        "`edit-${d.number}`",
        '"penalty-misdeal"',
        '"penalty-misplay"',
    ):
        assert hook in page, hook
    assert '"data-testid": "lobby-scoresheet"' in (WEB / "app.js").read_text(encoding="utf-8")


#: The page's words, where a game's name is a word of a sentence ("3-5-8 has one ruleset"): every
#: other module of the page is its shared code, which draws every game through its description
#: (GET /api/games) and its presenter (issue 26 item 5), events, analyses and puzzles included
#: (issues 25, 28).
WORDS = {"i18n.js", "reasons.js"}


def test_the_shared_page_names_no_game() -> None:
    from blot.games import names, spec

    words = {w for name in names() for w in (name, spec(name).package)}
    shared = sorted(f for f in WEB.glob("*.js") if f.name not in WORDS)
    assert {"app.js", "table.js", "events.js", "learn.js", "puzzles.js"} <= {f.name for f in shared}
    for file in shared:
        code = re.sub(r"//.*", "", file.read_text(encoding="utf-8"))  # comments may explain
        named = sorted(w for w in words if re.search(rf"""["'`/]{re.escape(w)}\b""", code))
        assert named == [], (file.name, named)
