"""What a notification says (issue 41 item 4), in each language of the page: a title and one
sentence per kind, with its ``{parts}`` (a person's or an event's name, a round's number). Only
words and a link travel to the push service: never a card, a hand or a score."""

from __future__ import annotations

from typing import Any

#: The kinds of notification a player may turn off one by one.
KINDS = ("turn", "invitation", "event_table", "rematch")
LANGS = ("hy", "ru", "bg", "en")

WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "turn": {
        "hy": ("Ձեր հերթն է", "Սեղանը, որից հեռացել եք, սպասում է ձեր քայլին։"),
        "ru": ("Ваш ход", "Стол, который вы покинули, ждёт вашего хода."),
        "bg": ("Ваш ред е", "Масата, която напуснахте, чака вашия ход."),
        "en": ("Your turn", "A table you left is waiting for your move."),
    },
    "invitation": {
        "hy": ("Հրավեր", "{who}-ը ձեզ հրավիրում է իր սեղանի շուրջ։"),
        "ru": ("Приглашение", "{who} приглашает вас за свой стол."),
        "bg": ("Покана", "{who} ви кани на масата си."),
        "en": ("An invitation", "{who} invites you to a table."),
    },
    "event_table": {
        "hy": ("Ձեր սեղանը պատրաստ է", "{event}, {round}-րդ տուր․ ձեր սեղանը պատրաստ է։"),
        "ru": ("Ваш стол готов", "{event}, тур {round}: ваш стол готов."),
        "bg": ("Масата ви е готова", "{event}, кръг {round}: масата ви е готова."),
        "en": ("Your table is ready", "{event}, round {round}: your table is ready."),
    },
    "rematch": {
        "hy": ("Ռևանշ", "{who}-ը առաջարկում է ռևանշ։"),
        "ru": ("Реванш", "{who} предлагает реванш."),
        "bg": ("Реванш", "{who} предлага реванш."),
        "en": ("A rematch", "{who} asks for a rematch."),
    },
}


def message(kind: str, lang: str, url: str, tag: str, **parts: Any) -> dict[str, str]:
    """The notification's JSON in ``lang`` (English for a language blot has not): its title, its
    sentence, the page it opens and its tag (a newer one of a tag replaces the older)."""
    title, body = WORDS[kind].get(lang) or WORDS[kind]["en"]
    return {"kind": kind, "title": title, "body": body.format(**parts), "url": url, "tag": tag}
