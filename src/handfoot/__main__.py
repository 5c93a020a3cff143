"""``python -m handfoot``: the same as the ``handfoot`` command."""

from handfoot.cli import main

main()
