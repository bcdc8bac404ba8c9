"""Re-identification: find again, in a later snapshot, an element the agent acted on.

Two calls: ``record(element, snapshot)`` takes the element's ``Fingerprint`` (role, accessible name,
label, stable attributes, its own card's labels, neighbours, position) when the agent acts on it, and
``relocate(fingerprint, snapshot)`` finds it again — or abstains, with a reason, when no candidate is
clearly the one. Everything else in this package serves those two.
"""

from browser_agent.reid.fingerprint import fingerprint_of as record
from browser_agent.reid.identity import Fingerprint
from browser_agent.reid.matching import LocateResult
from browser_agent.reid.matching import locate as relocate

__all__ = ["Fingerprint", "LocateResult", "record", "relocate"]
