"""Competitor monitoring (/check) and department briefings (/report), v1 parity and beyond.

Modules:
    services   entry points for the faces: check_request, report_request, scheduled_fire,
               history_clear, the task bodies, and the schedule functions
    selectors  reads: latest_check, latest_report, monitor_view, run_items, run_get
    locks      the per-reporter database job lock (job_lock, job_reserve, job_running)
    schedules  daily KST schedules as django-celery-beat rows, and the /schedule parser
    check      the /check pipeline;  report: the /report pipeline (scenario A/B)
    mapping    title-first back-mapping of the model's answers to listed articles
    material   the numbered article list and history the model reads (user messages)
    common     window, search → whitelist, scraping, shared helpers
    clustering one event, one item: results that report the same event, grouped in code
    analysis   the model calls (filter_news, submit_analysis, submit_report) and their schemas
    departments what each desk covers, what makes a story matter, what /report searches
Telegram message formatting lives in newsdesk.telegram.formatters.
"""

from __future__ import annotations
