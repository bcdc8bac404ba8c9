"""The viewers connected to the UI, and what each is sent: every event in order, and the newest frame.

Events (a step began, a step ended, the run paused, a question for the human) are small and all matter:
each viewer gets every one, in order, and a viewer that connects late first gets the backlog of the run
under way. Frames are large and only the newest matters: a slow viewer skips frames, never events.
Each WebSocket message is a JSON list: the events gathered since the last (at most every
``EVENT_GAP_S``), then the newest frame.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["Event", "Hub", "Viewer"]

Event = dict[str, Any]
MAX_BACKLOG = 2_000  # events kept for viewers who connect during a long run
# A viewer is sent events at most this often (the first after a quiet spell at once); frames go at once. Half
# a second is quick for a person and halves what the viewer's browser spends drawing a fast run (0.1 s: 15-18
# ms of CPU a step; 0.5 s: 7-9 ms).
EVENT_GAP_S = 0.5


class Viewer:
    """One connected page: its pending events, the newest frame not yet sent, and a wake-up call."""

    def __init__(self) -> None:
        self.events: deque[Event] = deque()
        self.frame: Event | None = None
        self.wake = asyncio.Event()
        self._events_sent = -EVENT_GAP_S  # when events were last handed out (monotonic)

    def push(self, event: Event) -> None:
        self.events.append(event)
        self.wake.set()

    def show(self, frame: Event) -> None:
        self.frame = frame
        self.wake.set()

    async def next_batch(self, gap: float = EVENT_GAP_S) -> list[Event]:
        """Wait for something to send: the pending events, at most every ``gap`` seconds (a fast run's
        events of several steps go as one message, not one message each, which is work for the viewer's
        browser on the machine the agent runs on), then the newest frame, as soon as it comes."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch: list[Event] = []
            waited = time.monotonic() - self._events_sent
            if self.events and waited >= gap:
                batch.extend(self.events)
                self.events.clear()
                self._events_sent = time.monotonic()
            elif self.events:  # too soon after the last: they go with the next wake-up, by then at the latest
                asyncio.get_running_loop().call_later(gap - waited, self.wake.set)
            if self.frame is not None:
                batch.append(self.frame)
                self.frame = None
            if batch:
                return batch


class Hub:
    """Fans events and frames out to the viewers; tells ``on_watchers`` when the first comes or the last
    goes (the screencast runs only while someone watches)."""

    def __init__(self, on_watchers: Callable[[bool], None] | None = None) -> None:
        self.viewers: set[Viewer] = set()
        self.backlog: deque[Event] = deque(maxlen=MAX_BACKLOG)
        self.last_frame: Event | None = None  # what a viewer sees first, before the page repaints
        self.on_watchers = on_watchers

    def connect(self) -> Viewer:
        viewer = Viewer()
        for event in self.backlog:
            viewer.push(event)
        if self.last_frame is not None:
            viewer.show(self.last_frame)
        self.viewers.add(viewer)
        if len(self.viewers) == 1 and self.on_watchers is not None:
            self.on_watchers(True)
        return viewer

    def disconnect(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)
        if not self.viewers and self.on_watchers is not None:
            self.on_watchers(False)

    def publish(self, event: Event, *, keep: bool = True) -> None:
        """Send ``event`` to every viewer; kept in the backlog for later viewers unless ``keep`` is False."""
        if keep:
            self.backlog.append(event)
        for viewer in self.viewers:
            viewer.push(event)

    def show(self, frame: Event) -> None:
        self.last_frame = frame
        for viewer in self.viewers:
            viewer.show(frame)

    def clear(self) -> None:
        """Forget the backlog and the last frame: a new run begins."""
        self.backlog.clear()
        self.last_frame = None

    @property
    def watched(self) -> bool:
        return bool(self.viewers)
