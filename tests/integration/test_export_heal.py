"""Exported scripts on a shop that changed since the run was recorded (tests/support/second_shop.py), run
as their own processes against real Chromium, judged by the shop's own record of orders.

The history exported on one layout buys on the others (a promotion's prices, options drawn with or
without ARIA roles); a renamed button stops the plain script, and the ``--heal`` form hands that step to
a model (a scripted one) and buys; a healing model cannot take the script off its site, and a secret the
script types is never shown to it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser_agent.browser.chromium import find_chromium
from browser_agent.export import export_history
from browser_agent.record import AgentHistory, StepOutput
from tests.support.fence_sites import DisallowedSite
from tests.support.second_shop import SecondShop, ShopOrder
from tests.support.second_shop_policy import record_purchase

FENCE = ("http://127.0.0.1:*",)
ROOT = Path(__file__).resolve().parents[2]
RENAMES = {
    "Add to cart": "Add to bag",
    ">Proceed to checkout</a>": ">Go to payment</a>",
    "Place order": "Buy now",
}


async def _recorded(browser: Browser, layout: str) -> AgentHistory:
    return await record_purchase(browser, layout)


def _run(
    script: Path, shop: SecondShop, *healing: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT`` (or, with ``healing``, the script under a scripted healing model)."""
    chromium = find_chromium()
    command = ["-m", "tests.support.heal_script", str(script), *healing] if healing else [str(script)]
    return subprocess.run(
        [sys.executable, *command],
        env={
            **os.environ,
            "BA_BASE_URL": shop.url,
            "BA_CHROMIUM": str(chromium.path) if chromium.path else "",
            "BA_HEAL_WAIT_MS": "3000",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            **(env or {}),
        },
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
        check=False,
    )


def _bought(orders: list[ShopOrder]) -> list[tuple[str, int, str, str]]:
    return [(o.product, o.quantity, o.country, o.shipping) for o in orders]


MUG = [("Blue Ceramic Mug", 2, "Norway", "Express")]


@pytest.mark.timeout(300)
async def test_a_history_exported_on_one_layout_buys_on_the_promotion_and_with_options_of_another_kind(
    browser: Browser, tmp_path: Path
) -> None:
    """The card link keeps the item's words, not its price ("Blue Ceramic Mug $14.00" costs $11.20 in the
    promotion, with a badge); an option recorded as ``role=option`` is found where the list has plain
    ``div`` options, and a plain one where it has roles."""
    for recorded_on, run_on in (("canonical", "all-at-once"), ("aria-options", "promotion")):
        script = tmp_path / f"{recorded_on}.py"
        source = export_history(await _recorded(browser, recorded_on)).source
        assert "14.00" not in source.split("def run(", 1)[1]
        script.write_text(source)
        with SecondShop(run_on) as shop:
            done = _run(script, shop)
            assert done.returncode == 0, done.stderr[-3000:]
            assert _bought(shop.orders) == MUG


@pytest.mark.timeout(400)
async def test_a_renamed_button_stops_the_plain_script_and_the_heal_form_heals_it_and_buys(
    browser: Browser, tmp_path: Path
) -> None:
    history = await _recorded(browser, "canonical")
    plain, healing = tmp_path / "plain.py", tmp_path / "healing.py"
    plain.write_text(export_history(history).source)
    healing.write_text(export_history(history, heal=True).source)
    assert "browser_agent" not in plain.read_text()  # the plain script needs nothing but Playwright
    with SecondShop("canonical", renames={"Place order": "Buy now"}) as shop:
        stopped = _run(plain, shop)
        assert stopped.returncode != 0 and shop.orders == []
        assert "Timeout" in stopped.stderr and "Place order" in stopped.stderr
    # three renamed, one of them the link that opens the checkout's tab, on another layout
    with SecondShop("all-at-once", renames=RENAMES) as shop:
        healed = _run(healing, shop, "renames", json.dumps(RENAMES))
        assert healed.returncode == 0, healed.stderr[-3000:]
        assert _bought(shop.orders) == MUG
    assert healed.stderr.count("browser-agent healed a step") == 3, healed.stderr[-3000:]


