"""Every string of the browser client exists in Armenian, Bulgarian, Russian and English, and
the test hooks that checks outside the repository rely on are in the page's code. The words are
one file per language (web/i18n/<lang>.js) and, for what only one game says, one per language
beside its presenter (web/games/<package>.<lang>.js: issue 39 item 2)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "blot" / "web"
LANGS = ("en", "hy", "bg", "ru")
#: A file of words: web/i18n/<lang>.js or web/games/<package>.<lang>.js.
WORDS_FILE = re.compile(r"^(?:[a-z]{2}|\w+\.[a-z]{2})\.js$")


def _keys(path: Path) -> set[str]:
    block = re.search(r"^export default \{\n(.*?)\n\};", path.read_text(encoding="utf-8"), re.S | re.M)
    assert block, path
    return set(re.findall(r'^\s+"?([\w-]+)"?:', block.group(1), re.M))


def _languages() -> dict[str, set[str]]:
    """The shared words, by language."""
    return {name: _keys(WEB / "i18n" / f"{name}.js") for name in LANGS}


def _game_words() -> dict[str, dict[str, set[str]]]:
    """Each presenter's own words, by language: {package: {lang: keys}}."""
    out: dict[str, dict[str, set[str]]] = {}
    for path in sorted((WEB / "games").glob("*.*.js")):
        package, name, _ = path.name.split(".")
        out.setdefault(package, {})[name] = _keys(path)
    return out


def _code() -> list[Path]:
    """The page's code: every script but the files of words."""
    return [
        p for p in WEB.rglob("*.js") if not (WORDS_FILE.match(p.name) and p.parent.name in ("i18n", "games"))
    ]


