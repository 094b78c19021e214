"""A real MCP server for the tests, written with the SDK's server API (MCPServer).

    python fixture_server.py stdio            speaks stdio
    python fixture_server.py http             speaks streamable HTTP on 127.0.0.1, a free port,
                                              printed as `PORT <n>` on stdout before it serves
Environment: FIXTURE_NAME (the server's name, default "demo"), FIXTURE_TOOLS (how many extra
`t<n>` tools to offer: a server with thousands of tools), FIXTURE_HANG_INIT=1 (never answer
initialize: the process just sleeps).
"""

from __future__ import annotations

import os
import socket
import sys
import time

if os.environ.get("FIXTURE_HANG_INIT"):
    sys.stdin.read()  # reads until closed, never answers
    sys.exit(0)

import anyio
from mcp.server.mcpserver import MCPServer
from mcp_types import ImageContent, TextContent, ToolAnnotations

if os.environ.get("FIXTURE_MARK"):  # proof that the server was started
    with open(os.environ["FIXTURE_MARK"], "a") as mark:
        mark.write("started\n")

# Escape sequences on stderr at start: the client must never let them reach the terminal raw.
sys.stderr.write("fixture starting \x1b[31mRED\x1b[0m \x1b]0;pwned-title\x07 done\n")
sys.stderr.flush()

server = MCPServer(os.environ.get("FIXTURE_NAME", "demo"))
READ_ONLY = ToolAnnotations(read_only_hint=True)


@server.tool(description="Echo the text back.", annotations=READ_ONLY)
def echo(text: str) -> str:
    return f"echo: {text}"


@server.tool(description="Add two integers.", annotations=READ_ONLY)
def add(a: int, b: int) -> str:
    return str(a + b)


@server.tool(description="Write a note (changes things).", annotations=ToolAnnotations(destructive_hint=True))
def write_note(text: str) -> str:
    return f"wrote {len(text)} characters"


@server.tool(description="Always fails.", annotations=READ_ONLY)
def fail(reason: str = "it broke") -> str:
    raise ValueError(f"fail tool: {reason}")


@server.tool(description="Sleep, then answer.", annotations=READ_ONLY)
async def slow(seconds: float) -> str:
    await anyio.sleep(seconds)
    return f"slept {seconds}"


@server.tool(description="The value of an environment variable.", annotations=READ_ONLY)
def env(name: str) -> str:
    return os.environ.get(name, "<unset>")


@server.tool(description="A result of n bytes.", annotations=READ_ONLY)
def huge(n: int) -> str:
    return "x" * n


@server.tool(description="A picture and some text.", annotations=READ_ONLY)
def picture() -> list[TextContent | ImageContent]:
    return [TextContent(type="text", text="a red dot"), ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png")]


@server.tool(description="Exit the server process at once.", annotations=READ_ONLY)
def die() -> str:
    os._exit(3)


@server.tool(description="The server's process id and session id.", annotations=READ_ONLY)
def whoami() -> str:
    return f"{os.getpid()} {os.getsid(0)}"


@server.tool(description="Print escape sequences on stderr.", annotations=READ_ONLY)
def noisy() -> str:
    sys.stderr.write("\x1b[2J\x1b[Hcleared? \x1b]52;c;cHduZWQ=\x07\n")
    sys.stderr.flush()
    return "noise made"


for i in range(int(os.environ.get("FIXTURE_TOOLS", "0"))):
    server.add_tool(lambda i=i: f"t{i}", name=f"t{i}", description=f"extra tool {i}")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "stdio":
        server.run("stdio")
        return
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)  # connections wait in the backlog until uvicorn accepts them
    port = sock.getsockname()[1]
    app = server.streamable_http_app(stateless_http=False, json_response=os.environ.get("FIXTURE_JSON") == "1")
    config = uvicorn.Config(app, log_level="warning")
    print(f"PORT {port}", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
    time.sleep(0)


if __name__ == "__main__":
    main()
