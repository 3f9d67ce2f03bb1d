"""Where blot keeps its files, in a module light enough for every command to import."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "blot"


def data_dir() -> Path:
    """Where blot keeps its files: ``$BLOT_DATA_DIR``, else the user's data directory."""
    env = os.environ.get("BLOT_DATA_DIR")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))
