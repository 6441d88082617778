"""Agents' way in: the stdio MCP server (``context-center mcp``), Claude Code's hooks
(``context-center hook claude-code EVENT``) and their logs.

Thin over ``Engine``: every tool, resource and hook is one Engine call (reads, recall, gated
writes, approval status, the access log); this package only speaks the protocols. Importing it
costs nothing: the MCP SDK is loaded by ``server`` alone, never by the hooks.
"""
