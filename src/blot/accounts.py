"""Accounts: the rules for usernames, guests' names and passwords, and password hashing
(Argon2id).

A username is shown as its owner typed it (after Unicode NFKC normalisation) and is unique
without regard to case: its *key* is the normalised name case-folded, so ``Ani``, ``ANI`` and
``ani`` are one account. Usernames are 3 to 20 characters: letters of one alphabet (Latin,
Armenian or Cyrillic: a name that mixes them could pass for another), digits and ``_ - .``,
starting with a letter or a digit. A username that *looks like* one that is taken is refused
too: each account keeps the *skeleton* of its username (:func:`skeleton`), and two usernames with
one skeleton are too alike (Cyrillic ``КАТЕ`` beside ``KATE``, Armenian ``օսօ`` beside ``ouo``).

A guest's name (:func:`check_guest_name`) is a display name: up to 40 characters, spaces
allowed, but by the same character rules: no control, format or invisible characters, something
that shows, NFKC-normalised. Neither a username nor a guest's name may read as a bot's
(:func:`reads_as_bot`). Passwords are 8 to 128 characters and are stored only as Argon2id hashes
(argon2-cffi, RFC 9106's low-memory profile by default).

>>> username_key("  Ani_1 ")
'ani_1'
>>> check_username("Գոհար")
'Գոհար'
>>> check_username("Ani Gohar")
Traceback (most recent call last):
...
blot.errors.SetupError: a username has only letters, digits and _ - . (no spaces or other signs)
>>> skeleton("КАТЕ") == skeleton("Kate"), skeleton("ǀvan") == skeleton("Ivan")
(True, True)
>>> check_guest_name("  Ani   & Gohar ")
'Ani & Gohar'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from blot.errors import SetupError

USERNAME_MIN, USERNAME_MAX = 3, 20
#: The longest guest's name, in characters.
NAME_MAX = 40
PASSWORD_MIN, PASSWORD_MAX = 8, 128
SCRIPTS = ("LATIN", "ARMENIAN", "CYRILLIC")
PUNCTUATION = "_-."
#: The name shown instead of a deleted account's.
DELETED_NAME = "deleted player"


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def username_key(text: str) -> str:
    """The form that makes usernames unique: normalised and case-folded."""
    return normalise(text).casefold()


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    return unicodedata.name(ch, "?").split(" ")[0]


# --- look-alikes ---------------------------------------------------------------------------------

#: Letters that look like a Latin letter or a digit, for :func:`skeleton`. Neither PyPI library
#: for confusables fits: ``confusable-homoglyphs`` checks a string against one script and has no
#: skeleton (and maps small capital ``ᴀ`` to a Cherokee letter), ``confusables`` (last release
#: 2021, Unicode 13 data) gives a set of forms per string, not one to index, and neither knows
#: ``ᴀ`` as ``a``. So, in the spirit of UTS #39's skeletons but for what a username may hold
#: (Latin, Armenian and Cyrillic letters, digits): Latin letters are derived from their Unicode
#: names (:func:`_latin_base`), and this table, read against Unicode's confusables.txt, gives the
#: Cyrillic and Armenian letters (and the few Latin ones without a letter in their name) that
#: look like a Latin letter or a digit. Keys are lower case: usernames are unique whatever the
#: case, so a letter is here when either of its cases looks like that case of the Latin letter
#: (Cyrillic ``т``: ``Т`` is ``T``; Armenian ``տ``: ``Տ`` is ``S``). A change here changes stored
#: skeletons: it comes with a migration that computes them again.
LOOKALIKES: dict[str, str] = {
    # Latin letters whose names hold no plain letter
    "ǀ": "l", "ǁ": "ll", "ɩ": "i", "ɑ": "a", "ĸ": "k", "ƅ": "b",
    # Cyrillic
    "а": "a", "б": "6", "в": "b", "г": "r", "е": "e", "з": "3", "к": "k", "м": "m", "н": "h",
    "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ъ": "b", "ы": "bl",
    "ь": "b", "ю": "lo", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ѡ": "w", "ү": "y", "ұ": "y", "ӏ": "l", "ѵ": "v", "ҽ": "e", "ҿ": "e", "ԍ": "g", "ҫ": "c",
    "қ": "k", "ң": "h", "ҳ": "x", "ҭ": "t", "ӡ": "3", "ҙ": "3", "ӕ": "ae", "ꙇ": "i",
    # Armenian
    "օ": "o", "ս": "u", "տ": "s", "լ": "l", "ո": "n", "ռ": "n", "հ": "h", "ց": "g", "զ": "q",
    "գ": "q", "ք": "f", "յ": "j", "ա": "w",
}  # fmt: skip
#: Then, in the skeleton's lower-case Latin: letters and digits that pass for one another (a
#: capital ``I`` for ``l``, ``0`` for ``o``), and pairs that pass for one letter.
_SAME = str.maketrans({"i": "l", "1": "l", "0": "o"})
_PAIRS = (("rn", "m"), ("vv", "w"))
_LATIN_NAME = re.compile(
    r"LATIN (?:SMALL |CAPITAL )*LETTER (?:SMALL CAPITAL |SCRIPT |DOTLESS )?([A-Z])(?: WITH .*)?"
)


@lru_cache(maxsize=4096)
def _latin_base(ch: str) -> str:
    """The plain letter a Latin letter is drawn from, by its Unicode name: small capital ``ᴀ``
    and script ``ɡ`` are ``a`` and ``g``, ``ł`` (L with stroke) is ``l``; turned, reversed and
    other shapes (``ɐ``, ``ǝ``) stay themselves."""
    found = _LATIN_NAME.fullmatch(unicodedata.name(ch, ""))
    return found[1].lower() if found else ch


def skeleton(name: str) -> str:
    """What a name looks like, for comparing usernames: the NFKC name case-folded, its accents
    dropped, each letter replaced by the Latin letter or digit it looks like (:data:`LOOKALIKES`),
    then ``i``, ``1`` as ``l``, ``0`` as ``o``, ``rn`` as ``m`` and ``vv`` as ``w``. Two usernames
    with one skeleton are too alike to be told apart on a screen.

    >>> [skeleton(n) for n in ("ᴀni", "Ani", "ɡohar", "օսօ", "асе")]
    ['anl', 'anl', 'gohar', 'ouo', 'ace']
    """
    text = unicodedata.normalize("NFD", normalise(name).casefold())
    out = []
    for ch in text:
        if unicodedata.combining(ch):
            continue
        out.append(LOOKALIKES.get(ch) or _latin_base(ch))
    shape = "".join(out)
    for pair, letter in _PAIRS:
        shape = shape.replace(pair, letter)
    return shape.translate(_SAME)


#: What the tables call a bot: ``bot (pimc)``, "Bot 2" (and its Armenian and Russian/Bulgarian
#: words), so no person's name may start with that word or a look-alike of it.
_BOT_WORDS = frozenset(skeleton(word) for word in ("bot", "բոտ", "бот"))


def reads_as_bot(name: str) -> bool:
    """Whether a name's first word (letters and digits) is "bot", with a number after it or
    not, in any of the page's languages or in letters that look like it: that is how the tables
    name bots (``bot (pimc)``, ``Bot 2``).

    >>> [reads_as_bot(n) for n in ("bot (pimc)", "Bоt 2", "B0t_1", "Бот", "Bottle", "Abbot")]
    [True, True, True, True, False, False]
    """
    text = normalise(name)
    end = 0
    while end < len(text) and (text[end].isalnum() or unicodedata.combining(text[end])):
        end += 1
    word = text[:end]
    return skeleton(word) in _BOT_WORDS or skeleton(word.rstrip("0123456789")) in _BOT_WORDS


#: Letters and signs that draw nothing (Hangul fillers, the blank Braille pattern): a name of
#: them alone looks empty, and one with them looks like another name.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shows(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in INVISIBLE


def check_guest_name(value: Any) -> str:
    """A guest's name as it will be shown (NFKC, runs of spaces as one), or :class:`SetupError`
    (field ``name``) saying why it cannot be one: none given, over :data:`NAME_MAX` characters,
    control, format or invisible characters (a name is shown on every player's screen and in
    terminals), nothing that shows, or a name that reads as a bot's."""
    if not isinstance(value, str) or not value.strip():
        raise SetupError("name_needed", "name")
    text = unicodedata.normalize("NFKC", value)
    for ch in text:
        if ch.isspace() and unicodedata.category(ch) == "Zs":
            continue
        if unicodedata.category(ch)[0] in "CZ" or ch in INVISIBLE:
            raise SetupError("name_control", "name")
    text = " ".join(text.split())
    if len(text) > NAME_MAX:
        raise SetupError("name_too_long", "name", n=NAME_MAX)
    if not any(_shows(ch) for ch in text):
        raise SetupError("name_shows", "name")
    if reads_as_bot(text):
        raise SetupError("name_bot", "name")
    return text


