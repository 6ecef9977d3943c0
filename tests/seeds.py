"""Puts back what the data migrations seed, after a transactional test flushed the database.

Tests that need real commits (workers, the browser, concurrent requests) end with a flush, which
also empties the publisher whitelist, the department styles and the editors group; the next test
on the same xdist process must still see the database the migrations made.
"""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace

from django.apps import apps
from django.db import connection

SEEDS = [
    ("agents.migrations.0002_seed_publishers", "seed"),
    ("styles.migrations.0002_department_defaults", "seed"),
    ("newsdesk.migrations.0002_editors_group", "create_editors"),
]


def reseed() -> None:
    schema_editor = SimpleNamespace(connection=connection)  # what the seed functions read from it
    for module, function in SEEDS:
        getattr(import_module(module), function)(apps, schema_editor)
