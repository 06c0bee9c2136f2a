"""``python -m toolwire.cli`` (same as ``python -m toolwire``)."""

import sys

from toolwire.cli import main

sys.exit(main())
