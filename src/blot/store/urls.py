"""Where the database is (issue 39 item 3: the store's URLs): the default SQLite file in the data
directory, an existing database for the commands that only read or change one, a URL without its
password for the log, and the one sentence of a database error."""

from __future__ import annotations

from pathlib import Path

from blot.errors import BlotError
from blot.paths import data_dir

DB_FILE = "blot.sqlite3"


class StoreError(BlotError):
    """The database cannot be opened or used (a bad URL, a missing driver, a file that cannot be
    created); the message is one sentence for the person who gave the URL or the folder."""


def default_url(directory: Path | None = None) -> str:
    """The SQLite file in the data directory (the directory is created when missing)."""
    folder = directory or data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"the data directory {folder} is a file, not a folder") from None
    except OSError as e:
        raise StoreError(f"the data directory {folder} cannot be created: {e.strerror or e}") from None
    if not folder.is_dir():
        raise StoreError(f"the data directory {folder} is a file, not a folder")
    return f"sqlite:///{folder / DB_FILE}"


def _exists(path: Path, dir_: bool = False) -> bool:
    """Whether ``path`` is a folder (``dir_``) or a file; False for a name the system refuses
    (too long, not encodable)."""
    try:
        return path.is_dir() if dir_ else path.is_file()
    except (OSError, ValueError):
        return False


def existing_url(db: str | None, directory: Path | None = None) -> str:
    """The database that already holds blot serve's data: ``db``, else the SQLite file in the
    data directory. For commands that only read or change what is there (``blot admin``), a
    data directory or SQLite file that does not exist is a :class:`StoreError`: a mistyped
    folder must not quietly become an empty database."""
    if db is None:
        folder = directory or data_dir()
        if not _exists(folder, dir_=True):
            raise StoreError(f"the data directory {folder} does not exist (blot serve creates it)")
        db = f"sqlite:///{folder / DB_FILE}"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(db)
    except ArgumentError:
        return db  # Store.open says what is wrong with it
    name = parsed.database
    if parsed.get_backend_name() == "sqlite" and name and name != ":memory:" and not _exists(Path(name)):
        raise StoreError(f"there is no database {name} (blot serve creates it)")
    return db


def safe_url(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("://")
    if "@" in tail and ":" in tail.split("@", 1)[0]:
        user = tail.split("@", 1)[0].split(":", 1)[0]
        tail = f"{user}:***@{tail.split('@', 1)[1]}"
    return head + sep + tail


def _reason(error: BaseException) -> str:
    """The driver's own sentence for a database error, without SQLAlchemy's extras."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error)
    return " ".join(text.split("\n")[0].split()) or type(error).__name__
