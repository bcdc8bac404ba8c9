"""Run an exported ``--heal`` script as its own process, as ``python SCRIPT`` would, with a scripted model
standing in for the real one its healing asks (``tests/support/healer.py``: it acts on the element that
says the renamed words).

``python -m tests.support.heal_script SCRIPT '{"Add to cart": "Add to bag"}'``
"""

from __future__ import annotations

import json
import runpy
import sys

from browser_agent.script_healing import use_model
from tests.support.healer import healer


def main(argv: list[str]) -> None:
    script, renames = argv
    use_model(healer(json.loads(renames)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
