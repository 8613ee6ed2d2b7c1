"""``python -m combinators.integrations.serving module:attribute [--host] [--port] ...``."""

import sys

from combinators.integrations.serving.cli import main

if __name__ == "__main__":
    sys.exit(main())
