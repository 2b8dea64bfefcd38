"""``python -m frontlines`` is the ``frontlines`` command."""

from frontlines.cli import main

raise SystemExit(main())
