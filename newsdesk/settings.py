"""Django settings for newsdesk.

Everything is read from the environment with strict helpers; the defaults give a working
laptop setup with no services (SQLite + the kombu filesystem broker, both under var/).
"""

from __future__ import annotations

import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from newsdesk.env import env_bool, env_int, env_list, env_secret, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("NEWSDESK_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _persisted_secret(name: str, make: str) -> str:
    """A random secret kept under var/ so a laptop needs no configuration.

    Production sets the variable instead; the file is created 0600 on first use.
    """
    path = VAR_DIR / name
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(make, encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_secret("DJANGO_SECRET_KEY") or _persisted_secret("secret_key", secrets.token_urlsafe(50))
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ("127.0.0.1", "localhost", "[::1]"))
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# Behind HTTPS in production: secure cookies, HSTS and redirects. Off on a laptop (plain http).
HTTPS = env_bool("NEWSDESK_HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",
    "django_celery_beat",
    "axes",
    "newsdesk",
    "agents",
    "conversations",
    "styles",
]

MIDDLEWARE = [
    "newsdesk.clients.ClientAddressMiddleware",
    "newsdesk.outage.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Compresses HTML, JSON and (being outside WhiteNoise, which answers static files itself) the
    # CSS and JS. Django masks the CSRF token per response, so compression leaks no secret (BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "newsdesk.middleware.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Turns a login the throttle refused into the wait page (newsdesk.lockouts.lockout_response).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "newsdesk.urls"
WSGI_APPLICATION = "newsdesk.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'newsdesk.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one file: WAL lets readers and the writer overlap, IMMEDIATE
    # takes the write lock up front (a deferred read-then-write fails with SQLITE_BUSY no matter
    # the timeout), and secure_delete makes the retention purge actually erase text.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON;",
    }
    # Tests use a file too: an in-memory database is one connection, and the worker and browser
    # tests (and concurrent tool calls) need several.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DJANGO_CONN_MAX_AGE", 60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# --- Login throttling (newsdesk.lockouts) ------------------------------------------------------
# Proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated); none by
# default, so the connection's peer is the client (newsdesk.clients).
NEWSDESK_TRUSTED_PROXIES = env_list("NEWSDESK_TRUSTED_PROXIES")
NEWSDESK_LOGIN_FAILURE_LIMIT = env_int("NEWSDESK_LOGIN_FAILURE_LIMIT", 5)  # per account and address
NEWSDESK_LOGIN_ADDRESS_LIMIT = env_int("NEWSDESK_LOGIN_ADDRESS_LIMIT", 20)  # per address, all accounts
NEWSDESK_API_TOKEN_FAILURE_LIMIT = env_int("NEWSDESK_API_TOKEN_FAILURE_LIMIT", 10)  # per address
NEWSDESK_LOGIN_COOLOFF_MINUTES = env_int("NEWSDESK_LOGIN_COOLOFF_MINUTES", 15)
if min(NEWSDESK_LOGIN_FAILURE_LIMIT, NEWSDESK_LOGIN_ADDRESS_LIMIT, NEWSDESK_API_TOKEN_FAILURE_LIMIT) < 1:
    raise ImproperlyConfigured("login and token failure limits must be at least 1")
if NEWSDESK_LOGIN_COOLOFF_MINUTES < 1:
    raise ImproperlyConfigured("NEWSDESK_LOGIN_COOLOFF_MINUTES must be at least 1")
# The axes backend goes first: it refuses a locked login before ModelBackend hashes the password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "newsdesk.lockouts.LockoutHandler"  # records in the database: shared by every process
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = "newsdesk.lockouts.failure_limit"
AXES_COOLOFF_TIME = "newsdesk.lockouts.cool_off_for"
AXES_CLIENT_IP_CALLABLE = "newsdesk.lockouts.address_key"
AXES_LOCKOUT_CALLABLE = "newsdesk.lockouts.lockout_response"
AXES_RESET_ON_SUCCESS = True  # forgives the pair only (LockoutHandler.reset_user_attempts)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a refused attempt does not extend the wait
AXES_DISABLE_ACCESS_LOG = True  # no table of every successful login
AXES_ENABLE_ADMIN = False  # newsdesk.admin lists the records in Korean
AXES_VERBOSE = False

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/desk/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "ko-kr"
TIME_ZONE = "Asia/Seoul"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# Serve straight from the app folders: no collectstatic step on a fresh machine.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Uploads are at most 3 MB; anything bigger is refused before it reaches a parser.
DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or "filesystem://"
# Redis hands an unacknowledged message to another worker only after this long. Recovery from a
# dead worker does not wait for it (run heartbeats + the sweeper below do that); it only bounds how
# long a message of a killed worker lingers. Every task's hard time limit must stay below it, or a
# slow task would be handed out again while it still runs.
CELERY_VISIBILITY_TIMEOUT = env_int("NEWSDESK_VISIBILITY_TIMEOUT", 3600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("NEWSDESK_TASK_SOFT_TIME_LIMIT", 240)
CELERY_TASK_TIME_LIMIT = env_int("NEWSDESK_TASK_TIME_LIMIT", 300)
if not CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT:
    raise ImproperlyConfigured(
        "need NEWSDESK_TASK_SOFT_TIME_LIMIT < NEWSDESK_TASK_TIME_LIMIT < NEWSDESK_VISIBILITY_TIMEOUT"
    )
if CELERY_BROKER_URL.startswith("filesystem"):
    _queue_dir = VAR_DIR / "broker" / "queue"
    _processed_dir = VAR_DIR / "broker" / "processed"
    _queue_dir.mkdir(parents=True, exist_ok=True)
    _processed_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(_processed_dir),
        "store_processed": False,
        # kombu keeps exchange bindings in ./control by default, i.e. wherever the process started.
        "control_folder": str(VAR_DIR / "broker" / "control"),
        # Workers list the queue folder this often: 0.1 s starts a task in ~56 ms instead of ~0.5 s
        # for 0.2 s of CPU a minute per idle worker (bench/broker.py).
        "polling_interval": 0.1,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        # A publish to an unreachable broker fails at once instead of retrying forever: the work
        # is already in the outbox and the relay sends it when the broker is back.
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.5,
        "socket_connect_timeout": 3,
        "socket_timeout": 10,
    }
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True  # job state lives in our own models
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True  # ack after the task returns; tasks are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True  # requeue if a child dies; Run.attempts caps the loop
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # one slow LLM job never strands others behind it
# Celery's Django fixup closes every database connection before and after every task unless this
# is set, so a worker opened a new PostgreSQL connection (a server process, its startup round trips)
# for each Telegram update. With it, a thread keeps its connection between tasks and
# newsdesk.celery's own check before and after each task (CONN_MAX_AGE, health check) decides when
# it goes; the fixup still closes one every this many tasks of the process.
CELERY_DB_REUSE_MAX = 10_000
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = 30
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = "io"
CELERY_TASK_ROUTES = {
    "agents.tasks.draft_*": {"queue": "llm"},
    "agents.tasks.edit_*": {"queue": "llm"},
    "agents.tasks.monitor_*": {"queue": "llm"},
    "newsdesk.telegram.tasks.*": {"queue": "llm"},
}
# Recovery after a crash (seconds): a claimed run/update beats every HEARTBEAT; one silent for
# HEARTBEAT_STALE is taken over; queued work the broker lost is sent again after REQUEUE_AFTER;
# the sweeper that does both runs every SWEEP; each worker relays the outbox every RELAY.
NEWSDESK_HEARTBEAT_SECONDS = env_int("NEWSDESK_HEARTBEAT_SECONDS", 10)
NEWSDESK_HEARTBEAT_STALE_SECONDS = env_int("NEWSDESK_HEARTBEAT_STALE_SECONDS", 60)
NEWSDESK_REQUEUE_AFTER_SECONDS = env_int("NEWSDESK_REQUEUE_AFTER_SECONDS", 120)
NEWSDESK_SWEEP_SECONDS = env_int("NEWSDESK_SWEEP_SECONDS", 30)
NEWSDESK_OUTBOX_RELAY_SECONDS = env_int("NEWSDESK_OUTBOX_RELAY_SECONDS", 2)
# On PostgreSQL the web process only stores work: an insert into the outbox notifies the workers,
# whose relay (one of them, the holder of an advisory lock) hands it to the broker at once
# (agents.work.relay). Elsewhere (SQLite, no NOTIFY) the process that stored it publishes it.
NEWSDESK_RELAY_ON_NOTIFY = env_bool(
    "NEWSDESK_RELAY_ON_NOTIFY", DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
)
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
_SWEEP = float(NEWSDESK_SWEEP_SECONDS)
CELERY_BEAT_SCHEDULE = {
    "purge-expired": {"task": "agents.tasks.purge_expired", "schedule": 3600.0},
    "sweep-stalled-runs": {
        "task": "agents.tasks.sweep_stalled_runs",
        "schedule": _SWEEP,
    },
    "sweep-telegram": {
        "task": "newsdesk.telegram.tasks.sweep_telegram",
        "schedule": _SWEEP,
    },
    "purge-conversations": {"task": "conversations.tasks.purge_expired_messages", "schedule": 3600.0},
    "purge-telegram-updates": {"task": "newsdesk.telegram.tasks.purge_updates", "schedule": 3600.0},
}

# --- Product settings -----------------------------------------------------------------------
NEWSDESK_LLM_MODEL = env_str("NEWSDESK_LLM_MODEL") or "claude-haiku-4-5-20251001"
# The models a reporter may choose (/set_model, the desk profile, PUT /api/me), one row each:
# a Korean label, USD prices per million tokens (input, output, 5-minute cache write, cache read),
# the day the model retires (None: none announced) and the request settings that differ by model:
# `thinking_when_forced` maps a tool_choice type ("tool": one named tool, "any": some tool) to the
# thinking setting sent with it, since forced tool use and thinking do not mix (Haiku 4.5 thinks
# only when asked; Sonnet 5 thinks adaptively unless told not to); `min_cache_tokens` is the
# shortest prompt prefix the model caches (agents.llm.client sends no cache marker below it). Figures
# from Anthropic's model pages, checked 2026-11-24. Sonnet 5.5 is left out on purpose: it answers
# 400 to a forced tool_choice and to thinking "disabled", which the structured calls here rely on.
# A default or department model missing from this table, or past its retirement day, stops the
# server at startup (agents.llm.startup).
NEWSDESK_LLM_MODELS: dict[str, dict[str, object]] = {
    "claude-haiku-4-5-20251001": {
        "label": "Haiku 4.5 (빠르고 저렴)",
        "input": "1",
        "output": "5",
        "cache_write": "1.25",
        "cache_read": "0.10",
        "retires": None,
        "thinking_when_forced": {"tool": {"type": "disabled"}},
        "min_cache_tokens": 4096,
    },
    "claude-sonnet-5": {
        "label": "Sonnet 5 (어려운 기사)",
        "input": "2",
        "output": "10",
        "cache_write": "2.50",
        "cache_read": "0.20",
        "retires": None,
        "thinking_when_forced": {"tool": {"type": "disabled"}, "any": {"type": "disabled"}},
        "min_cache_tokens": 1024,
    },
}
# A department's default model when its reporters chose none (else NEWSDESK_LLM_MODEL).
NEWSDESK_DEPARTMENT_MODELS: dict[str, str] = {}
ANTHROPIC_API_KEY = env_secret("ANTHROPIC_API_KEY")
ANTHROPIC_BASE_URL = env_str("ANTHROPIC_BASE_URL") or None
NEWSDESK_LLM_TIMEOUT = env_int("NEWSDESK_LLM_TIMEOUT", 90)
# Model time the writing loop may spend on a draft; then it ends with the best article it has.
NEWSDESK_WRITING_DEADLINE_SECONDS = env_int("NEWSDESK_WRITING_DEADLINE_SECONDS", 60)
if NEWSDESK_WRITING_DEADLINE_SECONDS < 1:
    raise ImproperlyConfigured("NEWSDESK_WRITING_DEADLINE_SECONDS must be at least 1")
NEWSDESK_ENCRYPTION_KEYS = env_list("NEWSDESK_ENCRYPTION_KEYS") or None  # see newsdesk.crypto
NEWSDESK_UPLOAD_WAIT_SECONDS = env_int("NEWSDESK_UPLOAD_WAIT_SECONDS", 20)
# A chat quiet this long (ms) ends a split paste: the Telegram client sends the parts within ~1 s.
NEWSDESK_PASTE_QUIET_MS = env_int("NEWSDESK_PASTE_QUIET_MS", 1500)
# How long a draft waits for the io worker to OCR its photo or scan (10 pages at most; see files.ocr).
NEWSDESK_OCR_WAIT_SECONDS = env_int("NEWSDESK_OCR_WAIT_SECONDS", 120)

TELEGRAM_BOT_TOKEN = env_secret("TELEGRAM_BOT_TOKEN")
TELEGRAM_WEBHOOK_SECRET = env_secret("TELEGRAM_WEBHOOK_SECRET")
TELEGRAM_API_BASE_URL = env_str("TELEGRAM_API_BASE_URL") or "https://api.telegram.org/bot"
TELEGRAM_FILE_BASE_URL = env_str("TELEGRAM_FILE_BASE_URL") or "https://api.telegram.org/file/bot"
NEWSDESK_ADMIN_TELEGRAM_IDS = [int(x) for x in env_list("NEWSDESK_ADMIN_TELEGRAM_IDS") if x.isdigit()]
NEWSDESK_PUBLIC_URL = env_str("NEWSDESK_PUBLIC_URL") or "http://127.0.0.1:8000"

NAVER_CLIENT_ID = env_secret("NAVER_CLIENT_ID")
NAVER_CLIENT_SECRET = env_secret("NAVER_CLIENT_SECRET")
NAVER_API_BASE_URL = env_str("NAVER_API_BASE_URL") or "https://openapi.naver.com"
NEWSDESK_SCRAPE_ALLOW_PRIVATE = env_bool("NEWSDESK_SCRAPE_ALLOW_PRIVATE", False)

# --- Logging --------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "newsdesk.logs.RedactSecretsFilter"},
        "logged_elsewhere": {"()": "newsdesk.logs.SkipLoggedElsewhere"},
    },
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["redact"]},
    },
    "root": {"handlers": ["console"], "level": env_str("NEWSDESK_LOG_LEVEL") or "INFO"},
    "loggers": {
        # A response we log ourselves (newsdesk.logs.mark_logged_elsewhere) is not logged twice.
        "django.request": {"filters": ["logged_elsewhere"]},
        # These log full request URLs, and Telegram puts the bot token in the URL path.
        "httpx": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
        "httpcore": {"level": "WARNING"},
        "telegram": {"level": "WARNING"},
        "anthropic": {"level": "WARNING"},
        # axes writes a line per failed login; newsdesk.lockouts writes one per lock instead.
        "axes": {"level": "ERROR"},
    },
}
