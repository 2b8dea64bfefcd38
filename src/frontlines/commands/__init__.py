"""One module per ``frontlines`` subcommand (see :mod:`frontlines.cli`)."""
