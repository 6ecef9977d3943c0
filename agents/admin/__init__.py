"""Admin for what the agents produced: articles and their verification issues, runs and LLM usage,
the publisher whitelist and the Naver quota counter.

Runs, LLM calls and usage are records, not documents: nobody edits them here. Editors review
verification issues (through agents.verification.review) and curate the publisher whitelist.

Importing this package registers every admin: articles and issues (`articles`), runs, LLM calls
and the Naver counter (`runs`), the publisher whitelist (`publishers`) and the monitoring records
(`monitoring`).
"""

from __future__ import annotations

from agents.admin.articles import (
    CANNOT_REOPEN,
    ISSUE_FIELDS,
    ISSUE_LABELS,
    REVIEWED,
    ArticleAdmin,
    ReviewForm,
    VerificationIssueAdmin,
    VerificationIssueInline,
)
from agents.admin.common import (
    RecordAdmin,
)
from agents.admin.monitoring import (
    MONITOR_ITEM_LABELS,
    JobLockAdmin,
    MonitorItemAdmin,
    MonitorResultAdmin,
    ReportCacheAdmin,
    ReportItemInline,
)
from agents.admin.publishers import (
    BAD_HOSTS,
    HOST_NAME,
    NOT_UNDER_DOMAIN,
    HostListField,
    PublisherAdmin,
    PublisherForm,
)
from agents.admin.runs import (
    LLM_CALL_LABELS,
    LLMCallAdmin,
    LLMCallInline,
    NaverUsageAdmin,
    ReadOnlyInline,
    RunAdmin,
    RunEventInline,
)

__all__ = [
    "BAD_HOSTS",
    "CANNOT_REOPEN",
    "HOST_NAME",
    "ISSUE_FIELDS",
    "ISSUE_LABELS",
    "LLM_CALL_LABELS",
    "MONITOR_ITEM_LABELS",
    "NOT_UNDER_DOMAIN",
    "REVIEWED",
    "ArticleAdmin",
    "HostListField",
    "JobLockAdmin",
    "LLMCallAdmin",
    "LLMCallInline",
    "MonitorItemAdmin",
    "MonitorResultAdmin",
    "NaverUsageAdmin",
    "PublisherAdmin",
    "PublisherForm",
    "ReadOnlyInline",
    "RecordAdmin",
    "ReportCacheAdmin",
    "ReportItemInline",
    "ReviewForm",
    "RunAdmin",
    "RunEventInline",
    "VerificationIssueAdmin",
    "VerificationIssueInline",
]
