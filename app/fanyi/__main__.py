"""`python -m fanyi`: the app with no arguments, the command line with a subcommand."""

import sys

from .cli import main

sys.exit(main())
