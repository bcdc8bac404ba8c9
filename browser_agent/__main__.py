"""``python -m browser_agent``: the ``browser-agent`` command."""

import sys

from browser_agent.cli import main

sys.exit(main())
