"""The score sheet page (issue 6): a whole game to 301 entered through the form (keypad, the other
team's card points filled in, contra and redouble, declarations, belote, kapoot, void, penalty),
the totals, the end and the match score, an edit that changes every later total, and the players'
read-only page following it all live in another browser, in Armenian."""

from __future__ import annotations

from typing import Any

from .conftest import LiveServer

TEAMS = ("Ani & Gohar", "Bagrat & Davit")


def click(page: Any, testid: str) -> None:
    page.click(f"[data-testid={testid}]")


def enter_deal(
    page: Any,
    n: int,
    *,
    kind: str = "played",
    team: int = 0,
    level: int = 8,
    strain: str = "S",
    mult: int = 1,
    cards: int | None = None,
    cards_for: int | None = None,
    kapoot: int | None = None,
    decl: tuple[int, list[int]] | None = None,
    belote: int | None = None,
    penalty: tuple[str, int] | None = None,
) -> None:
    """Enter deal ``n`` as a referee taps it, then wait until the sheet shows it."""
    assert page.inner_text("[data-testid=form-title]") == f"Deal {n}"
    if kind != "played":
        click(page, f"kind-{kind}")
    if kind == "played":
        click(page, f"contract-team-{team}")
        click(page, f"level-{level}")
        click(page, f"strain-{strain}")
        if mult != 1:
            click(page, f"mult-{mult}")
        if kapoot is not None:
            click(page, f"kapoot-{kapoot}")
        else:
            assert cards is not None
            if cards_for is not None:
                click(page, f"cp-{cards_for}")
            for digit in str(cards):
                click(page, f"key-{digit}")
            typed = team if cards_for is None else cards_for
            assert page.inner_text(f"[data-testid=cp-{1 - typed}] b") == str(162 - cards)  # filled in
        if decl is not None:
            click(page, f"decl-team-{decl[0]}")
            for step in decl[1]:
                click(page, f"decl-add-{step}")
        if belote is not None:
            click(page, f"belote-{belote}")
    elif kind == "penalty":
        assert penalty is not None
        click(page, f"penalty-{penalty[0]}")
        click(page, f"penalty-team-{penalty[1]}")
    click(page, "submit-deal")
    page.wait_for_selector(f"[data-testid=deal-row-{n}]")


def totals(page: Any) -> tuple[int, int]:
    return (
        int(page.inner_text("[data-testid=sheet-total-0]")),
        int(page.inner_text("[data-testid=sheet-total-1]")),
    )


def row(page: Any, n: int, testid: str) -> str:
    return str(page.inner_text(f"[data-testid=deal-row-{n}] [data-testid={testid}]"))


# (deal, totals after it): worked by hand from docs/rules.md B-50 … B-55, B-70, B-72
GAME: list[tuple[dict[str, Any], tuple[int, int]]] = [
    # contra made: 2 x 10 + 16 + 2 (terz) for A; B keeps its belote
    (dict(team=0, level=10, strain="H", mult=2, cards=98, decl=(0, [2]), belote=1), (38, 2)),
    (dict(kind="void"), (38, 2)),
    # B makes 12 with a fifty (11 + 5 >= 12): 12 + 11 + 5; A's 52 card points give 5
    (dict(team=1, level=12, strain="S", cards=110, cards_for=1, decl=(1, [5])), (43, 30)),
    # misdeal by B (B-72): 5 for A
    (dict(kind="penalty", penalty=("misdeal", 1)), (48, 30)),
    # redouble made with a hundred (13 + 10 >= 20): 4 x 20 + 16 + 10
    (dict(team=0, level=20, strain="D", mult=4, cards=130, decl=(0, [10])), (154, 30)),
    # kapoot bid made: 25 + 25
    (dict(team=0, level=25, strain="C", kapoot=0), (204, 30)),
    # contra made with four jacks and belote: 2 x 16 + 16 + 20 + 2
    (dict(team=0, level=16, strain="H", mult=2, cards=140, decl=(0, [20]), belote=0), (274, 30)),
    # B makes 8 (A's 72 card points count 7): 8 + 9 for B
    (dict(team=1, level=8, strain="S", cards=90, cards_for=1), (281, 47)),
    # A makes 9: 9 + 10, B 6
    (dict(team=0, level=9, strain="H", cards=100), (300, 53)),
]
LAST: tuple[dict[str, Any], tuple[int, int]] = (
    dict(team=1, level=8, strain="C", cards=81, cards_for=1),
    (308, 69),  # A wins, 2-0
)


