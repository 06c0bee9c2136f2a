"""``python -m toolwire``: the ``toolwire`` command."""

import sys

from toolwire.cli import main

if __name__ == "__main__":
    sys.exit(main())
