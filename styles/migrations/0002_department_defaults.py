from __future__ import annotations

from django.db import migrations

from styles.defaults import DEPARTMENT_GUIDES


def seed(apps, schema_editor):
    WritingStyle = apps.get_model("styles", "WritingStyle")
    for department, guide in DEPARTMENT_GUIDES.items():
        WritingStyle.objects.get_or_create(scope="department", department=department, defaults={"guide": guide})


def unseed(apps, schema_editor):
    apps.get_model("styles", "WritingStyle").objects.filter(scope="department").delete()


class Migration(migrations.Migration):
    dependencies = [("styles", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
