"""Export without a browser: the locator each fingerprint gets, the inputs and secrets of a script, and
the script's shape for every built-in action (it compiles; what could not be written says so)."""

from __future__ import annotations

import re

import pytest

from browser_agent.errors import UserError
from browser_agent.export import ExportStep, export_history, locate, render_script
from browser_agent.export.steps import shown_name
from browser_agent.record import AgentHistory, StepOutput
from browser_agent.reid import Fingerprint


def _fp(tag: str, name: str = "", **extra: object) -> Fingerprint:
    return Fingerprint(tag=tag, name=name, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fingerprint", "shown", "expected"),
    [
        (
            _fp("a", "cart", attributes=(("href", "/cart"),)),
            "Cart",
            'page.get_by_role("link", name="Cart", exact=True)',
        ),
        (
            _fp("button", "add to cart"),
            None,
            'page.get_by_role("button", name=re.compile("^add to cart$", re.IGNORECASE))',
        ),
        (
            _fp("input", "email", attributes=(("type", "email"),)),
            "Email",
            'page.get_by_role("textbox", name="Email", exact=True)',
        ),
        (
            _fp("input", "quantity", attributes=(("type", "number"),)),
            "Quantity",
            'page.get_by_role("spinbutton", name="Quantity", exact=True)',
        ),
        (
            _fp("input", "password", attributes=(("type", "password"),)),
            "Password",
            'page.get_by_label("Password", exact=True)',
        ),
        (
            _fp("input", "search here", attributes=(("type", "password"), ("placeholder", "Search here"))),
            None,
            'page.get_by_placeholder("Search here", exact=True)',
        ),
        (_fp("div", attributes=(("data-testid", "promo"),)), None, 'page.get_by_test_id("promo")'),
        (
            _fp("span", "open menu", text="open menu"),
            "Open menu",
            'page.get_by_text("Open menu", exact=True)',
        ),
        (
            _fp("select", "shipping standardexpress", attributes=(("name", "shipping"),)),
            None,
            """page.locator('select[name="shipping"]')""",
        ),
        (
            _fp("div", role="tab", name="details"),
            "Details",
            'page.get_by_role("tab", name="Details", exact=True)',
        ),
    ],
)
def test_each_element_gets_the_most_robust_locator_its_fingerprint_supports(
    fingerprint: Fingerprint, shown: str | None, expected: str
) -> None:
    code = locate(fingerprint, shown)
    assert code.expression == expected
    assert code.robust and not code.note


def test_an_element_with_nothing_robust_gets_css_and_says_so() -> None:
    code = locate(_fp("div", classes=("icon",)))  # generated classes were left out when recorded
    assert code.expression == """page.locator("div.icon")""" and not code.robust
    assert "CSS selector" in code.note


def test_a_name_cut_by_the_recording_matches_as_a_prefix() -> None:
    long = "a" * 100
    assert locate(_fp("button", long), long.upper()).expression.endswith(f'"^{long}", re.IGNORECASE))')


def test_frames_are_reached_by_name_or_by_the_document_path() -> None:
    framed = _fp("button", "pay", frame_path=("checkout", "https://pay.example/widget/v2/form.html?x=1"))
    code = locate(framed, "Pay")
    assert code.frames == 2
    assert code.expression == (
        """page.frame_locator('iframe[name="checkout"], iframe[id="checkout"]')"""
        """.frame_locator('iframe[src*="form.html?x=1"]')"""
        '.get_by_role("button", name="Pay", exact=True)'
    )


def test_a_step_frame_given_apart_from_the_fingerprint_is_the_one_used() -> None:
    from browser_agent.export.actions import robust_locator

    pay = _fp("button", "pay", frame_path=("old",))
    assert 'iframe[name="old"]' in robust_locator(ExportStep("click_element", {}, pay)).expression
    moved = robust_locator(ExportStep("click_element", {}, pay, frame=("checkout",)))
    assert moved.expression.startswith(
        """page.frame_locator('iframe[name="checkout"], iframe[id="checkout"]')"""
    )


