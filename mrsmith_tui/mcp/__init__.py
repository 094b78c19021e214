"""The MCP client: external tool servers over stdio and streamable HTTP (the official `mcp` SDK).

    config.py           mcp.json (user) and .mcp.json (project): server specs, ${VAR} expansion
    trust.py            which project servers may start: the trust store, the prompt, --mcp-trust
    names.py            tool names as the provider accepts them: mcp__<server>__<tool>
    listing.py          a server's tools cleaned and bounded before the model or the screen sees them
    results.py          a tool result as text
    stdio_transport.py  the stdio transport with a bounded line reader; stderr_log.py its stderr
    connection.py       one server's connection, inside the hub's loop
    hub.py              the hub: one asyncio loop on its own thread, every server, their states
    tool.py             an MCP tool as a Tool of the registry

Nothing here imports the SDK at module level: `import mcp` costs most of a second, so it happens
on the hub's thread, and only when a config names a server.
"""
