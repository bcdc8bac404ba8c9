"""The run report: one HTML file, no external assets, that works offline.

A summary (task, result, success, steps, time, tokens by role, errors), then per step the screenshot
with the element marks and the acted-on elements outlined, the model's evaluation, memory and next
goal, the actions and their results, the time split and the tokens. Every text is HTML-escaped; the
history it reads is already redacted.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

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


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def render_html(history: Mapping[str, Any]) -> str:
    """The report for ``history`` (a saved history's JSON data) as one HTML document."""
    steps = list(history.get("steps") or [])
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        f"<title>Run report: {_e(_short(history.get('task', ''), 80))}</title>",
        f"<style>{_CSS}</style></head><body>",
        _summary(history, steps),
        *(_step(step) for step in steps),
        "</body></html>",
    ]
    return "\n".join(parts)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _final(steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    for step in reversed(steps):
        if step.get("results"):
            last: dict[str, Any] = step["results"][-1]
            return last if last.get("is_done") else None
    return None


def _tokens(steps: list[dict[str, Any]], key: str) -> tuple[int, int, int]:
    """Input, output and cached input tokens of ``key`` (a usage field) over ``steps``."""
    used = [s.get(key) or {} for s in steps]
    fields = ("input_tokens", "output_tokens", "cached_input_tokens")
    tokens_in, tokens_out, cached = (sum(u.get(f, 0) for u in used) for f in fields)
    return tokens_in, tokens_out, cached


def _summary(history: Mapping[str, Any], steps: list[dict[str, Any]]) -> str:
    final = _final(steps)
    success = final.get("success") is True if final else None
    verdict = {True: "<b class=ok>yes</b>", False: "<b class=bad>no</b>", None: "<b class=bad>not done</b>"}
    seconds = sum((s.get("timings") or {}).get("total_ms", 0.0) for s in steps) / 1000
    errors = sum(1 for s in steps for r in s.get("results", []) if r.get("error")) + sum(
        1 for s in steps if s.get("error")
    )
    rows = [
        ("Task", _e(history.get("task", ""))),
        ("Result", _e(final.get("extracted_content") or "") if final else "<span class=dim>none</span>"),
        ("Success", verdict[success]),
        ("Ended by", _e(history.get("end_reason") or "unknown")),
        ("Steps", str(len(steps))),
        ("Time", f"{seconds:.1f} s"),
        ("Errors", str(errors)),
    ]
    for role, key in (("agent", "usage"), ("planner", "planner_usage"), ("extraction", "extraction_usage")):
        tokens_in, tokens_out, cached = _tokens(steps, key)
        if tokens_in or tokens_out or role == "agent":
            note = f" ({cached:,} in from the provider's cache)" if cached else ""
            rows.append((f"Tokens ({role})", f"{tokens_in:,} in / {tokens_out:,} out{note}"))
    body = "".join(f"<tr><td class=dim>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<header><h1>Run report</h1><table class=sum>{body}</table></header>"


def _step(step: dict[str, Any]) -> str:
    number = step.get("step", "?")
    out = [f"<section id=step-{_e(number)} class=step><h2>Step {_e(number)}</h2>"]
    out.append(f"<div class='url dim'>{_e(step.get('url', ''))} — {_e(step.get('title', ''))}</div>")
    if step.get("screenshot"):
        out.append(_screenshot(step["screenshot"], number))
    brain = (step.get("model_output") or {}).get("current_state") or {}
    if brain:
        out.append("<div class=brain>")
        for label, key in _BRAIN:
            out.append(f"<p><span class=dim>{label}:</span> {_e(brain.get(key, ''))}</p>")
        out.append("</div>")
    if step.get("plan"):
        out.append(f"<p><span class=dim>Plan:</span> {_e(step['plan'])}</p>")
    out.append(_actions(step))
    if step.get("error"):
        out.append(f"<p class=bad>Step failed: {_e(step['error'])}</p>")
    out.append(_meta(step))
    out.append("</section>")
    return "".join(out)


def _screenshot(shot: dict[str, Any], number: Any) -> str:
    width, height = shot.get("width") or 1, shot.get("height") or 1
    boxes = "".join(
        f"<rect x='{x:.0f}' y='{y:.0f}' width='{w:.0f}' height='{h:.0f}' fill='none' stroke='#ffd400' "
        "stroke-width='5'/><rect x='{0:.0f}' y='{1:.0f}' width='{2:.0f}' height='{3:.0f}' fill='none' "
        "stroke='#000' stroke-width='1.5'/>".format(x, y, w, h)
        for x, y, w, h in shot.get("targets", [])
    )
    svg = f"<svg viewBox='0 0 {width} {height}' preserveAspectRatio='none' aria-hidden=true>{boxes}</svg>"
    data = _e(shot["jpeg_b64"])
    image = f"<img alt='Step {_e(number)} screenshot' src='data:image/jpeg;base64,{data}'>"
    return f"<div class=shot>{image}{svg}</div>"


def _actions(step: dict[str, Any]) -> str:
    actions = (step.get("model_output") or {}).get("action") or []
    results = step.get("results") or []
    items = []
    for position, action in enumerate(actions):
        name = action.get("action", "?")
        args = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "action")
        result = results[position] if position < len(results) else {}
        if result.get("error"):
            outcome = f"<span class=bad>failed: {_e(result['error'])}</span>"
        elif result.get("skipped"):
            outcome = f"<span class=dim>skipped: {_e(result.get('extracted_content') or '')}</span>"
        else:
            outcome = f"<span class=ok>{_e(_short(result.get('extracted_content') or 'ok', 600))}</span>"
        items.append(f"<li><code>{_e(name)}({_e(args)})</code> → {outcome}</li>")
    return f"<ol class=actions>{''.join(items)}</ol>" if items else ""


def _meta(step: dict[str, Any]) -> str:
    t = step.get("timings") or {}
    usage = step.get("usage") or {}
    parts = [
        f"{t.get('total_ms', 0) / 1000:.2f} s (capture {t.get('state_ms', 0):.0f} ms, "
        f"model {t.get('model_ms', 0):.0f} ms, actions {t.get('actions_ms', 0):.0f} ms)",
        f"tokens {usage.get('input_tokens', 0):,} in / {usage.get('output_tokens', 0):,} out",
    ]
    if usage.get("cached_input_tokens"):
        parts[-1] += f" ({usage['cached_input_tokens']:,} in from the provider's cache)"
    extra = step.get("extraction_usage") or {}
    if extra.get("input_tokens"):
        parts.append(f"extraction {extra['input_tokens']:,} in / {extra.get('output_tokens', 0):,} out")
    planner = step.get("planner_usage") or {}
    if planner.get("input_tokens"):
        parts.append(f"planner {planner['input_tokens']:,} in / {planner.get('output_tokens', 0):,} out")
    if step.get("corrections"):
        parts.append(f"{step['corrections']} correction(s)")
    for retry in step.get("retries") or []:
        parts.append(f"retry: {_e(retry)}")
    return f"<div class=meta>{' · '.join(parts)}</div>"
