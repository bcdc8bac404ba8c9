"""An evaluation's results as one self-contained HTML file: success per task and family with its 95 %
interval, a bar chart (inline SVG), tokens and seconds per step, how the failures ended, every episode.

No script, no external file: the report opens from disk or an e-mail, and reads the same in ten years.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from browser_agent import artifacts
from browser_agent.eval.episode_record import FAILURE_KINDS, EpisodeRecord
from browser_agent.eval.summary import Group, by_family, by_task, total

__all__ = ["render_report", "write_report"]

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.25em .7em;border-bottom:1px solid #ddd}
th{text-align:left;background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#176b2c}.bad{color:#a0211b}.muted{color:#777}.detail{max-width:40em;font-size:.9em}
"""
_BAR_HEIGHT, _LABEL_WIDTH, _PLOT_WIDTH = 20, 190, 420
_PALETTE = ("#3b6fb6", "#d9822b", "#4c9a52", "#b34a8b", "#7a6bb8", "#8c6d3f", "#3a9a9a", "#a33c3c")


def write_report(records: Sequence[EpisodeRecord], path: Path, *, title: str = "Evaluation") -> Path:
    """Write the report of ``records`` to ``path`` (folders made as needed); return ``path``."""
    return artifacts.write_text(path, render_report(records, title=title))


def render_report(records: Sequence[EpisodeRecord], *, title: str = "Evaluation") -> str:
    """The report as an HTML document."""
    everything = total(records)
    tasks, families = by_task(records), by_family(records)
    models = sorted({r.model for r in records if r.model})
    low, high = everything.interval
    parts = [
        f"<!doctype html><html lang='en'><meta charset='utf-8'><title>{_e(title)}</title>",
        f"<style>{_CSS}</style><body><h1>{_e(title)}</h1>",
        f"<p><b>{everything.successes} of {everything.n}</b> episodes succeeded "
        f"({_pct(everything.rate)}, 95 % interval {_pct(low)}–{_pct(high)}); "
        f"model {_e(', '.join(models) or 'not recorded')}; {everything.steps} steps, "
        f"{_num(everything.per_step(everything.input_tokens))} input tokens and "
        f"{everything.per_step(everything.seconds):.2f} s per step.</p>",
        "<h2>Success per task</h2>",
        _chart(tasks, [f.name for f in families]),
        "<p class='muted'>Bars: the share of episodes that succeeded; whiskers: the 95 % Wilson "
        "interval.</p>",
        "<h2>Per family</h2>",
        _groups_table(families, "family"),
        "<h2>Per task</h2>",
        _groups_table(tasks, "task"),
        "<h2>How the failures ended</h2>",
        _failures_table(records),
        "<h2>Episodes</h2>",
        _episodes_table(records),
        "</body></html>",
    ]
    return "\n".join(parts)


def _chart(groups: Sequence[Group], families: list[str]) -> str:
    """Horizontal bars of the success rate, one per task, colored by family, with the interval."""
    height = _BAR_HEIGHT * len(groups) + 30
    width = _LABEL_WIDTH + _PLOT_WIDTH + 70
    rows = []
    for row, group in enumerate(groups):
        y = row * _BAR_HEIGHT + 4
        color = _PALETTE[families.index(group.family or "-") % len(_PALETTE)]
        low, high = (_LABEL_WIDTH + v * _PLOT_WIDTH for v in group.interval)
        middle = y + (_BAR_HEIGHT - 6) / 2
        rows.append(
            f"<text x='{_LABEL_WIDTH - 6}' y='{middle + 4:.1f}' text-anchor='end'>{_e(group.name)}</text>"
            f"<rect x='{_LABEL_WIDTH}' y='{y}' width='{group.rate * _PLOT_WIDTH:.1f}' "
            f"height='{_BAR_HEIGHT - 6}' fill='{color}'><title>{_e(group.family)}</title></rect>"
            f"<line x1='{low:.1f}' x2='{high:.1f}' y1='{middle:.1f}' y2='{middle:.1f}' stroke='#222'/>"
            f"<text x='{_LABEL_WIDTH + _PLOT_WIDTH + 8}' y='{middle + 4:.1f}'>"
            f"{group.successes}/{group.n}</text>"
        )
    axis_y = _BAR_HEIGHT * len(groups) + 8
    ticks = "".join(
        f"<line x1='{_LABEL_WIDTH + t * _PLOT_WIDTH}' x2='{_LABEL_WIDTH + t * _PLOT_WIDTH}' y1='0' "
        f"y2='{axis_y}' stroke='#ddd'/><text x='{_LABEL_WIDTH + t * _PLOT_WIDTH}' y='{axis_y + 14}' "
        f"text-anchor='middle'>{int(t * 100)} %</text>"
        for t in (0, 0.25, 0.5, 0.75, 1)
    )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"font-size='12' role='img' aria-label='success per task'>{ticks}{''.join(rows)}</svg>"
    )