def _used(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return set(re.findall(r'\bt\("([\w-]+)"', text)) | set(re.findall(r'data-i18n="([\w-]+)"', text))


def test_four_languages_have_the_same_strings() -> None:
    langs = _languages()
    assert len(langs["en"]) > 120
    for name, keys in langs.items():
        assert keys == langs["en"], (name, sorted(keys ^ langs["en"]))
    for package, words in _game_words().items():
        assert set(words) == set(LANGS), package
        for name, keys in words.items():
            assert keys == words["en"], (package, name, sorted(keys ^ words["en"]))


def test_a_word_is_either_shared_or_one_games() -> None:
    """A game's own words are not in the shared files, which every page downloads (issue 39 item 2),
    nor in another game's."""
    shared = _languages()["en"]
    seen: set[str] = set()
    games = _game_words()
    assert {"bazar", "three_five_eight"} <= set(games)
    for package, words in games.items():
        assert not words["en"] & shared, (package, sorted(words["en"] & shared))
        assert not words["en"] & seen, (package, sorted(words["en"] & seen))
        seen |= words["en"]
    assert {"decl_terz", "kapoot_moment"} <= games["bazar"]["en"]
    # the score sheet's and the analysis' Bazar Blot words too (issue 39 item 2)
    sheet = {"sheet_bid", "kapoot_by", "belote_points", "no_contra", "kapoot_short", "tars_kapoot"}
    assert sheet | {"an_dd_title"} <= games["bazar"]["en"]
    # the bidding against par and a contract's outcome (web/games/bazar.js biddingReview, travellerLine)
    assert {"bid_par", "bid_help", "made", "failed"} <= games["bazar"]["en"]
    assert {"log_give", "talon", "tricks_of"} <= games["three_five_eight"]["en"]


def _owner(path: Path, games: dict[str, dict[str, set[str]]]) -> str | None:
    """The game whose words a module of web/games may use: its presenter's, or a part of it
    (``bazar_sheet.js``: Bazar Blot's side of the score sheet)."""
    if path.parent.name != "games":
        return None
    return next((p for p in games if path.stem == p or path.stem.startswith(p + "_sheet")), None)


def test_a_presenter_uses_the_shared_words_and_its_own_only() -> None:
    shared = _languages()["en"]
    games = _game_words()
    for path in _code():
        owner = _owner(path, games)
        own = games[owner]["en"] if owner else set()
        missing = {k for k in _used(path) if not k.endswith("_")} - shared - own
        assert not missing, (path.name, sorted(missing))


def test_every_key_the_page_uses_is_translated() -> None:
    keys = _languages()["en"].union(*(w["en"] for w in _game_words().values()))
    used = set()
    for path in [*_code(), WEB / "index.html"]:
        used |= _used(path)
    dynamic = {
        "bot_basic", "bot_random", "decl_terz", "decl_fifty", "decl_hundred", "status_waiting",
        "status_playing", "status_finished",
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
    """Game names, options and their values, bot levels, the chat's phrases: the page makes their
    keys from what the server sends (GET /api/games, chat_history). A ruleset's name comes with
    its preset, in four languages (``ruleset_labels``): no page word for it."""
    from blot.games import SPECS
    from blot.server.chat import PHRASES

    keys = _languages()["en"]
    wanted = {f"phrase_{p}" for p in PHRASES}
    for game in SPECS.values():
        wanted.add(f"game_{game.name}")
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
    """The page's and, since issue 39 item 2, the deal form's in the game's part of the sheet."""
    page = (WEB / "scoresheet.js").read_text(encoding="utf-8")
    page += (WEB / "games" / "bazar_sheet.js").read_text(encoding="utf-8")
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
WORDS = {"reasons.js"}


def test_the_shared_page_names_no_game() -> None:
    from blot.games import names, spec

    words = {w for name in names() for w in (name, spec(name).package)}
    shared = sorted(f for f in WEB.glob("*.js") if f.name not in WORDS)
    assert {"app.js", "table.js", "events.js", "learn.js", "puzzles.js"} <= {f.name for f in shared}
    for file in shared:
        code = re.sub(r"//.*", "", file.read_text(encoding="utf-8"))  # comments may explain
        named = sorted(w for w in words if re.search(rf"""["'`/]{re.escape(w)}\b""", code))
        assert named == [], (file.name, named)


def test_the_worker_keeps_the_words_of_its_pages_language_only() -> None:
    """The service worker caches every file of the page but the words, which it keeps for the
    language the page tells it (issue 39 item 2: a page downloads only its own language)."""
    import json

    from blot.server.routes.pages import worker_script

    script = worker_script()
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", script).group(1))  # type: ignore[union-attr]
    words = json.loads(re.search(r"const WORDS = (\{.*?\});", script).group(1))  # type: ignore[union-attr]
    assert "/static/i18n.js" in files and "/static/games/bazar.js" in files
    assert not [f for f in files if re.search(r"/(i18n/|games/\w+\.)[a-z]{2}\.js$", f)], files
    assert sorted(words) == sorted(LANGS)
    for code in LANGS:
        games = ("bazar", "three_five_eight")
        wanted = sorted([f"/static/i18n/{code}.js", *(f"/static/games/{g}.{code}.js" for g in games)])
        assert sorted(words[code]) == wanted, words[code]


def test_the_shared_page_writes_no_games_calls_or_log_lines() -> None:
    """A bid's pattern, a declaration, the exchange's gift, a discard, belote, contra: only the
    games' presenters write them (issue 39 item 2: ``logLine``, ``replayInfo``, ``callLabel``).
    Nor a game's options, kapoot or double-dummy table: the score sheet and the analysis ask the
    presenter (``scoreSheet.OPTIONS``, ``rulesLine``, ``matchNote``, ``dealTable``)."""
    game_words = re.compile(
        r"""\(S\|H\|D\|C\|NT\)|["'](declare|give|discard|contra|redouble|sevens)["']|belote"""
        r"""|kanach|kapoot_(short|by)|an_dd_|\b(301|162)\b"""
    )
    for file in sorted(WEB.glob("*.js")):
        if file.name == "reasons.js":
            continue
        code = re.sub(r"//.*", "", file.read_text(encoding="utf-8"))
        found = sorted({m.group(0) for m in game_words.finditer(code)})
        assert found == [], (file.name, found)
