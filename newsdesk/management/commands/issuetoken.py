from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from newsdesk.models import Reporter
from newsdesk.services import token_issue


class Command(BaseCommand):
    help = "Prints a new API token for a reporter. Only its hash is stored: copy it now."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        reporter = Reporter.objects.filter(user__username=options["username"]).first()
        if reporter is None:
            raise CommandError(f"no reporter with username {options['username']!r}")
        self.stdout.write(token_issue(reporter=reporter))
