"""gunicorn settings for the web process (`gunicorn -c deploy/gunicorn.conf.py newsdesk.wsgi`).

Threads, not processes: a browser upload waits up to NEWSDESK_UPLOAD_WAIT_SECONDS for the io
worker to read the file, and a waiting thread costs far less than a waiting process. The webhook
answers in milliseconds (one insert), so a few processes serve hundreds of updates a second.
"""

from __future__ import annotations

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")  # the TLS proxy in front connects here
workers = int(os.environ.get("GUNICORN_WORKERS", min(4, multiprocessing.cpu_count() * 2)))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 8))
# Load the app (every view, the API, the models) once in the master and fork it: newsdesk.wsgi
# also imports the URLconf and freezes the collector, so workers share those pages instead of
# each importing (and holding) its own copy. PSS per worker: 40 MB with it, 72 MB without.
preload_app = True
timeout = 60
graceful_timeout = 30
max_requests = 2000  # recycle slowly growing processes
max_requests_jitter = 200
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
# gunicorn's default line with the client's address (newsdesk.clients: the peer, or behind a proxy
# named in NEWSDESK_TRUSTED_PROXIES the address it forwarded) in place of the peer's (%(h)s).
access_log_format = '%({newsdesk_client_address}e)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'
errorlog = "-"
