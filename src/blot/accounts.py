"""Accounts: the rules for usernames and passwords, and password hashing (Argon2id).

A username is shown as its owner typed it (after Unicode NFKC normalisation) and is unique
without regard to case: its *key* is the normalised name case-folded, so ``Ani``, ``ANI`` and
``ani`` are one account. Usernames are 3 to 20 characters: letters of one alphabet (Latin,
Armenian or Cyrillic: a name that mixes them could pass for another), digits and ``_ - .``,
starting with a letter or a digit. Passwords are 8 to 128 characters and are stored only as
Argon2id hashes (argon2-cffi, RFC 9106's low-memory profile by default).

>>> username_key("  Ani_1 ")
'ani_1'
>>> check_username("Գոհար")
'Գոհար'
>>> check_username("Ani Gohar")
Traceback (most recent call last):
...
blot.errors.SetupError: a username has only letters, digits and _ - . (no spaces or other signs)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from blot.errors import SetupError

USERNAME_MIN, USERNAME_MAX = 3, 20
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


def check_username(value: Any) -> str:
    """The username as it will be shown, or :class:`SetupError` (field ``username``) saying why
    it cannot be one."""
    if not isinstance(value, str) or not value.strip():
        raise SetupError("a username is needed", "username")
    name = normalise(value)
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise SetupError(
            f"a username has {USERNAME_MIN} to {USERNAME_MAX} characters, not {len(name)}", "username"
        )
    scripts = set()
    for ch in name:
        if ch.isdigit() and ch.isascii():
            continue
        if ch in PUNCTUATION:
            continue
        script = _script(ch)
        if script not in SCRIPTS:
            raise SetupError(
                "a username has only letters, digits and _ - . (no spaces or other signs)", "username"
            )
        scripts.add(script)
    if len(scripts) > 1:
        raise SetupError("a username uses the letters of one alphabet only", "username")
    if name[0] in PUNCTUATION:
        raise SetupError("a username starts with a letter or a digit", "username")
    return name


def check_password(value: Any, field: str = "password") -> str:
    """A new password, or :class:`SetupError` saying why it cannot be one."""
    if not isinstance(value, str):
        raise SetupError("a password is needed", field)
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise SetupError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters", field)
    if not value.strip():
        raise SetupError("a password cannot be only spaces", field)
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
    "Passwords",
    "check_password",
    "check_username",
    "normalise",
    "username_key",
]
