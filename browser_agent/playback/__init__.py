"""Play a recorded run back without the model: each recorded element is re-located by its fingerprint
(``browser_agent.reid``) and acted on, or the step abstains, is skipped, or is handed to a model."""

from browser_agent.playback.replayer import ReplayedAction, ReplayOptions, ReplayReport, replay, replay_fence

__all__ = ["ReplayOptions", "ReplayReport", "ReplayedAction", "replay", "replay_fence"]
