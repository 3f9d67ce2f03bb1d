"""The progress bar of long runs (``blot simulate``, ``arena``, ``analyse``): on standard error,
only when both standard output and standard error are a terminal, so that piped or redirected
output stays exactly what the command prints; transient, so it leaves nothing behind."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)


def progress_bar(*extra: ProgressColumn) -> Progress:
    """A bar with the task's description, done of total, ``extra`` columns and the time left;
    disabled (it prints nothing) unless it runs on a terminal."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *extra,
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not (console.is_terminal and sys.stdout.isatty()),
    )
