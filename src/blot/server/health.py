"""Whether the database takes writes, followed so that a failing disk costs one log line per
burst, not one traceback per attempt, and tables back off instead of retrying at bot speed.

Nothing is announced that was not stored: a table whose write fails folds its log again from the
database and tells its clients the snapshot (:meth:`blot.server.table.Table._commit`); this
module only decides how loud that is and how soon the table tries again.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("blot.server")

#: Seconds a table waits before it tries again after a failed write: doubling from the first
#: to the last.
FIRST_BACKOFF, LAST_BACKOFF = 1.0, 60.0


def is_storage_failure(error: BaseException) -> bool:
    """A database or disk error (not a bug in blot): answered 503, retried later."""
    from sqlalchemy.exc import InterfaceError, OperationalError, TimeoutError

    return isinstance(error, OperationalError | InterfaceError | TimeoutError)


def reason(error: BaseException) -> str:
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error)
    return f"{type(orig if orig is not None else error).__name__}: {' '.join(text.split())[:200]}"


class StorageHealth:
    """Counts failed writes in a row; the first of a burst and the recovery are logged."""

    def __init__(self) -> None:
        self.failures = 0
        self._since = 0.0

    def failed(self, error: BaseException) -> None:
        self.failures += 1
        if self.failures == 1:
            self._since = time.monotonic()
            log.error("storage failing (%s); tables wait and retry, one line per burst", reason(error))

    def ok(self) -> None:
        if self.failures:
            log.warning(
                "storage works again after %d failures in %.0f s",
                self.failures,
                time.monotonic() - self._since,
            )
            self.failures = 0

    def backoff(self) -> float:
        """Seconds to wait before the next automatic write (0 while writes work)."""
        if not self.failures:
            return 0.0
        return min(LAST_BACKOFF, FIRST_BACKOFF * float(2 ** min(self.failures - 1, 10)))