def test_a_whole_game_to_301_through_the_page_and_the_live_share_page(
    page: Any, browser: Any, server: LiveServer
) -> None:
    page.goto(server.url + "/")
    click(page, "lobby-scoresheet")
    page.fill("[data-testid=team-name-0]", TEAMS[0])
    page.fill("[data-testid=team-name-1]", TEAMS[1])
    click(page, "create-sheet")
    page.wait_for_url("**/scoresheet/*")
    page.wait_for_selector("[data-testid=deal-form]")
    assert page.inner_text("[data-testid=sheet-team-0]") == TEAMS[0]

    # an incomplete deal is explained, not sent
    click(page, "submit-deal")
    assert "Choose the team that took the contract" in page.inner_text("[data-testid=form-error]")
    assert page.locator("[data-testid=deal-row-1]").count() == 0

    for n, (deal, expected) in enumerate(GAME, 1):
        enter_deal(page, n, **deal)
        assert totals(page) == expected, n
        assert row(page, n, "total-0") == str(expected[0]) and row(page, n, "total-1") == str(expected[1])
    assert row(page, 1, "bid").startswith("10♥ ×2") and row(page, 1, "cards") == "98–64"
    assert row(page, 3, "cards") == "52–110" and row(page, 3, "decl") == "0–5"
    assert row(page, 7, "belote") == "2–0" and row(page, 6, "points-0") == "50"
    assert page.locator("[data-testid=sheet-over]").count() == 0

    # the players open the read-only link, in Armenian, before the last deal
    share_url = page.input_value("[data-testid=share-link]")
    assert "/scoresheet/shared/" in share_url and page.url.rsplit("/", 1)[1] not in share_url
    players = browser.new_context(locale="hy-AM", viewport={"width": 390, "height": 844})
    try:
        watch = players.new_page()
        sent: list[str] = []
        watch.on("request", lambda r: sent.append(f"{r.method} {r.url}"))
        watch.goto(share_url)
        watch.wait_for_selector("[data-testid=deal-row-9]")
        assert not [r for r in sent if "/api/players" in r]  # a read-only page makes no player
        assert watch.inner_text("[data-testid=nav-scoresheet]") == "Դավթար"
        assert "Դավթար" in watch.inner_text("h2")
        assert totals(watch) == (300, 53)
        editing = "[data-testid=deal-form], [data-testid=edit-1], [data-testid=share-link]"
        assert watch.locator(editing).count() == 0

        # the last deal ends the game; the players' page follows by itself
        deal, expected = LAST
        enter_deal(page, 10, **deal)
        assert totals(page) == expected
        page.wait_for_selector("[data-testid=sheet-over]")
        assert page.inner_text("[data-testid=sheet-winner]") == TEAMS[0]
        assert page.inner_text("[data-testid=sheet-match-score]") == "2-0"
        assert page.locator("[data-testid=submit-deal]").count() == 0  # no deal after the end
        watch.wait_for_selector("[data-testid=sheet-over]")
        assert totals(watch) == expected
        assert watch.inner_text("[data-testid=sheet-match-score]") == "2-0"

        # an edit of deal 3 (the fifty was only a terz) changes every later total, live too
        click(page, "edit-3")
        assert page.inner_text("[data-testid=form-title]") == "Editing deal 3"
        assert page.inner_text("[data-testid=cp-1] b") == "110"  # the deal as it was entered
        page.fill("[data-testid=decl-points]", "2")
        click(page, "submit-deal")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=sheet-total-1]').textContent === '66'"
        )
        assert row(page, 3, "points-1") == "25" and row(page, 3, "total-1") == "27"
        assert row(page, 10, "total-1") == "66" and totals(page) == (308, 66)
        assert page.inner_text("[data-testid=sheet-match-score]") == "2-0"
        history = page.locator("[data-testid=history-item]")
        assert history.count() == 11
        page.click("[data-testid=sheet-history] summary")
        assert "deal 3 changed by" in history.first.inner_text()
        watch.wait_for_function(
            "() => document.querySelector('[data-testid=sheet-total-1]').textContent === '66'"
        )
        assert watch.locator("[data-testid=history-item]").count() == 11
    finally:
        players.close()

    # the sheet is kept: its link opens it again, and the sheet page lists it
    page.goto(server.url + "/scoresheet")
    page.click("[data-testid=my-sheets] a")
    page.wait_for_selector("[data-testid=sheet-over]")
    assert totals(page) == (308, 66)


def test_a_new_sheet_asks_the_games_options_as_the_lobby_writes_them(page: Any, server: LiveServer) -> None:
    """Issue 39 item 2: the new-sheet form draws the options its game's presenter asks (target and
    kanach, B-70 and B-22) from the server's description, labelled as the lobby labels them; the
    sheet then offers level 30 and writes its options beside the ruleset's name."""
    page.goto(server.url + "/scoresheet")
    options = page.get_by_test_id("sheet-options")
    options.get_by_test_id("sheet-kanach").wait_for()
    assert "Play to (points)" in options.inner_text() and "Kanach" in options.inner_text()
    page.fill("[data-testid=sheet-target]", "501")
    page.check("[data-testid=sheet-kanach]")
    click(page, "create-sheet")
    page.wait_for_selector("[data-testid=level-30]")
    assert "to 501 · kanach" in page.inner_text(".sheet-head")