def test_look_alikes_are_scoped_to_their_card_or_left_strict_with_a_comment() -> None:
    carded = locate(_fp("button", "add to cart", twins=3, group=("red cap",), group_depth=1), "Add to cart")
    button = 'page.get_by_role("button", name="Add to cart", exact=True)'
    assert carded.expression == (
        f'page.locator("*").filter(has_text="red cap").filter(has={button}).last'
        '.get_by_role("button", name="Add to cart", exact=True)'
    )
    assert "3 more like it" in carded.note
    alone = locate(_fp("button", "edit", twins=1, anchors=(("before", 1, "row 2"),)), "Edit")
    assert alone.expression == 'page.get_by_role("button", name="Edit", exact=True)'
    assert "Playwright stops here rather than pick one" in alone.note


def test_the_shown_name_is_taken_from_what_the_action_said() -> None:
    assert shown_name("blue ceramic mug", "Clicked element 3 (Blue  ceramic mug)") == "Blue ceramic mug"
    assert shown_name("email", "Typed 'email me' into element 4 (EMail)") == "EMail"
    assert shown_name("cart", "Clicked element 2 (Cartridge)") is None


def _steps() -> list[ExportStep]:
    email = _fp("input", "email", attributes=(("type", "email"),))
    secret = _fp("input", "password", attributes=(("type", "password"),))
    link = _fp("a", "docs", attributes=(("href", "/docs"),))
    return [
        ExportStep("go_to_url", {"url": "http://shop.test:8080/login"}),
        ExportStep("input_text", {"text": "ada@example.com"}, email, shown_name="Email"),
        ExportStep("input_text", {"text": "<secret>pw</secret>"}, secret, shown_name="Password"),
        ExportStep("input_text", {"text": "ada@example.com"}, email, shown_name="Email"),
        ExportStep("send_keys", {"keys": "Tab Enter"}),
        ExportStep("click_element", {}, link, opened_tab=True),
        ExportStep("switch_tab", {"tab_id": 0}),
        ExportStep("scroll", {"direction": "down", "pages": 0.5}),
        ExportStep("search_web", {"query": "oak desk"}),
        ExportStep("extract_content", {"goal": "prices"}),
        ExportStep("book_table", {"when": "7pm"}),
        ExportStep("go_to_url", {"url": "http://shop.test:8080/account"}),
        ExportStep("done", {"text": "Signed in as ada@example.com", "success": True}),
    ]


def test_a_script_holds_inputs_and_secret_names_never_values_and_compiles() -> None:
    script = render_script(_steps(), task="Sign in", pytest=False)
    source = script.source
    compile(source, "exported.py", "exec")
    assert 'BASE_URL = os.environ.get("BA_BASE_URL", "http://shop.test:8080/")' in source
    assert 'EMAIL = os.environ.get("BA_EMAIL", "ada@example.com")' in source
    assert source.count("EMAIL = ") == 1  # the same value in the same field is one input
    assert 'page.goto(base_url + "login")' in source and 'page.goto(base_url + "account")' in source
    assert '.fill(os.environ["BA_SECRET_PW"])' in source and "<secret>" not in source
    assert 'page.keyboard.press("Tab")' in source and 'page.keyboard.press("Enter")' in source
    assert "with page.context.expect_page() as new_tab:" in source and "page = tabs[0]" in source
    assert "page.mouse.wheel(0, 360)" in source and "quote_plus(query)" in source
    # the comment holds our words only; the action and its parameters, as recorded, are in the warning
    assert "# NOT EXPORTED: step 11 (it is not a built-in action; see the export's warnings)" in source
    assert "book_table" not in source and "7pm" not in source
    assert script.warnings == (
        "step 11: the action 'book_table' ({'when': '7pm'}) was not exported: it is not a built-in action",
    )


