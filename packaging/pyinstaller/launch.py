"""The frozen app's entry script: PyInstaller runs a script, not a package's __main__ (relative imports)."""

import sys

from fanyi.__main__ import run

if __name__ == "__main__":
    sys.exit(run())