def check_username(value: Any) -> str:
    """The username as it will be shown, or :class:`SetupError` (field ``username``) saying why
    it cannot be one."""
    if not isinstance(value, str) or not value.strip():
        raise SetupError("username_needed", "username")
    name = normalise(value)
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise SetupError("username_length", "username", low=USERNAME_MIN, high=USERNAME_MAX, n=len(name))
    scripts = set()
    for ch in name:
        if ch.isdigit() and ch.isascii():
            continue
        if ch in PUNCTUATION:
            continue
        script = _script(ch)
        if script not in SCRIPTS:
            raise SetupError("username_signs", "username")
        scripts.add(script)
    if len(scripts) > 1:
        raise SetupError("username_one_alphabet", "username")
    if name[0] in PUNCTUATION:
        raise SetupError("username_start", "username")
    if reads_as_bot(name):
        raise SetupError("username_bot", "username")
    return name


def check_password(value: Any, field: str = "password") -> str:
    """A new password, or :class:`SetupError` saying why it cannot be one."""
    if not isinstance(value, str):
        raise SetupError("password_needed", field)
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise SetupError("password_length", field, low=PASSWORD_MIN, high=PASSWORD_MAX)
    if not value.strip():
        raise SetupError("password_spaces", field)
    return value


class Passwords:
    """Argon2id hashing. ``profile`` names one of argon2-cffi's profiles; the default is RFC
    9106's low-memory one (64 MiB, 3 passes); tests use ``CHEAPEST`` to stay fast."""

    def __init__(self, profile: str = "RFC_9106_LOW_MEMORY") -> None:
        from argon2 import PasswordHasher, Type, profiles

        parameters = getattr(profiles, profile)
        if parameters.type is not Type.ID:
            raise SetupError(f"the password profile {profile!r} is not Argon2id", "profile")
        self._hasher = PasswordHasher.from_parameters(parameters)
        #: Verified when a username is unknown, so that the answer takes as long either way.
        self._decoy = self._hasher.hash("not a password of anybody")

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches the ``stored`` hash (``None``: no account; a decoy
        hash is checked anyway)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            return bool(self._hasher.verify(stored or self._decoy, password)) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return bool(self._hasher.check_needs_rehash(stored))


__all__ = [
    "DELETED_NAME",
    "LOOKALIKES",
    "NAME_MAX",
    "Passwords",
    "check_guest_name",
    "check_password",
    "check_username",
    "normalise",
    "reads_as_bot",
    "skeleton",
    "username_key",
]
