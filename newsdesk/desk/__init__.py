"""The web drafting desk (HTMX): new drafts, live progress, results, edits, verify-only, profile."""

from __future__ import annotations
