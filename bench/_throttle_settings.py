"""Settings for bench/login_throttle.py: the product's, with failures counted elsewhere.

NEWSDESK_BENCH_COUNTS picks where: `database` (the product: newsdesk.lockouts on axes' database
handler), `locmem` / `redis` (axes' cache handler on Django's per-process memory cache or on
Redis, the storage of a throttle built on Django's cache) or `off` (no throttle).
"""

from __future__ import annotations

import os

from newsdesk.settings import *  # noqa: F403

COUNTS = os.environ.get("NEWSDESK_BENCH_COUNTS", "database")
if COUNTS == "off":
    AXES_ENABLED = False
elif COUNTS in ("locmem", "redis"):
    AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
    AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
    AXES_FAILURE_LIMIT = 5
    if COUNTS == "redis":
        CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": os.environ["NEWSDESK_BENCH_CACHE_URL"],
            }
        }