def _groups_table(groups: Sequence[Group], what: str) -> str:
    head = (
        f"<tr><th>{what}</th>{'<th>family</th>' if what == 'task' else ''}<th>success</th><th>rate</th>"
        "<th>95 % interval</th><th>steps</th><th>input tokens / step</th><th>cached / step</th>"
        "<th>output tokens / step</th><th>s / step</th><th>failures</th></tr>"
    )
    rows = []
    for g in groups:
        low, high = g.interval
        failures = ", ".join(f"{kind} {count}" for kind, count in g.failures.most_common())
        rows.append(
            f"<tr><td>{_e(g.name)}</td>{f'<td>{_e(g.family)}</td>' if what == 'task' else ''}"
            f"<td class=n>{g.successes}/{g.n}</td><td class=n>{_pct(g.rate)}</td>"
            f"<td class=n>{_pct(low)}–{_pct(high)}</td><td class=n>{g.steps}</td>"
            f"<td class=n>{_num(g.per_step(g.input_tokens))}</td>"
            f"<td class=n>{_num(g.per_step(g.cached_input_tokens))}</td>"
            f"<td class=n>{_num(g.per_step(g.output_tokens))}</td>"
            f"<td class=n>{g.per_step(g.seconds):.2f}</td><td>{_e(failures) or '–'}</td></tr>"
        )
    return f"<table>{head}{''.join(rows)}</table>"


def _failures_table(records: Sequence[EpisodeRecord]) -> str:
    counts = Counter(r.failure for r in records)
    failed = sum(count for kind, count in counts.items() if kind != "none")
    rows = "".join(
        f"<tr><td>{kind}</td><td class=n>{counts[kind]}</td><td class=n>"
        f"{_pct(counts[kind] / failed) if failed else '–'}</td></tr>"
        for kind in FAILURE_KINDS
        if kind != "none"
    )
    return f"<table><tr><th>ending</th><th>episodes</th><th>of the failures</th></tr>{rows}</table>"


def _episodes_table(records: Sequence[EpisodeRecord]) -> str:
    head = (
        "<tr><th>task</th><th>seed</th><th>result</th><th>reward</th><th>steps</th><th>calls</th>"
        "<th>input tokens</th><th>s</th><th>ending</th><th>detail</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{_e(r.task)}</td><td class=n>{r.seed}</td>"
        f"<td class={'ok' if r.success else 'bad'}>{'success' if r.success else 'failed'}</td>"
        f"<td class=n>{r.reward:g}</td><td class=n>{r.steps}</td><td class=n>{r.model_calls}</td>"
        f"<td class=n>{_num(r.input_tokens)}</td><td class=n>{r.seconds:.1f}</td>"
        f"<td>{_e(r.failure)}</td><td class=detail>{_e(r.detail or '')}</td></tr>"
        for r in records
    )
    return f"<table>{head}{rows}</table>"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _pct(value: float) -> str:
    return f"{value * 100:.0f} %"


def _num(value: float) -> str:
    return f"{value:,.0f}"
