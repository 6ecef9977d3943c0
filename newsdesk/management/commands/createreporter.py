from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import IntegrityError

from newsdesk.services import ProfileError, reporter_create


class Command(BaseCommand):
    help = "Creates a reporter with a login (and optionally keywords, an Anthropic key and a Telegram id)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", required=True)
        parser.add_argument(
            "--department", required=True, help="사회부 정치부 경제부 산업부 테크부 문화부 스포츠부 국제부"
        )
        parser.add_argument("--keywords", default="", help="comma-separated, e.g. 서부지검,서부지법")
        parser.add_argument("--anthropic-key", default="")
        parser.add_argument("--telegram-id", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            reporter = reporter_create(
                username=options["username"],
                password=options["password"],
                department=options["department"],
                keywords=[k for k in options["keywords"].split(",") if k.strip()],
                telegram_id=options["telegram_id"],
                anthropic_key=options["anthropic_key"],
            )
        except ProfileError as exc:
            raise CommandError(exc.user_message) from exc
        except IntegrityError as exc:
            raise CommandError("이미 있는 사용자 이름이거나 텔레그램 id입니다.") from exc
        self.stdout.write(f"created reporter {reporter} ({reporter.department})")
