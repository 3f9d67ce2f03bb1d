"""The terminal interface: ``blot replay``, ``blot simulate``, ``blot play`` and the rest."""