def test_the_pytest_form_checks_the_values_read_where_the_run_ended_never_the_agents_sentence() -> None:
    from browser_agent.export import Ending

    text = "Your order #1234 went to ada@example.com, it says on the confirmation sen…"
    ending = Ending(url="http://shop.test:8080/account?tab=1", text=text)
    source = render_script(_steps(), ending=ending, pytest=True).source
    compile(source, "test_exported.py", "exec")
    # run() reads on the page it ended on (a tab it opened included) and returns the values
    assert ") -> dict[str, str]:" in source and "    return read" in source
    assert 'shown = page.get_by_text(re.compile(r"\\#\\d+")).first.inner_text()' in source
    assert 'read["order"] = re.search(r"\\#\\d+", shown).group(0)' in source
    assert "shown = page.get_by_text(email).first.inner_text()" in source  # the input repeated
    # the test checks them: the address, the order number by its shape (the run typed values), the email
    assert 'assert re.match("^" + re.escape(BASE_URL + "account") + r"([?#]|$)", read["url"])' in source
    assert 'EXPECT_ORDER = os.environ.get("BA_EXPECT_ORDER", r"\\#\\d+")' in source
    assert 'assert re.fullmatch(EXPECT_ORDER, read["order"]), read' in source
    assert 'assert read["email"] == EMAIL, read' in source
    assert "went to" not in source.split("def run(", 1)[1] and "sen" not in source.split("def run(", 1)[1]
    assert "to_be_visible" not in source


def test_a_lookup_returns_its_values_and_checks_the_recorded_ones() -> None:
    """A run that entered nothing: what it reported is the page's data, checked as recorded."""
    from browser_agent.export import Ending

    steps = [ExportStep("go_to_url", {"url": "http://shop.test/carafe"})]
    ending = Ending(url="http://shop.test/carafe", text="Glass Carafe: $22.00.")
    source = render_script(steps, ending=ending, pytest=True).source
    assert 'EXPECT_CARAFE = os.environ.get("BA_EXPECT_CARAFE", r"\\$22\\.00")' in source
    plain = render_script(steps, ending=ending).source
    assert "print(run(browser.new_page()))" in plain and "EXPECT_" not in plain


def test_a_history_with_nothing_done_is_one_clear_error() -> None:
    with pytest.raises(UserError, match="no action to export"):
        export_history(AgentHistory(task="t"))


def test_named_inputs_keep_their_names_and_an_element_named_by_one_is_found_by_its_words() -> None:
    """What a workflow gives: parameters bound to named inputs, a link chosen by an input's value."""
    link = _fp("a", "blue ceramic mug", attributes=(("href", "/p/1"),))
    card_button = _fp("button", "buy blue ceramic mug now", twins=3, group=("blue ceramic mug $12",))
    field = _fp("input", "your e-mail address", attributes=(("type", "email"),))
    steps = [
        ExportStep("go_to_url", {"url": "http://shop.test/"}, input_names={}),
        ExportStep("click_element", {"index": 3}, link, named_by=("product", "Blue ceramic mug")),
        ExportStep("click_element", {"index": 4}, card_button, named_by=("product", "Blue ceramic mug")),
        ExportStep(
            "input_text", {"index": 5, "text": "ada@example.com"}, field, input_names={"text": "email"}
        ),
    ]
    source = render_script(steps).source
    compile(source, "exported.py", "exec")
    assert 'PRODUCT = os.environ.get("BA_PRODUCT", "Blue ceramic mug")' in source
    assert source.count("PRODUCT = ") == 1  # one input for both elements it names
    whole = 'page.get_by_role("link", name=re.compile("^" + re.escape(product) + "$", re.IGNORECASE))'
    # a name that goes on past the value matches it as whole words only
    inside = 'name=re.compile(r"(?<!\\w)" + re.escape(product) + r"(?!\\w)", re.IGNORECASE))'
    assert f"{whole}.click()" in source and inside in source
    assert ".fill(email)" in source and "your_e_mail" not in source  # the input's name, not the label's
    assert "has_text" not in source  # the input's words tell it from its look-alikes, not the recorded card


