"""What agents reach through the MCP server, the hooks and ``connect``: provider-safe results,
store freshness for a long-lived process, Claude Code's auto-memory folder, client configs.

Front ends use these through ``Engine`` (engine/facade/agents.py), never directly.
"""
