# Every target is a thin wrapper over `uv run`; uv is installed on first use.
SHELL := /bin/bash
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON_PREFERENCE := only-system
export UV_PYTHON ?= python3.11
UV := $(shell command -v uv 2>/dev/null || echo python3 -m uv)
RUN := $(UV) run --frozen
WORKER_CONCURRENCY ?= 2
# The llm queue waits on HTTP (the model answers in seconds), so its worker runs a thread pool:
# one process holds dozens of drafts. The io queue parses files (CPU) and stays prefork.
LLM_CONCURRENCY ?= 32

.PHONY: run test test-fast lint fmt migrate install ocr web worker beat bench clean

.venv/.synced: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen
	@touch $@

install: .venv/.synced

migrate: install
	$(RUN) python manage.py migrate --noinput

# Tesseract and its Korean model read photos and scanned PDFs. Installed when missing (as root or
# with sudo); where that is impossible the app still runs and says so for image input.
ocr:
	@tesseract --list-langs 2>/dev/null | grep -qx kor || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
	  else echo "OCR: cannot install tesseract-ocr tesseract-ocr-kor (not root); photos will be refused"; exit 0; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-kor >/dev/null \
	  || echo "OCR: installing tesseract-ocr tesseract-ocr-kor failed; photos will be refused"; }

# Web on 127.0.0.1:$(PORT), one worker per queue (llm: agent loops in LLM_CONCURRENCY threads; io:
# files, scraping, Telegram in WORKER_CONCURRENCY processes) and beat, under supervisord
# (deploy/supervisord.conf): a program that exits is restarted and the restart printed. Ctrl-C
# stops all of them.
PORT ?= 8000
BIN := .venv/bin
run: migrate ocr
	@mkdir -p var/run
	NEWSDESK_RUN_DIR=$(CURDIR)/var/run NEWSDESK_PORT=$(PORT) LLM_CONCURRENCY=$(LLM_CONCURRENCY) WORKER_CONCURRENCY=$(WORKER_CONCURRENCY) \
	  exec $(BIN)/supervisord -c deploy/supervisord.conf

test: install
	$(RUN) pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

test-fast: install
	$(RUN) pytest -n 2 -m "not e2e and not integration" $(PYTEST_ARGS)

lint: install
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) mypy .

fmt: install
	$(RUN) ruff check --fix .
	$(RUN) ruff format .

bench: install
	@for script in bench/*.py; do echo "== $$script"; $(RUN) python $$script || exit 1; done

clean:
	rm -rf var/broker var/screenshots
