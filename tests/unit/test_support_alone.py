"""tests/support/alone.py: an ``alone`` test waits for the running tests, and none starts beside it."""

from __future__ import annotations

import threading
from pathlib import Path

from tests.support.alone import turn


class Holder(threading.Thread):
    """Takes a turn, says when it is in, and keeps it until released."""

    def __init__(self, folder: Path, *, alone: bool) -> None:
        super().__init__(daemon=True)
        self.folder, self.alone = folder, alone
        self.inside, self.release = threading.Event(), threading.Event()

    def run(self) -> None:
        with turn(self.folder, alone=self.alone):
            self.inside.set()
            self.release.wait(10)


def test_an_alone_turn_waits_for_running_tests_and_holds_back_new_ones(tmp_path: Path) -> None:
    running, other = Holder(tmp_path, alone=False), Holder(tmp_path, alone=False)
    running.start()
    other.start()
    assert running.inside.wait(5) and other.inside.wait(5), "ordinary tests share their turn"
    lonely = Holder(tmp_path, alone=True)
    lonely.start()
    assert not lonely.inside.wait(0.3), "an alone test started beside running ones"
    late = Holder(tmp_path, alone=False)
    late.start()
    running.release.set()
    assert not lonely.inside.wait(0.3), "an alone test started before every running test ended"
    other.release.set()
    assert lonely.inside.wait(5), "the alone test never got its turn"
    assert not late.inside.wait(0.3), "a test started beside the alone one"
    lonely.release.set()
    assert late.inside.wait(5), "the tests held back never went on"
    late.release.set()
    for holder in (running, other, lonely, late):
        holder.join(5)
