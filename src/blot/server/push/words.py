"""What a notification says (issue 41 item 4), in each language of the page: a title and one
sentence per kind, with its ``{parts}`` (a person's or an event's name, a round's number). Only
words and a link travel to the push service: never a card, a hand or a score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The kinds of notification a player may turn off one by one.
KINDS = ("turn", "invitation", "event_table", "rematch")
LANGS = ("hy", "ru", "bg", "en")

#: Each kind's title and sentence per language, from words.json (the words are data, as the
#: refusals' sentences in reasons.json are).
WORDS: dict[str, dict[str, tuple[str, str]]] = {
    kind: {lang: (title, body) for lang, (title, body) in by_lang.items()}
    for kind, by_lang in json.loads(Path(__file__).with_name("words.json").read_text("utf-8")).items()
}


def message(kind: str, lang: str, url: str, tag: str, **parts: Any) -> dict[str, str]:
    """The notification's JSON in ``lang`` (English for a language blot has not): its title, its
    sentence, the page it opens and its tag (a newer one of a tag replaces the older)."""
    title, body = WORDS[kind].get(lang) or WORDS[kind]["en"]
    return {"kind": kind, "title": title, "body": body.format(**parts), "url": url, "tag": tag}
