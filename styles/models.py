from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from pydantic import ValidationError as SchemaError

from styles.departments import Department
from styles.guide import StyleGuide
from styles.lint import pattern_error, replacement_error

MAX_EXAMPLES = 3
EXAMPLE_CHARS = 4000


class WritingStyle(models.Model):
    """A house style. Lookup order: reporter → publisher → department default → built-in."""

    class Scope(models.TextChoices):
        DEPARTMENT = "department", "부서 기본"
        PUBLISHER = "publisher", "언론사"
        REPORTER = "reporter", "기자"

    scope = models.CharField(max_length=12, choices=Scope.choices, default=Scope.DEPARTMENT)
    # Blank only for a publisher's style that applies in every department.
    department = models.CharField(max_length=10, choices=Department.choices, blank=True)
    publisher = models.CharField(max_length=50, blank=True)
    reporter = models.ForeignKey(
        "newsdesk.Reporter", null=True, blank=True, on_delete=models.CASCADE, related_name="writing_styles"
    )
    guide = models.JSONField(help_text="lead, structure, tone, forbidden[], length_default")
    example_articles = models.JSONField(default=list, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "작성 스타일"
        verbose_name_plural = "작성 스타일"
        constraints = [
            models.UniqueConstraint(
                fields=["department"],
                condition=models.Q(scope="department"),
                name="one_default_style_per_department",
            ),
            models.UniqueConstraint(
                fields=["department", "publisher"],
                condition=models.Q(scope="publisher"),
                name="one_style_per_publisher_department",
            ),
            models.UniqueConstraint(
                fields=["reporter", "department"],
                condition=models.Q(scope="reporter"),
                name="one_style_per_reporter_department",
            ),
        ]

    def __str__(self) -> str:
        if self.scope == self.Scope.REPORTER:
            return f"{self.department} · {self.reporter}"
        if self.scope == self.Scope.PUBLISHER:
            return f"{self.publisher} · {self.department}" if self.department else self.publisher
        return f"{self.department} 기본"

    def clean(self) -> None:
        try:
            self.guide = StyleGuide.model_validate(self.guide).model_dump()
        except SchemaError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'guide'}: {e['msg']}" for e in exc.errors()
            )
            raise ValidationError({"guide": f"스타일 가이드 형식이 올바르지 않습니다 ({problems})"}) from exc
        if self.scope == self.Scope.REPORTER and not self.reporter_id:
            raise ValidationError({"reporter": "기자 스타일에는 기자를 지정해야 합니다"})
        if self.scope == self.Scope.PUBLISHER and not self.publisher:
            raise ValidationError({"publisher": "언론사 스타일에는 언론사를 지정해야 합니다"})
        if self.scope != self.Scope.PUBLISHER and not self.department:
            raise ValidationError({"department": "부서를 지정해야 합니다 (부서 공통은 언론사 스타일만 가능)"})
        self._clean_examples()

    def _clean_examples(self) -> None:
        examples = self.example_articles
        if not isinstance(examples, list) or not all(isinstance(item, str) for item in examples):
            raise ValidationError({"example_articles": "예시 기사는 문자열 목록이어야 합니다"})
        if len(examples) > MAX_EXAMPLES:
            raise ValidationError({"example_articles": f"예시 기사는 {MAX_EXAMPLES}개까지 넣을 수 있습니다"})
        if any(len(item) > EXAMPLE_CHARS for item in examples):
            raise ValidationError({"example_articles": f"예시 기사는 하나에 {EXAMPLE_CHARS:,}자까지입니다"})


class LintRule(models.Model):
    """One house-style lint rule: data, checked in code on every draft and edit (styles.lint)."""

    name = models.CharField("분류", max_length=40, help_text="예: 번역투, 이중 피동, 기자 주관어")
    pattern = models.CharField("패턴(정규식)", max_length=300)
    suggestion = models.CharField("고칠 방법", max_length=200)
    replacement = models.CharField(
        "자동 수정",
        max_length=100,
        blank=True,
        default="",
        help_text="'고쳐줘'가 일치한 부분 대신 쓸 말(\\1 등 그룹 사용 가능). 비우면 자동으로 고치지 않습니다",
    )
    unless = models.CharField(
        "예외(같은 문장에 있으면 통과)", max_length=200, blank=True, help_text="정규식, 예: 따르면|밝혔"
    )
    min_count = models.PositiveSmallIntegerField(
        "최소 횟수",
        default=1,
        help_text="2 이상이면 기사에 그만큼 나올 때만, 첫 번째를 뺀 나머지를 지적합니다",
    )
    skip_in_quotes = models.BooleanField("직접 인용 안은 제외", default=False)
    department = models.CharField(
        "부서", max_length=10, choices=Department.choices, blank=True, help_text="비우면 모든 부서"
    )
    active = models.BooleanField("사용", default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "표기 점검 규칙"
        verbose_name_plural = "표기 점검 규칙"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.name}: {self.pattern}"

    def clean(self) -> None:
        for field_name in ("pattern", "unless"):
            value = getattr(self, field_name)
            problem = pattern_error(value) if value else None
            if problem:
                raise ValidationError({field_name: f"정규식이 올바르지 않습니다: {problem}"})
        problem = replacement_error(self.pattern, self.replacement) if self.replacement else None
        if problem:
            raise ValidationError({"replacement": f"자동 수정 문구가 올바르지 않습니다: {problem}"})
