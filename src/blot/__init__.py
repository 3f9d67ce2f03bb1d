"""blot: Bazar Blot and 3-5-8 — exact rules engines, bots, records, terminal and browser play."""

__version__ = "0.1.0"
