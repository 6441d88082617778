"""The PySide6 window over the engine. Nothing here is imported by the engine or the CLI handlers."""
