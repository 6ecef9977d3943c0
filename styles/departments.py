"""The eight newsroom departments, in v1's order. Every app uses this one list."""

from __future__ import annotations

from django.db import models


class Department(models.TextChoices):
    SOCIETY = "사회부", "사회부"
    POLITICS = "정치부", "정치부"
    ECONOMY = "경제부", "경제부"
    INDUSTRY = "산업부", "산업부"
    TECH = "테크부", "테크부"
    CULTURE = "문화부", "문화부"
    SPORTS = "스포츠부", "스포츠부"
    INTERNATIONAL = "국제부", "국제부"


DEPARTMENTS: tuple[str, ...] = tuple(Department.values)


def normalize_department(raw: str) -> str | None:
    """Accepts '경제', '경제부', ' 경제부 ' and returns the canonical name, or None."""
    name = raw.strip().replace(" ", "")
    if name and not name.endswith("부"):
        name += "부"
    return name if name in DEPARTMENTS else None
