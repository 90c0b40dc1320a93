"""Widgets (being written)."""
