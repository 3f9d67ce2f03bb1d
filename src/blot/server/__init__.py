"""The browser server (``blot serve``): FastAPI and websockets over the rules engine.

- :mod:`blot.server.app`: the application factory and ``serve``;
- :mod:`blot.server.hub`: tables in memory, players, settings, resume on start;
- :mod:`blot.server.table`: one actor per table, the event log, per-seat views;
- :mod:`blot.server.games`: each game's actions and views as JSON (``docs/protocol.md``);
- :mod:`blot.server.routes`: the HTTP and websocket endpoints, one router per concern.
"""
