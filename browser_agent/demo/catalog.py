"""The demo shop's products and the random layout variations applied on every page load."""

from __future__ import annotations

import html
import random
from dataclasses import dataclass

__all__ = ["PRODUCTS", "Layout", "Product"]


@dataclass(frozen=True, slots=True)
class Product:
    slug: str
    name: str
    price: str
    blurb: str


PRODUCTS = (
    Product("blue-mug", "Blue ceramic mug", "12.50", "Holds 350 ml of tea, coffee or soup."),
    Product("red-kettle", "Red kettle", "39.00", "Boils a litre in three minutes."),
    Product("oak-board", "Oak cutting board", "24.90", "Solid oak, oiled by hand."),
    Product("tea-towel", "Linen tea towel", "8.00", "Dries glasses without lint."),
    Product("salt-mill", "Salt mill", "18.75", "Ceramic grinder, adjustable."),
    Product("bread-tin", "Bread tin", "15.20", "Keeps a loaf fresh for days."),
)

BANNERS = (
    "Free shipping on orders over 50 this week!",
    "New: hand-made oak boards are back in stock.",
    "Our shop will be closed on Sunday for inventory.",
    "Sign up to our newsletter for 10% off.",
)


class Layout:
    """Seeded randomness for one page load: class names, wrappers, banners, order."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def cls(self, base: str) -> str:
        """A class list with a generated-looking hash, as CSS-in-JS tools emit."""
        return f"{base} css-{self._rng.getrandbits(28):07x}"

    def gen_id(self) -> str:
        return f"el-{self._rng.getrandbits(32)}"

    def wrap(self, inner: str) -> str:
        """Wrap ``inner`` in zero to two extra divs."""
        for _ in range(self._rng.randint(0, 2)):
            inner = f'<div class="{self.cls("wrap")}">{inner}</div>'
        return inner

    def banner(self) -> str:
        if self._rng.random() < 0.6:
            text = html.escape(self._rng.choice(BANNERS))
            return (
                f'<div class="{self.cls("banner")}" role="note">{text} '
                f'<a href="/" class="{self.cls("banner-link")}">Learn more</a></div>'
            )
        return ""

    def shuffled(self, items: tuple[Product, ...]) -> list[Product]:
        order = list(items)
        self._rng.shuffle(order)
        return order
