"""The frozen app's entry script: PyInstaller runs a script, not a package's __main__ (relative imports)."""

import sys

from fanyi.cli import main

if __name__ == "__main__":
    sys.exit(main())
