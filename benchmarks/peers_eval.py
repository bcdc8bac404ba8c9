"""browser-use on the same MiniWoB++ episodes as ``browser-agent eval miniwob``, with the same model.

The pages, the seeding, the episode start and the judge are this project's (``browser_agent.eval.miniwob``:
the same JavaScript, the same reward); only the agent differs. browser-use runs in a virtual environment of
its own, one subprocess per episode (``benchmarks/peers_browser_use.py``), and is never imported by this
project or its tests. Its records have the format of ``browser-agent eval``, so the report and the
comparison read them::

    python3 -m venv ~/.cache/browser_agent_peers/bu-0.13
    ~/.cache/browser_agent_peers/bu-0.13/bin/pip install 'browser-use==0.13.14'
    ../shared/llm/serve.sh                       # the shared model on http://127.0.0.1:8088/v1
    .venv/bin/python -m benchmarks.peers_eval --python ~/.cache/browser_agent_peers/bu-0.13/bin/python \\
        --families easy --seeds 0,1 --max-steps 4 --base-url http://127.0.0.1:8088/v1 --out peers.jsonl
    .venv/bin/browser-agent eval miniwob --families easy --seeds 0,1 --max-steps 4 \\
        --model openai:local --base-url http://127.0.0.1:8088/v1 --tool-calling-method json_schema \\
        --step-timeout 900 --out ours.jsonl
    .venv/bin/browser-agent eval compare peers.jsonl ours.jsonl

browser-use 0.13 installs from PyPI (about 60 packages); it drives the Chromium given with ``--chromium``
(default /usr/bin/chromium) over CDP. Its steps, tokens and seconds are read from its own history
(``AgentHistoryList``); its failure kinds are coarser than ours: ``wrong answer`` (the page ended the
episode with reward <= 0, or the agent called done without ending it), ``step limit``, ``timeout``
(``--episode-timeout``, default 900 s), ``error`` (the subprocess failed; its last lines are the detail).
An episode already in ``--out`` is skipped, so an interrupted run resumes. Not part of CI.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from browser_agent.eval import EpisodeRecord, StaticSite, miniwob_folder, miniwob_tasks, read_records
from browser_agent.eval.miniwob import ENDING_JS, START_JS, family_of

WORKER = Path(__file__).with_name("peers_browser_use.py")
# browser-use sends telemetry and syncs to its cloud unless told not to: nothing leaves 127.0.0.1 here
_QUIET = {
    "ANONYMIZED_TELEMETRY": "false",
    "BROWSER_USE_CLOUD_SYNC": "false",
    "BROWSER_USE_LOGGING_LEVEL": "warning",
}


def _job(args: argparse.Namespace, origin: str, task: str, seed: int) -> dict[str, Any]:
    return {
        "url": f"{origin}/miniwob/{task}.html",
        "seed": seed,
        "start_js": START_JS,
        "ending_js": ENDING_JS,
        "base_url": args.base_url,
        "model": args.model_name,
        "max_steps": args.max_steps,
        "llm_timeout": int(args.llm_timeout),
        "chromium": args.chromium,
        "origin": origin,
    }


def episode(args: argparse.Namespace, origin: str, task: str, seed: int) -> EpisodeRecord:
    """Run one episode in the peer's venv and turn its report into a record."""
    common = {
        "task": task,
        "family": family_of(task),
        "seed": seed,
        "model": f"browser-use:{args.model_name}",
    }
    try:
        done = subprocess.run(
            [args.python, str(WORKER)],
            input=json.dumps(_job(args, origin, task, seed)),
            capture_output=True,
            text=True,
            timeout=args.episode_timeout,
            check=False,
            env=os.environ | _QUIET,
        )
    except subprocess.TimeoutExpired:
        detail = f"still running after {args.episode_timeout:g} s; stopped"
        return EpisodeRecord(success=False, failure="timeout", detail=detail, **common)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return EpisodeRecord(
            success=False, failure="error", detail=f"exit {done.returncode}: {tail}", **common
        )
    report = json.loads(lines[-1])
    return _record(report, common)


def _record(report: dict[str, Any], common: dict[str, Any]) -> EpisodeRecord:
    raw = report.get("reward")
    success = raw is not None and raw > 0
    if success:
        failure, detail = "none", f"reward {raw:g}"
    elif raw is not None or report.get("done"):
        failure = "wrong answer"
        detail = f"reward {raw:g}" if raw is not None else "done, but the episode did not end (reward 0)"
    elif report.get("error"):
        failure, detail = "error", str(report["error"])[:300]
    elif report.get("steps") and report.get("failed_steps", 0) >= report["steps"]:  # no step worked
        failure, detail = "error", f"every step failed; last error: {str(report.get('last_error'))[:300]}"
    else:
        failure, detail = "step limit", "not done within max_steps"
    return EpisodeRecord(
        success=success,
        reward=float(raw or 0.0),
        steps=int(report.get("steps", 0)),
        model_calls=int(report.get("steps", 0)),
        input_tokens=int(report.get("input_tokens", 0)),
        output_tokens=int(report.get("output_tokens", 0)),
        cached_input_tokens=int(report.get("cached_input_tokens", 0)),
        seconds=float(report.get("seconds", 0.0)),
        failure=failure,
        detail=detail,
        goal=str(report.get("goal", "")),
        **common,
    )


def main(args: argparse.Namespace) -> None:
    folder = miniwob_folder()
    tasks = miniwob_tasks(folder, _names(args.tasks), _names(args.families))
    seeds = [int(s) for s in args.seeds.split(",")]
    out = Path(args.out)
    done = {r.key for r in read_records(out, missing_ok=True)}
    with StaticSite(folder) as site, out.open("a", encoding="utf-8") as results:
        for task in tasks:
            for seed in seeds:
                if (task, seed) in done:
                    continue
                record = episode(args, site.origin, task, seed)
                print(f"{task} seed {seed}: {record.failure} ({record.detail})", flush=True)
                results.write(record.line() + "\n")
                results.flush()


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--python", required=True, help="the python of the venv browser-use is installed in")
    parser.add_argument("--tasks", default="")
    parser.add_argument("--families", default="")
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--max-steps", type=int, default=4)
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--model-name", default="local", help="the model name the server is asked for")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--episode-timeout", type=float, default=900.0)
    parser.add_argument(
        "--llm-timeout", type=float, default=600.0, help="its longest model call (a CPU model is slow)"
    )
    parser.add_argument("--out", required=True)
    main(parser.parse_args())
    sys.exit(0)
