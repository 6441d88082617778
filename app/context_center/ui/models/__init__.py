"""Thin Qt item models over plain, immutable Python rows (sorting and filtering happen in Python)."""
