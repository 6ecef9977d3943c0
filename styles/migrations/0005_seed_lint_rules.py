"""Seed the curated lint list and let the editors group curate it."""

from __future__ import annotations

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

from styles.lint_rules import CURATED_RULES

EDITOR_ACTIONS = ("view", "add", "change", "delete")


def seed(apps, schema_editor):
    LintRule = apps.get_model("styles", "LintRule")
    for rule in CURATED_RULES:
        LintRule.objects.get_or_create(name=rule["name"], pattern=rule["pattern"], defaults=rule)
    using = schema_editor.connection.alias
    # Permissions normally appear after every migration (post_migrate); see newsdesk 0002.
    create_permissions(global_apps.get_app_config("styles"), verbosity=0, using=using, apps=apps)
    group = apps.get_model("auth", "Group").objects.using(using).filter(name="editors").first()
    if group is not None:
        Permission = apps.get_model("auth", "Permission")
        codenames = [f"{action}_lintrule" for action in EDITOR_ACTIONS]
        group.permissions.add(
            *Permission.objects.using(using).filter(content_type__app_label="styles", codename__in=codenames)
        )


def unseed(apps, schema_editor):
    LintRule = apps.get_model("styles", "LintRule")
    for rule in CURATED_RULES:
        LintRule.objects.filter(name=rule["name"], pattern=rule["pattern"]).delete()


class Migration(migrations.Migration):
    dependencies = [("styles", "0004_lint_rule"), ("newsdesk", "0002_editors_group")]
    operations = [migrations.RunPython(seed, unseed)]
