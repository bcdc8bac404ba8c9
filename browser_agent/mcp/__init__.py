"""``browser-agent mcp``: the controller's actions and the page view as tools for any MCP client.

Needs the optional MCP SDK: ``pip install 'pw-browser-agent[mcp]'``.
"""

from browser_agent.errors import UserError
from browser_agent.extras import install_hint

try:
    import mcp as _sdk  # noqa: F401 - only to tell a missing extra apart from other import errors
except ImportError as exc:  # pragma: no cover - the dev extra installs it
    raise UserError(f"The MCP server needs the MCP SDK: {install_hint('mcp')}") from exc

from browser_agent.mcp.config import McpServerConfig
from browser_agent.mcp.server import SERVER_NAME, McpBrowserServer
from browser_agent.mcp.tools import PAGE_STATE, BrowserTools, ToolOutcome, ToolSpec

__all__ = [
    "PAGE_STATE",
    "SERVER_NAME",
    "BrowserTools",
    "McpBrowserServer",
    "McpServerConfig",
    "ToolOutcome",
    "ToolSpec",
]