def test_a_workflow_exports_from_its_steps_with_the_task_as_a_template() -> None:
    from browser_agent.workflow import Workflow, WorkflowInput, WorkflowStep, export_workflow

    link = _fp("a", "red kettle", attributes=(("href", "/p/2"),))
    workflow = Workflow(
        task="buy '{product}'",
        inputs=[WorkflowInput(name="product", default="Red kettle", source="element")],
        steps=[
            WorkflowStep(action="go_to_url", params={"url": "http://shop.test/"}),
            WorkflowStep(action="click_element", params={"index": 1}, target=link, target_input="product"),
        ],
        recorded_result="Added Red kettle",
    )
    source = export_workflow(workflow, pytest=True, origin="kettle.workflow.json").source
    compile(source, "test_exported.py", "exec")
    assert 'RECORDED_FROM = "kettle.workflow.json"' in source
    assert "RECORDED_TASK = \"buy '{product}'\"" in source
    assert "shown = page.get_by_text(product).first.inner_text()" in source
    assert 'assert read["product"] == PRODUCT, read' in source
    with pytest.raises(UserError, match="no step"):
        export_workflow(Workflow())


def test_an_item_named_with_its_price_is_found_by_its_words_then_a_price_never_a_longer_name() -> None:
    """A card link says "Blue Ceramic Mug $14.00 New": another item has another price and badge, and
    "Blue Ceramic Mug Set" is another item (the strict-mode violation of a pattern matching anywhere)."""
    card = _fp("a", "blue ceramic mug $14.00 new", attributes=(("href", "/item/mug"),))
    steps = [
        ExportStep("go_to_url", {"url": "http://shop.test/"}),
        ExportStep("click_element", {"index": 3}, card, named_by=("item", "Blue Ceramic Mug")),
    ]
    source = render_script(steps).source
    line = next(line for line in source.splitlines() if "re.escape(item)" in line)
    pattern = eval(line.split("name=", 1)[1].rsplit(")", 1)[0], {"re": re, "item": "Copper Kettle"})
    assert pattern.search("Copper Kettle $64.00") and pattern.search("Copper Kettle $51.20 $64.00 Sale")
    assert not pattern.search("Copper Kettle Stand $12.00") and not pattern.search("Old Copper Kettle $9")
    mug = eval(line.split("name=", 1)[1].rsplit(")", 1)[0], {"re": re, "item": "Blue Ceramic Mug"})
    assert mug.search("Blue Ceramic Mug $14.00 New") and not mug.search("Blue Ceramic Mug Set $38.00")


def test_a_value_the_pages_own_calendar_or_slider_took_is_left_out_with_a_warning() -> None:
    from browser_agent.controller import ActionResult
    from browser_agent.export.steps import steps_from_history
    from browser_agent.record import ActionCall, AgentStep

    said = [
        "Picked June 14, 2027 in the calendar that element 0 (Day) opens (the field is read-only); the field "
        "now holds '2027-06-14'",
        "Moved the slider (element 1) to -2; the page shows -2",
        "Typed 'Ada' into element 2 (Name); the field now holds 'Ada'",
    ]
    fields = [
        _fp("input", "day"),
        _fp("span", "", attributes=(("class", "ui-slider-handle"),)),
        _fp("input", "name"),
    ]
    step = AgentStep(
        step=1,
        url="http://shop.test/book",
        model_output=StepOutput(
            action=[
                ActionCall(name="input_text", params={"index": i, "text": t})
                for i, t in enumerate(("x", "-2", "Ada"))
            ]
        ),
        results=[ActionResult(action="input_text", extracted_content=s) for s in said],
        interacted=fields,
    )
    steps = steps_from_history(AgentHistory(task="Book", steps=[step]))
    assert [s.by_widget for s in steps] == [True, True, False]
    script = render_script(steps, task="Book", pytest=False)
    assert script.source.count("# NOT EXPORTED: step") == 2 and script.source.count(".fill(") == 1
    assert len(script.warnings) == 2
    assert all("through the page's own calendar or slider" in w for w in script.warnings)
