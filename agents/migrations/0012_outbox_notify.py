"""On PostgreSQL, an insert into the outbox notifies the listening relay (agents.work.relay)."""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

CHANNEL = "newsdesk_outbox"

CREATE = f"""
CREATE OR REPLACE FUNCTION newsdesk_outbox_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER newsdesk_outbox_notify AFTER INSERT ON agents_outboxmessage
    FOR EACH ROW EXECUTE FUNCTION newsdesk_outbox_notify();
"""
DROP = """
DROP TRIGGER IF EXISTS newsdesk_outbox_notify ON agents_outboxmessage;
DROP FUNCTION IF EXISTS newsdesk_outbox_notify();
"""


def _on_postgresql(sql: str):  # type: ignore[no-untyped-def]
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("agents", "0011_upload_ocr")]

    operations = [migrations.RunPython(_on_postgresql(CREATE), _on_postgresql(DROP))]
