"""The shape of a style guide, validated wherever one is saved or read."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


class StyleGuide(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    lead: str = Field(min_length=1, max_length=500)
    structure: str = Field(min_length=1, max_length=500)
    tone: str = Field(min_length=1, max_length=500)
    forbidden: list[str] = Field(default_factory=list, max_length=50)
    length_default: str = Field(default="300~600자", max_length=40)

    @field_validator("forbidden")
    @classmethod
    def _no_blank_expressions(cls, value: list[str]) -> list[str]:
        cleaned = [item.strip() for item in value]
        if any(not item for item in cleaned):
            raise ValueError("금지 표현에 빈 항목이 있습니다")
        return cleaned

    def as_prompt(self) -> str:
        forbidden = ", ".join(f"'{item}'" for item in self.forbidden) or "없음"
        return (
            f"- 리드: {self.lead}\n- 구성: {self.structure}\n- 문체: {self.tone}\n"
            f"- 금지 표현: {forbidden}\n- 기본 분량: {self.length_default}"
        )