@pytest.mark.timeout(300)
async def test_a_healing_model_cannot_take_the_script_off_its_site(
    browser: Browser, tmp_path: Path, bad: DisallowedSite
) -> None:
    script = tmp_path / "healing.py"
    script.write_text(export_history(await _recorded(browser, "canonical"), heal=True).source)
    bad.requests.clear()  # the site is the session's: an earlier test in this worker may have reached it
    with SecondShop("canonical", renames={"Add to cart": "Add to bag"}) as shop:
        done = _run(script, shop, "leave", bad.url("/stolen"))
        assert done.returncode != 0 and shop.orders == []
    assert "browser-agent could not heal this step" in done.stderr, done.stderr[-3000:]
    assert "Add to cart" in done.stderr  # the script stops on its own locator's error, as the plain one
    assert bad.requests == []


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("kind", "why"), [("broken", "went away"), ("unreachable", "the healing failed")])
async def test_a_healing_that_fails_leaves_the_scripts_own_error_with_why(
    browser: Browser, tmp_path: Path, bad: DisallowedSite, kind: str, why: str
) -> None:
    """A model that fails, or a browser the healing cannot attach to: the script stops on its own
    locator's error, with a note saying why it was not healed."""
    script = tmp_path / "healing.py"
    script.write_text(export_history(await _recorded(browser, "canonical"), heal=True).source)
    bad.requests.clear()  # the site is the session's: an earlier test in this worker may have reached it
    with SecondShop("canonical", renames={"Add to cart": "Add to bag"}) as shop:
        argument = "the model server went away" if kind == "broken" else bad.url("/stolen")
        done = _run(script, shop, kind, argument)
        assert done.returncode != 0 and shop.orders == []
    assert "browser-agent could not heal this step" in done.stderr, done.stderr[-3000:]
    assert why in done.stderr and "Add to cart" in done.stderr, done.stderr[-3000:]
    assert bad.requests == []


@pytest.mark.timeout(300)
async def test_a_secret_the_script_typed_is_never_shown_to_the_healing_model_and_is_typed_again(
    browser: Browser, tmp_path: Path
) -> None:
    """The email was recorded as a secret; the country's button is renamed after it was typed, so the
    page the model is shown holds it; the healed step that types it gets the value from the
    environment, never from the model."""
    history = _with_secret_email(await _recorded(browser, "canonical"))
    script = tmp_path / "healing.py"
    source = export_history(history, heal=True).source
    body = source.split("def run(", 1)[1]
    assert "ada@example.com" not in body and "<secret>email</secret>" in body
    script.write_text(source)
    renames = {"Email <input": "E-mail address <input", "Country": "Land"}
    prompts = tmp_path / "prompts.txt"
    secret = {"BA_SECRET_EMAIL": "ada@example.com", "HEAL_PROMPTS": str(prompts)}
    with SecondShop("canonical", renames=renames) as shop:
        done = _run(script, shop, "renames", json.dumps(renames), env=secret)
        assert done.returncode == 0, done.stderr[-3000:]
        assert [o.email for o in shop.orders] == ["ada@example.com"]
    shown = prompts.read_text()
    assert "<secret>email</secret>" in shown and "ada@example.com" not in shown
    assert done.stderr.count("browser-agent healed a step") == 2 and "ada@example.com" not in done.stderr


def _with_secret_email(history: AgentHistory) -> AgentHistory:
    """``history`` as if the email had been given as sensitive data: typed as its placeholder."""
    steps = []
    for step in history.steps:
        if step.model_output is not None:
            actions = [
                call.model_copy(update={"params": {**call.params, "text": "<secret>email</secret>"}})
                if call.params.get("text") == "ada@example.com"
                else call
                for call in step.model_output.action
            ]
            output: StepOutput = step.model_output.model_copy(update={"action": actions})
            step = step.model_copy(update={"model_output": output})
        steps.append(step)
    return history.model_copy(update={"steps": steps})
