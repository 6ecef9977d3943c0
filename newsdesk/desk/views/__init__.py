"""Desk views, one module per page group; each view parses, calls a service or selector, renders."""

from __future__ import annotations
