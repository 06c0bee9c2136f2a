"""``python -m toolwire.cli``."""

import sys

from toolwire.cli import main

sys.exit(main())
