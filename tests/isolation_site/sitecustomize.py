"""Python runs this at start-up when this folder is on PYTHONPATH, as in every process the tests start."""

import isolation_guard

isolation_guard.install()
