"""Register your own action and run it through the controller, without a model.

    python examples/custom_action.py

The action ``read_price`` takes an element index (chosen by the model in a real run) and gets the
live element through the injected ``ActionContext``. A small page is served on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from tempfile import TemporaryDirectory

from browser_agent import ActionContext, ActionResult, BrowserConfig, BrowserSession, Controller

PAGE = """<!doctype html><html><head><title>Tiny shop</title></head><body>
<h1>Tiny shop</h1>
<button type="button" data-price="12.50">Blue mug</button>
<button type="button" data-price="3.20">Tea spoon</button>
</body></html>"""

controller = Controller()


@controller.action("Read the price stored on a product button")
async def read_price(index: int, ctx: ActionContext, currency: str = "EUR") -> ActionResult:
    """Read a product's price.

    Args:
        index: The product button's index.
        currency: The currency to show the price in.
    """
    node, handle = await ctx.element(index)
    price = await handle.get_attribute("data-price")
    return ActionResult(extracted_content=f"{node.name or node.text}: {price} {currency}")


@controller.action("Say which page is open")
def where_am_i(ctx: ActionContext) -> str:  # sync actions run in a worker thread
    return f"on {ctx.page.url}"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def serve(folder: Path) -> ThreadingHTTPServer:
    handler = partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


async def main() -> None:
    with TemporaryDirectory() as folder:
        Path(folder, "shop.html").write_text(PAGE)
        server = serve(Path(folder))
        url = f"http://127.0.0.1:{server.server_address[1]}/shop.html"
        try:
            async with BrowserSession(BrowserConfig(block_external_network=True)) as session:
                await session.navigate(url)
                state = await session.state()
                assert state.snapshot is not None
                nodes = state.snapshot.selector_map.values()
                mug = next(n.index for n in nodes if "Blue mug" in (n.name or n.text))
                actions = [{"action": "where_am_i"}, {"action": "read_price", "index": mug}]
                for result in await controller.run(actions, session):
                    print(f"{result.action}: {result.error or result.extracted_content}")
        finally:
            server.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
