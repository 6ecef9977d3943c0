"""The "editors" group: curate styles, review verification issues, keep the publisher whitelist.

Editors never see reporters, API tokens, conversations, runs or LLM calls, so they never see a
key's status or what a reporter said to the bot.
"""

from __future__ import annotations

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "editors"
PERMISSIONS = {
    "styles": {"writingstyle": ("view", "change", "add")},
    "agents": {
        "article": ("view",),
        "verificationissue": ("view", "change"),
        "publisher": ("view", "change"),
    },
}


def create_editors(apps, schema_editor):
    using = schema_editor.connection.alias
    for label in PERMISSIONS:
        # Permissions are normally created by post_migrate, after every migration has run; on a
        # fresh database they do not exist yet. The guard in create_permissions() reads
        # models_module, which the migration registry's app stubs lack, so the real app config
        # is passed while the models (and Permission/ContentType) come from the migration state.
        create_permissions(global_apps.get_app_config(label), verbosity=0, using=using, apps=apps)

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(using).get_or_create(name=GROUP)
    permissions = []
    for label, models in PERMISSIONS.items():
        codenames = [f"{action}_{model}" for model, actions in models.items() for action in actions]
        found = list(
            Permission.objects.using(using).filter(content_type__app_label=label, codename__in=codenames)
        )
        if len(found) != len(codenames):
            missing = sorted(set(codenames) - {permission.codename for permission in found})
            raise RuntimeError(f"{label}: permissions {missing} do not exist")
        permissions += found
    # add(), not set(): rerunning must not take away what an administrator granted since.
    group.permissions.add(*permissions)


def delete_editors(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("newsdesk", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("agents", "0003_naver_usage"),
        ("styles", "0002_department_defaults"),
        ("conversations", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_editors, delete_editors)]
