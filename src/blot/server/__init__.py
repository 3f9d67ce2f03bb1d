"""The browser server (``blot serve``): FastAPI and websockets over the rules engine.

- :mod:`blot.server.app`: the application factory and ``serve``;
- :mod:`blot.server.hub`: tables in memory, players, settings, resume on start;
- :mod:`blot.server.table`: one actor per table: its queue, the event log, committing,
  rebuilding from the log, per-seat views (cut by :mod:`blot.wire`);
- :mod:`blot.server.seats`: seating and presence; :mod:`blot.server.turns`: dealing, bots, the
  turn timer and automatic moves; :mod:`blot.server.connection`: one client's message queue;
- :mod:`blot.server.routes`: the HTTP and websocket endpoints, one router per concern.
"""
