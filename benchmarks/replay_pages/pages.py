"""The eight fixture pages of the replay benchmark, built deterministically from a seed.

Every page has the same frame: a header (title and lede: the "text elsewhere" that changes), the main
content, an ``aside`` that is the "other container" targets move into, and a footer zone where
near-duplicates are added. Targets carry ``data-bench-key``; the unit that moves with a target (its card,
row or field) carries ``data-bench-item``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.replay_pages.tree import ITEM, KEY, Gen, Node, h

PRODUCTS = [
    "Blue Mug",
    "Red Cap",
    "Green Tee",
    "Oak Desk",
    "Wool Scarf",
    "Steel Bottle",
    "Linen Shirt",
    "Paper Lamp",
    "Clay Vase",
    "Cotton Bag",
    "Glass Jar",
    "Silk Tie",
]
PEOPLE = [
    "Alice Moreau",
    "Bob Tanaka",
    "Chloe Adams",
    "Dmitri Volkov",
    "Eva Lindqvist",
    "Farid Haddad",
    "Grace Liu",
    "Hugo Brandt",
    "Ines Duarte",
    "Jonas Weber",
    "Kara Singh",
    "Leo Rossi",
]


@dataclass
class PageSpec:
    """A generated page and the bench keys of its recorded targets."""

    name: str
    body: Node
    targets: list[str]


def _frame(g: Gen, title: str, lede: str, main: Node) -> Node:
    header = h(
        "header",
        {"class": g.css()},
        h("h1", {"data-bench-text": "1"}, title),
        h("p", {"class": "lede", "data-bench-text": "1"}, lede),
    )
    aside = h("aside", {"class": "related", "data-bench-zone": "move"}, h("h2", {}, "Related"))
    footer = h(
        "footer",
        {"class": g.css()},
        h("p", {"data-bench-text": "1"}, "© 2026 Example Ltd."),
        h("div", {"class": "more", "data-bench-zone": "dup"}, h("h2", {}, "You may also like")),
    )
    return h("body", {}, header, h("main", {"class": g.css(), "id": g.rid()}, main), aside, footer)


def _target(node: Node, key: str, keys: list[str]) -> Node:
    node.attrs[KEY] = key
    keys.append(key)
    return node


def shop(g: Gen) -> PageSpec:
    keys: list[str] = []
    grid = h("ul", {"class": f"grid {g.css()}"})
    for i, product in enumerate(PRODUCTS):
        slug = product.lower().replace(" ", "-")
        link = h("a", {"href": f"/product/{slug}", "class": g.css()}, product)
        add = h("button", {"class": f"add {g.css()}", "id": g.rid()}, "Add to cart")
        wish = h("button", {"class": "icon", "aria-label": "Wishlist"}, "♡")
        if i < 7:
            _target(link, f"shop-link-{i}", keys)
        if i % 2 == 0 or i == 11:
            _target(add, f"shop-add-{i}", keys)
        if i % 2 == 1:
            _target(wish, f"shop-wish-{i}", keys)
        grid.add(
            h(
                "li",
                {"class": f"card {g.css()}", ITEM: "1"},
                link,
                h("span", {"class": "price"}, f"${12 + i * 3}.00"),
                add,
                wish,
            )
        )
    return PageSpec("shop", _frame(g, "Shop", "Handmade goods, shipped fast.", grid), keys)


def signup(g: Gen) -> PageSpec:
    keys: list[str] = []
    form = h("form", {"id": "signup", "class": g.css()})
    fields = [
        ("first", "First name", "text"),
        ("last", "Last name", "text"),
        ("email", "Email", "email"),
        ("password", "Password", "password"),
        ("confirm", "Confirm password", "password"),
        ("phone", "Phone", "tel"),
        ("street", "Street", "text"),
        ("city", "City", "text"),
        ("zip", "Postal code", "text"),
        ("birthday", "Birthday", "date"),
        ("company", "Company", "text"),
        ("website", "Website", "url"),
    ]
    for name, label, kind in fields:
        fid = g.rid()
        inp = _target(
            h("input", {"id": fid, "name": name, "type": kind, "class": g.css()}), f"su-{name}", keys
        )
        form.add(h("div", {"class": f"field {g.css()}", ITEM: "1"}, h("label", {"for": fid}, label), inp))
    select = h(
        "select", {"name": "country", "id": "country"}, *[h("option", {}, c) for c in ("France", "Japan")]
    )
    form.add(
        h(
            "div",
            {"class": "field", ITEM: "1"},
            h("label", {"for": "country"}, "Country"),
            _target(select, "su-country", keys),
        )
    )
    for plan in ("Free", "Pro", "Team"):
        radio = h(
            "input", {"type": "radio", "name": "plan", "value": plan.lower(), "id": f"plan-{plan.lower()}"}
        )
        form.add(
            h(
                "div",
                {"class": "choice", ITEM: "1"},
                _target(radio, f"su-plan-{plan}", keys),
                h("label", {"for": f"plan-{plan.lower()}"}, f"{plan} plan"),
            )
        )
    for name, label in (("news", "Send me the newsletter"), ("terms", "I accept the terms")):
        box = h("input", {"type": "checkbox", "name": name, "id": name})
        form.add(
            h(
                "div",
                {"class": "choice", ITEM: "1"},
                _target(box, f"su-{name}", keys),
                h("label", {"for": name}, label),
            )
        )
    form.add(
        h(
            "div",
            {"class": "actions", ITEM: "1"},
            _target(h("button", {"type": "submit", "class": g.css()}, "Create account"), "su-submit", keys),
            _target(h("a", {"href": "/login"}, "I already have an account"), "su-login", keys),
        )
    )
    return PageSpec("signup", _frame(g, "Sign up", "Join in a minute.", form), keys)


def navmenu(g: Gen) -> PageSpec:
    keys: list[str] = []
    menus = {
        "Products": ["Overview", "Pricing", "Integrations", "Changelog"],
        "Solutions": ["Overview", "Retail", "Finance", "Health"],
        "Resources": ["Docs", "Guides", "Webinars", "Community"],
        "Company": ["About", "Careers", "Press", "Contact"],
        "Support": ["Help center", "Status", "Security", "Contact sales"],
    }
    nav = h("nav", {"id": "top", "class": g.css()})
    top = h("ul", {"class": "menu"})
    for m, (menu, links) in enumerate(menus.items()):
        section = menu.lower()
        sub = h("ul", {"class": f"submenu {g.css()}"})
        for j, label in enumerate(links):
            link = h("a", {"href": f"/{section}/{label.lower().replace(' ', '-')}", "class": g.css()}, label)
            if (m * 4 + j) % 5 != 4:
                _target(link, f"nav-{section}-{j}", keys)
            sub.add(h("li", {ITEM: "1"}, link))
        head = h("button", {"class": "menu-head", "aria-expanded": "true"}, menu)
        if m < 4:
            _target(head, f"nav-head-{m}", keys)
        top.add(h("li", {"class": g.css(), ITEM: "1"}, head, sub))
    nav.add(top)
    return PageSpec("navmenu", _frame(g, "Acme", "Tools for teams.", nav), keys)


def table(g: Gen) -> PageSpec:
    keys: list[str] = []
    body = h("tbody", {})
    for i, person in enumerate(PEOPLE):
        email = person.split()[0].lower() + "@example.com"
        link = h("a", {"href": f"/users/{email.split('@')[0]}"}, person)
        edit = h("button", {"class": f"edit {g.css()}"}, "Edit")
        delete = h("button", {"class": f"danger {g.css()}"}, "Delete")
        if i < 7:
            _target(link, f"tb-link-{i}", keys)
        if i % 2 == 0 or i == 11:
            _target(edit, f"tb-edit-{i}", keys)
        if i % 2 == 1:
            _target(delete, f"tb-del-{i}", keys)
        body.add(
            h(
                "tr",
                {ITEM: "1", "id": g.rid()},
                h("td", {}, link),
                h("td", {}, email),
                h("td", {}, "Admin" if i % 3 == 0 else "Member"),
                h("td", {}, edit, delete),
            )
        )
    head = h("thead", {}, h("tr", {}, *[h("th", {}, c) for c in ("Name", "Email", "Role", "")]))
    return PageSpec(
        "table",
        _frame(g, "Users", "Manage who has access.", h("table", {"class": g.css()}, head, body)),
        keys,
    )


def inbox(g: Gen) -> PageSpec:
    keys: list[str] = []
    ul = h("ul", {"class": f"mail {g.css()}"})
    subjects = [
        "Quarterly report",
        "Lunch on Friday?",
        "Your invoice #A-17",
        "Team offsite plan",
        "Re: budget",
        "Password changed",
        "Welcome aboard",
        "Design review notes",
        "Flight itinerary",
        "Weekly digest",
        "Contract draft",
        "Holiday schedule",
    ]
    for i, (person, subject) in enumerate(zip(PEOPLE, subjects, strict=True)):
        box = h("input", {"type": "checkbox", "aria-label": "Select", "class": g.css()})
        link = h("a", {"href": f"/mail/{i + 1}x", "class": "subject"}, subject)
        star = h("button", {"aria-label": "Star", "class": f"star {g.css()}"}, "☆")
        if i % 3 != 2:
            _target(box, f"in-box-{i}", keys)
        if i < 6:
            _target(link, f"in-link-{i}", keys)
        if i % 2 == 0:
            _target(star, f"in-star-{i}", keys)
        ul.add(
            h(
                "li",
                {ITEM: "1", "class": g.css()},
                box,
                h("span", {"class": "from"}, person),
                link,
                h("span", {"class": "snippet"}, f"{subject} — preview {i}"),
                star,
            )
        )
    return PageSpec("inbox", _frame(g, "Inbox", "12 conversations.", ul), keys)


def settings(g: Gen) -> PageSpec:
    keys: list[str] = []
    groups = {
        "Notifications": ["Email alerts", "Push alerts", "Weekly summary", "Mentions only", "Sounds"],
        "Privacy": ["Public profile", "Show activity", "Search indexing", "Read receipts", "Ad tracking"],
        "Display": ["Dark mode", "Compact rows", "Large text", "Reduce motion", "Show avatars"],
        "Labs": ["Beta editor", "AI suggestions", "New sidebar"],
    }
    main = h("div", {"class": g.css()})
    for group, toggles in groups.items():
        section = h("section", {"class": f"group {g.css()}"}, h("h2", {}, group))
        for label in toggles:
            toggle = h("input", {"type": "checkbox", "role": "switch", "class": g.css(), "id": g.rid()})
            _target(toggle, f"st-{label.lower().replace(' ', '-')}", keys)
            section.add(h("label", {"class": "row", ITEM: "1"}, toggle, label))
        reset = h("button", {"class": "reset"}, "Reset")
        if group != "Labs":
            _target(reset, f"st-reset-{group.lower()}", keys)
        section.add(h("div", {ITEM: "1"}, reset))
        main.add(section)
    main.add(h("div", {ITEM: "1"}, _target(h("button", {"type": "submit"}, "Save changes"), "st-save", keys)))
    return PageSpec("settings", _frame(g, "Settings", "Changes apply to all devices.", main), keys)


def blog(g: Gen) -> PageSpec:
    keys: list[str] = []
    comments = h("ol", {"class": f"comments {g.css()}"})
    for i, person in enumerate(PEOPLE[:10]):
        reply = h("button", {"class": g.css()}, "Reply")
        like = h("button", {"class": f"like {g.css()}", "aria-label": "Like"}, "♥")
        report = h("a", {"href": f"/report?c={i}", "class": "report"}, "Report")
        if i < 7:
            _target(reply, f"bl-reply-{i}", keys)
        if i % 2 == 0 or i == 9:
            _target(like, f"bl-like-{i}", keys)
        if i in (1, 3, 5, 7, 8, 9):
            _target(report, f"bl-report-{i}", keys)
        comments.add(
            h(
                "li",
                {ITEM: "1", "id": g.rid()},
                h("b", {}, person),
                h("p", {}, f"Comment {i + 1} by {person.split()[0]}: thoughts on part {i + 1}."),
                reply,
                like,
                report,
            )
        )
    article = h(
        "article",
        {},
        h("h2", {}, "Why we moved to Postgres"),
        h("p", {}, "A long story."),
        _target(h("a", {"href": "/share"}, "Share this post"), "bl-share", keys),
        comments,
    )
    return PageSpec("blog", _frame(g, "Engineering blog", "Notes from the team.", article), keys)


def dashboard(g: Gen) -> PageSpec:
    keys: list[str] = []
    grid = h("div", {"class": f"widgets {g.css()}"})
    widgets = ["Revenue", "Signups", "Churn", "Latency", "Errors", "Uptime", "Traffic", "Queue depth"]
    for i, title in enumerate(widgets):
        buttons = [
            h("button", {"class": f"icon {g.css()}", "aria-label": label}, glyph)
            for label, glyph in (("Refresh", "⟳"), ("Expand", "⤢"), ("Settings", "⚙"))
        ]
        open_link = h("a", {"href": f"/metrics/{title.lower().replace(' ', '-')}"}, f"Open {title}")
        for j, button in enumerate(buttons):
            if (i + j) % 3 != 1:
                _target(button, f"db-{title.lower().replace(' ', '-')}-{j}", keys)
        if i % 2 == 0:
            _target(open_link, f"db-open-{i}", keys)
        grid.add(
            h(
                "div",
                {"class": f"widget {g.css()}", ITEM: "1"},
                h("h3", {}, title),
                h("span", {"class": "value"}, f"{(i + 3) * 117} units"),
                *buttons,
                open_link,
            )
        )
    return PageSpec("dashboard", _frame(g, "Dashboard", "Last 24 hours.", grid), keys)


BUILDERS: dict[str, Callable[[Gen], PageSpec]] = {
    "shop": shop,
    "signup": signup,
    "navmenu": navmenu,
    "table": table,
    "inbox": inbox,
    "settings": settings,
    "blog": blog,
    "dashboard": dashboard,
}
