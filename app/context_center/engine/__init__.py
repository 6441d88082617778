"""The Qt-free context engine: fact store, instructions, recall, write gate, suggestions.

Nothing in this package may import PySide6 or qasync (tests/engine/test_no_qt.py).
"""
