"""``python -m blot`` is the ``blot`` command."""

from blot.cli.main import main

main()
