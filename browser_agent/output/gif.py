"""An animated GIF of a run: each step's screenshot, the acted-on elements outlined, the goal as caption.

Needs the imaging extra (``pip install 'pw-browser-agent[gif]'``, Pillow), imported only when called.
"""

from __future__ import annotations

import base64
import io
import textwrap
from typing import Any

from browser_agent.errors import UserError
from browser_agent.extras import require
from browser_agent.record import AgentHistory, AgentStep, StepScreenshot

__all__ = ["render_gif"]

_WIDTH = 800
_CAPTION_LINES = 2
_LINE_HEIGHT = 18
_FRAME_MS = 1_500


def render_gif(history: AgentHistory, *, width: int = _WIDTH, frame_ms: int = _FRAME_MS) -> bytes:
    """The GIF of ``history``, one frame per step with a screenshot.

    Raises:
        UserError: Pillow is missing, or no step has a screenshot (record with
            ``AgentSettings(record_screenshots=True)``, which ``--report``/``--gif`` turn on).
    """
    image_module = require("PIL.Image", "gif", "An animated GIF of the run")
    frames = [
        _frame(image_module, step, step.screenshot, width)
        for step in history.steps
        if step.screenshot is not None
    ]
    if not frames:
        raise UserError(
            "No step of this run has a screenshot; record them with AgentSettings(record_screenshots=True) "
            "(browser-agent run --gif/--report turns it on)."
        )
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=frame_ms, loop=0)
    return out.getvalue()


def _frame(image_module: Any, step: AgentStep, shot: StepScreenshot, width: int) -> Any:
    draw_module = require("PIL.ImageDraw", "gif", "An animated GIF of the run")
    font_module = require("PIL.ImageFont", "gif", "An animated GIF of the run")
    picture = image_module.open(io.BytesIO(base64.b64decode(shot.jpeg_b64))).convert("RGB")
    scale = picture.width / max(1, shot.width or picture.width)
    pen = draw_module.Draw(picture)
    for x, y, w, h in shot.targets:
        box = [x * scale, y * scale, (x + w) * scale, (y + h) * scale]
        pen.rectangle(box, outline=(255, 212, 0), width=max(3, round(4 * scale)))
    height = round(picture.height * width / picture.width)
    picture = picture.resize((width, height))
    frame = image_module.new("RGB", (width, height + _CAPTION_LINES * _LINE_HEIGHT + 8), (20, 24, 32))
    frame.paste(picture, (0, 0))
    caption = f"Step {step.step}: {step.next_goal or step.error or ''}"
    lines = textwrap.wrap(caption, width=width // 8)[:_CAPTION_LINES]
    font = font_module.load_default()
    text_pen = draw_module.Draw(frame)
    for row, line in enumerate(lines):
        text_pen.text((8, height + 4 + row * _LINE_HEIGHT), line, fill=(255, 255, 255), font=font)
    return frame.convert("P", palette=image_module.Palette.ADAPTIVE)
