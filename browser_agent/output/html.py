"""The run report: one HTML file, no external assets, that works offline.

A summary (task, result, success, steps, time, tokens by role, errors), then per step the screenshot
with the element marks and the acted-on elements outlined, the model's evaluation, memory and next
goal, the actions and their results, the time split and the tokens; last, the page after the last
action (``AgentHistory.final_screenshot``), so whether the final action worked shows. Every text is
HTML-escaped; the history it reads is already redacted.
"""

from __future__ import annotations

import html
from typing import Any

from browser_agent.record import (
    AgentHistory,
    AgentStep,
    StepScreenshot,
    TokenUsage,
    describe_call,
    describe_outcome,
)

__all__ = ["render_html"]

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header,section{max-width:1100px;margin:16px auto;background:#fff;border-radius:8px;padding:16px 20px;
box-shadow:0 1px 3px #0002}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:0 0 8px}
table.sum td{padding:2px 14px 2px 0;vertical-align:top}
.ok{color:#1a7f37}.bad{color:#c62828}.dim{color:#667}.url{word-break:break-all}
.shot{position:relative;display:inline-block;max-width:100%;margin:8px 0;border:1px solid #ccd}
.shot img{display:block;max-width:100%;height:auto}
.shot svg{position:absolute;inset:0;width:100%;height:100%}
.brain p{margin:2px 0}ol.actions{margin:6px 0;padding-left:22px}
code{font:12px ui-monospace,monospace;background:#f0f1f4;padding:1px 4px;border-radius:3px}
.meta{font-size:12px;color:#556}
"""


_BRAIN = (("Evaluation", "evaluation_previous_goal"), ("Memory", "memory"), ("Next goal", "next_goal"))
_OUTCOME_CLASS = {"failed": "bad", "skipped": "dim", "ok": "ok"}


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def render_html(history: AgentHistory) -> str:
    """The report for ``history`` as one HTML document (``AgentHistory.load`` reads a saved one)."""
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        f"<title>Run report: {_e(_short(history.task, 80))}</title>",
        f"<style>{_CSS}</style></head><body>",
        _summary(history),
        *(_step(step) for step in history.steps),
        _after(history.final_screenshot),
        "</body></html>",
    ]
    return "\n".join(parts)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tokens(usage: TokenUsage) -> str:
    cached = (
        f" ({usage.cached_input_tokens:,} in from the provider's cache)" if usage.cached_input_tokens else ""
    )
    return f"{usage.input_tokens:,} in / {usage.output_tokens:,} out{cached}"


def _summary(history: AgentHistory) -> str:
    verdict = {True: "<b class=ok>yes</b>", False: "<b class=bad>no</b>", None: "<b class=bad>not done</b>"}
    final = history.final_result()
    rows = [
        ("Task", _e(history.task)),
        ("Result", _e(final) if final is not None else "<span class=dim>none</span>"),
        ("Success", verdict[history.is_successful()]),
        ("Ended by", _e(history.end_reason or "unknown")),
        ("Steps", _e(history.steps_label())),
        ("Time", f"{history.total_duration_seconds():.1f} s"),
        ("Errors", str(history.error_count())),
    ]
    usage = history.usage
    for role in ("agent", "planner", "extraction"):
        used: TokenUsage = getattr(usage, role)
        if used.input_tokens or used.output_tokens or role == "agent":
            rows.append((f"Tokens ({role})", _tokens(used)))
    body = "".join(f"<tr><td class=dim>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<header><h1>Run report</h1><table class=sum>{body}</table></header>"


def _step(step: AgentStep) -> str:
    out = [f"<section id=step-{step.step} class=step><h2>Step {step.step}</h2>"]
    out.append(f"<div class='url dim'>{_e(step.url)} — {_e(step.title)}</div>")
    if step.screenshot is not None:
        out.append(_screenshot(step.screenshot, f"Step {step.step} screenshot"))
    if step.brain is not None:
        out.append("<div class=brain>")
        for label, key in _BRAIN:
            out.append(f"<p><span class=dim>{label}:</span> {_e(getattr(step.brain, key))}</p>")
        out.append("</div>")
    if step.plan:
        out.append(f"<p><span class=dim>Plan:</span> {_e(step.plan)}</p>")
    out.append(_actions(step))
    if step.error:
        out.append(f"<p class=bad>Step failed: {_e(step.error)}</p>")
    out.append(_meta(step))
    out.append("</section>")
    return "".join(out)


def _after(shot: StepScreenshot | None) -> str:
    """The page after the last action, taken as the run ended (runs recorded before it was kept: none)."""
    if shot is None:
        return ""
    picture = _screenshot(shot, "the page after the last action")
    return f"<section id=after><h2>After the last action</h2>{picture}</section>"


def _screenshot(shot: StepScreenshot, what: str) -> str:
    width, height = shot.width or 1, shot.height or 1
    boxes = "".join(
        f"<rect x='{x:.0f}' y='{y:.0f}' width='{w:.0f}' height='{h:.0f}' fill='none' stroke='#ffd400' "
        "stroke-width='5'/><rect x='{0:.0f}' y='{1:.0f}' width='{2:.0f}' height='{3:.0f}' fill='none' "
        "stroke='#000' stroke-width='1.5'/>".format(x, y, w, h)
        for x, y, w, h in shot.targets
    )
    svg = f"<svg viewBox='0 0 {width} {height}' preserveAspectRatio='none' aria-hidden=true>{boxes}</svg>"
    image = f"<img alt='{_e(what)}' src='data:image/jpeg;base64,{_e(shot.jpeg_b64)}'>"
    return f"<div class=shot>{image}{svg}</div>"


def _actions(step: AgentStep) -> str:
    items = []
    for position, call in enumerate(step.actions):
        if position < len(step.results):
            outcome = describe_outcome(step.results[position]).cut(600)
            shown = f"<span class={_OUTCOME_CLASS[outcome.kind]}>{_e(outcome)}</span>"
        else:
            shown = "<span class=dim>not run</span>"
        items.append(f"<li><code>{_e(describe_call(call))}</code> → {shown}</li>")
    return f"<ol class=actions>{''.join(items)}</ol>" if items else ""


def _meta(step: AgentStep) -> str:
    t = step.timings
    parts = [
        f"{t.total_ms / 1000:.2f} s (capture {t.state_ms:.0f} ms, model {t.model_ms:.0f} ms, "
        f"actions {t.actions_ms:.0f} ms)",
        f"tokens {_tokens(step.usage)}",
    ]
    if step.extraction_usage.input_tokens:
        parts.append(f"extraction {_tokens(step.extraction_usage)}")
    if step.planner_usage.input_tokens:
        parts.append(f"planner {_tokens(step.planner_usage)}")
    if step.corrections:
        parts.append(f"{step.corrections} correction(s)")
    parts.extend(f"retry: {_e(retry)}" for retry in step.retries)
    return f"<div class=meta>{' · '.join(parts)}</div>"
