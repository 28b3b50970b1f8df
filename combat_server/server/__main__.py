"""``python -m combat_server.server [serve options]``: the server without the main CLI."""

import sys

from combat_server.server.cli import main

sys.exit(main())
