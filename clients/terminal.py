#!/usr/bin/env python3
"""Launcher for the terminal client: ``python clients/terminal.py URL [--token T] [--fight F]``.

The same as ``combat-server client``; the client itself is combat_server/tui.py.
"""

import sys

from combat_server.tui import main

if __name__ == "__main__":
    sys.exit(main())
