"""The publisher whitelist, curated by editors: host names are checked and normalised."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from agents.models import Publisher
from styles.admin import LabelledAdmin

# Text the admin shows (errors); labels sit with the admin below.
BAD_HOSTS = "호스트 이름이 아닙니다: {hosts}. 'news.example.com'처럼 주소 없이 적어 주세요."
NOT_UNDER_DOMAIN = "{domain}의 하위 호스트가 아닙니다: {hosts}"

HOST_NAME = re.compile(r"(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+")


def _normalize_host(raw: str) -> str:
    return raw.strip().lower().rstrip(".")


class HostListField(forms.Field):
    """A list of host names typed one per line or separated by commas."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value: Any) -> Any:
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        hosts = [_normalize_host(item) for item in re.split(r"[,\s]+", value or "") if item.strip()]
        bad = [host for host in hosts if not HOST_NAME.fullmatch(host)]
        if bad:
            raise ValidationError(BAD_HOSTS.format(hosts=", ".join(bad)))
        return list(dict.fromkeys(hosts))  # drop repeats, keep the order


class PublisherForm(forms.ModelForm):
    exclude_subdomains = HostListField(
        label="제외 호스트",
        required=False,
        help_text="한 줄에 하나씩(또는 쉼표로 구분). 이 호스트는 매칭하지 않습니다.",
    )

    class Meta:
        model = Publisher
        fields = ("name", "domain", "category", "exclude_subdomains", "active", "position")

    def clean_domain(self) -> str:
        domain = _normalize_host(self.cleaned_data["domain"])
        if not HOST_NAME.fullmatch(domain):
            raise ValidationError(BAD_HOSTS.format(hosts=domain))
        return domain

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        domain, hosts = cleaned.get("domain"), cleaned.get("exclude_subdomains") or []
        if domain:
            # An excluded host outside the domain could never match anyway: most likely a typo.
            stray = [host for host in hosts if not host.endswith("." + domain)]
            if stray:
                self.add_error(
                    "exclude_subdomains", NOT_UNDER_DOMAIN.format(domain=domain, hosts=", ".join(stray))
                )
        return cleaned


@admin.register(Publisher)
class PublisherAdmin(LabelledAdmin):
    form = PublisherForm
    labels = {
        "name": "언론사",
        "domain": "도메인",
        "category": "분류",
        "exclude_subdomains": "제외 호스트",
        "active": "사용",
        "position": "순서",
    }
    list_display = ("position", "name", "domain", "category", "exclude_subdomains", "active")
    list_display_links = ("name",)
    list_editable = ("active", "position")
    list_filter = ("active", "category")
    search_fields = ("name", "domain")
    ordering = ("position", "id")
