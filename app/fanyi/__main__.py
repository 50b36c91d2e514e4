"""`python -m fanyi` (and the `fanyi` command, and the frozen app): the app with no arguments, the
command line with a subcommand."""

import sys

from .terminal import exit_quietly_on_signals


def run() -> int:
    exit_quietly_on_signals()  # before the imports that a Ctrl+C would end in a traceback
    from .cli import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
