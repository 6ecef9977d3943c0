"""A fake Telegram Bot API on loopback, for the real client (python-telegram-bot) to talk HTTP to.

It is a real server (a ThreadingHTTPServer in a daemon thread), so it works from several threads
and from other processes (a Celery worker subprocess) alike: pass it the same settings.

Wiring (add to tests/conftest.py; the fixture lives here so conftest only re-exports it):

    from tests.fakes.telegram import fake_telegram  # noqa: F401  (a pytest fixture)

or by hand:

    fake = FakeTelegram()
    settings.TELEGRAM_BOT_TOKEN = fake.token
    settings.TELEGRAM_API_BASE_URL = fake.base_url          # http://127.0.0.1:PORT/bot (token appended)
    settings.TELEGRAM_FILE_BASE_URL = fake.file_base_url    # http://127.0.0.1:PORT/file/bot
    ...
    fake.close()

For a subprocess, export the same three values as environment variables.

What it serves, at `/bot<token>/<method>` (JSON, form or multipart bodies, or a query string, as
PTB and curl send them): getMe, sendMessage, editMessageText, deleteMessage, getFile, setWebhook,
deleteWebhook, getWebhookInfo, getUpdates (long polling), sendChatAction, answerCallbackQuery,
setMyCommands (the menu is kept in `fake.commands`);
and `/file/bot<token>/<file_path>` downloads (recorded as method "download"). A wrong token gets
401 Unauthorized, an unknown method 404, like Telegram.

Like Telegram, sendMessage/editMessageText with parse_mode=HTML reject unsupported or unclosed tags
("can't parse entities"), so an unescaped `<script>` fails loudly; text longer than 4096 UTF-16
units after entity parsing gets "message is too long"; an identical edit gets "message is not
modified"; deleting a missing message gets "message to delete not found"; an unknown file_id gets
"invalid file_id".

Scripting:

    fake.fail("sendMessage", status=429, retry_after=3, times=1)   # flood control
    fake.fail("sendMessage", status=403, description="Forbidden: bot was blocked by the user")
    fake.fail("getFile", status=400, description="Bad Request: invalid file_id")
    fake.block(chat_id)            # every call for this chat: 403 bot was blocked by the user
    fake.unknown_chat(chat_id)     # every call for this chat: 400 chat not found
    fake.stall("sendMessage", 2.0) # handled normally, but answered only after 2 s (a lost answer)
    fake.flood_control(min_interval=1.0, retry_after=3)  # >1 message/s to one chat gets a 429
    fake.add_file("F1", b"%PDF...", file_name="a.pdf", file_path="documents/file_1.pdf")
    fake.push_update(text_update(chat_id=42, text="/start"))   # for getUpdates
    callback_update(chat_id=42, message_id=7, data="div:경제부")  # a tapped inline button

Reading what happened:

    fake.sent_texts(chat_id)       # texts as first sent (as the user sees them: tags removed,
                                   # entities decoded), in order, deleted ones included
    fake.visible_texts(chat_id)    # what the chat shows now (after edits, without deleted ones)
    fake.messages(chat_id)         # SentMessage records: id, text, raw html, history, deleted
    fake.calls_for("sendMessage")  # Call records: method, params, at (monotonic), status
    fake.calls                     # everything, in arrival order
"""

from __future__ import annotations

import contextlib
import itertools
import json
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from tests.fakes.server import Loopback, QuietHandler

MAX_TEXT = 4096
JSON_FIELDS = {
    "reply_markup",
    "link_preview_options",
    "allowed_updates",
    "entities",
    "reply_parameters",
    "caption_entities",
    "commands",
}
INT_FIELDS = {"message_id", "offset", "limit", "timeout", "max_connections"}
ALLOWED_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "code",
    "pre",
    "blockquote",
    "tg-emoji",
}
BLOCKED = "Forbidden: bot was blocked by the user"
CHAT_NOT_FOUND = "Bad Request: chat not found"
DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: BLOCKED,
    404: "Not Found",
    409: "Conflict: terminated by other getUpdates request",
    500: "Internal Server Error",
    502: "Bad Gateway",
}
CHAT_METHODS = {"sendMessage", "editMessageText", "deleteMessage", "sendChatAction"}
_update_ids = itertools.count(100_000_001)
_message_ids = itertools.count(1)


def _new_token() -> str:
    bot_id = 7_000_000_000 + secrets.randbelow(999_999_999)
    body = "AA" + secrets.token_urlsafe(24)
    return f"{bot_id}:{body}x"  # ends alphanumeric, like the canary the redaction test looks for


def text_update(
    *,
    chat_id: int,
    text: str,
    user_id: int | None = None,
    update_id: int | None = None,
    message_id: int | None = None,
) -> dict[str, Any]:
    """A private-chat text message update, shaped like Telegram's."""
    user = user_id if user_id is not None else chat_id
    return {
        "update_id": update_id if update_id is not None else next(_update_ids),
        "message": {
            "message_id": message_id if message_id is not None else next(_message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private", "first_name": "기자"},
            "from": {"id": user, "is_bot": False, "first_name": "기자", "language_code": "ko"},
            "text": text,
            **(
                {"entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]}
                if text.startswith("/")
                else {}
            ),
        },
    }


def document_update(
    *,
    chat_id: int,
    file_id: str,
    file_name: str,
    mime_type: str,
    file_size: int,
    caption: str | None = None,
    update_id: int | None = None,
) -> dict[str, Any]:
    """A private-chat document message update (caption optional)."""
    update = text_update(chat_id=chat_id, text="", update_id=update_id)
    message = update["message"]
    del message["text"]
    message["document"] = {
        "file_id": file_id,
        "file_unique_id": f"u-{file_id}",
        "file_name": file_name,
        "mime_type": mime_type,
        "file_size": file_size,
    }
    if caption is not None:
        message["caption"] = caption
    return update


def callback_update(
    *, chat_id: int, message_id: int, data: str, user_id: int | None = None, update_id: int | None = None
) -> dict[str, Any]:
    """A tap on an inline button of the bot's message `message_id` in a private chat."""
    user = user_id if user_id is not None else chat_id
    sender = {"id": user, "is_bot": False, "first_name": "기자", "language_code": "ko"}
    return {
        "update_id": update_id if update_id is not None else next(_update_ids),
        "callback_query": {
            "id": f"cq-{secrets.token_hex(6)}",
            "from": sender,
            "chat_instance": "1",
            "data": data,
            "message": {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": "private", "first_name": "기자"},
                "text": "",
            },
        },
    }


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float  # time.monotonic() on arrival
    status: int = 0  # the HTTP status answered (0 while in flight)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class SentMessage:
    message_id: int
    chat_id: int
    text: str  # current text as the user sees it
    raw: str  # current text as sent (HTML source in HTML mode)
    parse_mode: str | None
    at: float
    history: list[str] = field(default_factory=list)  # every visible text, first sent first
    deleted: bool = False
    reply_markup: Any = None


@dataclass
class StoredFile:
    file_id: str
    data: bytes
    file_name: str
    file_path: str
    report_size: bool = True


@dataclass
class _Fault:
    status: int
    description: str
    retry_after: int | None = None
    delay: float = 0.0
    after: int = 0  # calls to let through before this fault applies


class _EntityParser(HTMLParser):
    """Telegram's HTML parse mode, closely enough: allowed tags only, balanced, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.stack: list[str] = []
        self.error: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.error = self.error or f'Unsupported start tag "{tag}"'
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.error = self.error or f'Unsupported start tag "{tag}"'

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.error = self.error or f'Unexpected end tag "{tag}"'
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.error = self.error or "Unsupported comment"

    def handle_decl(self, decl: str) -> None:
        self.error = self.error or "Unsupported declaration"


def render(raw: str, parse_mode: str | None) -> tuple[str, str | None]:
    """(visible text, error) for a message text as Telegram would parse it."""
    if (parse_mode or "").upper() != "HTML":
        return raw, None
    parser = _EntityParser()
    parser.feed(raw)
    parser.close()
    if parser.error is None and parser.stack:
        parser.error = f'Can\'t find end tag corresponding to start tag "{parser.stack[-1]}"'
    if parser.error is None and parser.rawdata:  # an unterminated "<..." left in the buffer
        parser.error = "Unclosed start tag"
    return "".join(parser.text), parser.error


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class FakeTelegram:
    def __init__(self, *, token: str | None = None) -> None:
        self.token = token or _new_token()
        self.bot_id = int(self.token.split(":", 1)[0])
        self.calls: list[Call] = []
        self.webhook: dict[str, Any] = {}
        self.commands: list[dict[str, str]] = []  # the menu set by setMyCommands
        self.files: dict[str, StoredFile] = {}
        self._lock = threading.Lock()
        self._updates_ready = threading.Condition(self._lock)
        self._faults: dict[str, deque[_Fault]] = defaultdict(deque)
        self._chats: dict[int, list[SentMessage]] = defaultdict(list)
        self._blocked: set[int] = set()
        self._unknown: set[int] = set()
        self._updates: list[dict[str, Any]] = []
        self._flood: tuple[float, int] | None = None
        self._last_accepted: dict[int, float] = {}
        self._closed = False
        self.require_https = True  # Telegram refuses http:// webhooks; False for --allow-http tests
        fake = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                self._serve()

            def do_POST(self) -> None:
                self._serve()

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                status, payload, content_type, delay = fake._handle(
                    self.command, self.path, self.headers.get("content-type", ""), body
                )
                if delay:
                    time.sleep(delay)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_body(status, data, content_type)

        self.http = Loopback(Handler)

    # --- addresses --------------------------------------------------------------------------------
    @property
    def origin(self) -> str:
        return self.http.origin

    @property
    def base_url(self) -> str:
        return f"{self.origin}/bot"

    @property
    def file_base_url(self) -> str:
        return f"{self.origin}/file/bot"

    # --- scripting --------------------------------------------------------------------------------
    def fail(
        self,
        method: str,
        *,
        status: int = 429,
        retry_after: int = 3,
        times: int = 1,
        description: str | None = None,
        after: int = 0,
    ) -> None:
        """The next `times` calls of `method` (after `after` successful ones) get this error.

        A 429 carries `parameters.retry_after`, as Telegram's flood control does.
        """
        if status == 429:
            text = description or f"Too Many Requests: retry after {retry_after}"
            faults = [_Fault(429, text, retry_after) for _ in range(times)]
        else:
            text = description or DEFAULT_DESCRIPTIONS.get(status, "Error")
            faults = [_Fault(status, text) for _ in range(times)]
        if faults:
            faults[0].after = after
        with self._lock:
            self._faults[method].extend(faults)

    def stall(self, method: str, seconds: float, *, times: int = 1) -> None:
        """The next `times` calls of `method` are handled, but answered only after `seconds`."""
        with self._lock:
            self._faults[method].extend(_Fault(200, "", delay=seconds) for _ in range(times))

    def block(self, chat_id: int) -> None:
        """The user blocked the bot: every call for this chat gets 403."""
        with self._lock:
            self._blocked.add(chat_id)

    def unknown_chat(self, chat_id: int) -> None:
        with self._lock:
            self._unknown.add(chat_id)

    def flood_control(self, *, min_interval: float = 1.0, retry_after: int = 3) -> None:
        """A sendMessage to a chat sooner than `min_interval` after the last accepted one gets 429."""
        with self._lock:
            self._flood = (min_interval, retry_after)

    def add_file(
        self,
        file_id: str,
        data: bytes,
        *,
        file_name: str = "file.bin",
        file_path: str | None = None,
        report_size: bool = True,
    ) -> None:
        with self._lock:
            path = file_path or f"documents/{file_id}_{file_name}"
            self.files[file_id] = StoredFile(file_id, data, file_name, path, report_size)

    def push_update(self, update: dict[str, Any]) -> int:
        """Queues an update for getUpdates; returns its update_id (assigned when missing)."""
        with self._lock:
            update = dict(update)
            update.setdefault("update_id", next(_update_ids))
            self._updates.append(update)
            self._updates_ready.notify_all()
            return int(update["update_id"])

    # --- reading ----------------------------------------------------------------------------------
    def calls_for(self, method: str) -> list[Call]:
        with self._lock:
            return [call for call in self.calls if call.method == method]

    def messages(self, chat_id: int) -> list[SentMessage]:
        with self._lock:
            return list(self._chats.get(chat_id, []))

    def sent_texts(self, chat_id: int) -> list[str]:
        return [message.history[0] for message in self.messages(chat_id)]

    def visible_texts(self, chat_id: int) -> list[str]:
        return [message.text for message in self.messages(chat_id) if not message.deleted]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._updates_ready.notify_all()
        self.http.close()

    # --- serving ----------------------------------------------------------------------------------
    def _handle(self, verb: str, path: str, content_type: str, body: bytes) -> tuple[int, Any, str, float]:
        parts = urlsplit(path)
        route = unquote(parts.path)
        if route.startswith("/file/bot"):
            return self._download(route.removeprefix("/file/bot"))
        if not route.startswith("/bot"):
            return self._error("?", {}, 404, "Not Found")
        token, _, method = route.removeprefix("/bot").partition("/")
        params = _params(parts.query, content_type, body)
        method = _canonical(method)
        if token != self.token:
            return self._error(method, params, 401, "Unauthorized")
        call = Call(method, params, time.monotonic())
        with self._lock:
            self.calls.append(call)
            fault = self._next_fault(method)
        if fault is not None and fault.status != 200:
            return self._answer(call, fault.status, _failure(fault), fault.delay)
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            return self._answer(call, 404, _failure(_Fault(404, "Not Found")))
        chat_id = _chat_id(params.get("chat_id"))
        if method in CHAT_METHODS:
            with self._lock:
                blocked, unknown = chat_id in self._blocked, chat_id is None or chat_id in self._unknown
            if blocked:
                return self._answer(call, 403, _failure(_Fault(403, BLOCKED)))
            if unknown:
                return self._answer(call, 400, _failure(_Fault(400, CHAT_NOT_FOUND)))
        status, result, retry_after = handler(params, chat_id)
        delay = fault.delay if fault is not None else 0.0
        if status != 200:
            return self._answer(call, status, _failure(_Fault(status, result, retry_after)), delay)
        return self._answer(call, 200, {"ok": True, "result": result}, delay)

    def _answer(
        self, call: Call, status: int, payload: dict[str, Any], delay: float = 0.0
    ) -> tuple[int, Any, str, float]:
        with self._lock:
            call.status = status
        return status, payload, "application/json", delay

    def _error(
        self, method: str, params: dict[str, Any], status: int, description: str
    ) -> tuple[int, Any, str, float]:
        call = Call(method, params, time.monotonic(), status)
        with self._lock:
            self.calls.append(call)
        return status, _failure(_Fault(status, description)), "application/json", 0.0

    def _download(self, rest: str) -> tuple[int, Any, str, float]:
        token, _, file_path = rest.partition("/")
        call = Call("download", {"file_path": file_path}, time.monotonic())
        with self._lock:
            self.calls.append(call)
            fault = self._next_fault("download")
            found = next((f for f in self.files.values() if f.file_path == file_path), None)
        if token != self.token:
            status, payload, content_type = 401, _failure(_Fault(401, "Unauthorized")), "application/json"
        elif fault is not None and fault.status != 200:
            status, payload, content_type = fault.status, _failure(fault), "application/json"
        elif found is None:
            status, payload, content_type = 404, _failure(_Fault(404, "Not Found")), "application/json"
        else:
            status, payload, content_type = 200, found.data, "application/octet-stream"
        with self._lock:
            call.status = status
        return status, payload, content_type, fault.delay if fault else 0.0

    # Each method handler returns (status, result or error description, retry_after).
    def _m_getMe(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        return 200, self._bot_user(), None

    def _m_sendMessage(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        assert chat_id is not None
        raw = str(params.get("text", ""))
        parse_mode = params.get("parse_mode")
        text, error = render(raw, parse_mode)
        if error:
            return 400, f"Bad Request: can't parse entities: {error}", None
        if not text.strip():
            return 400, "Bad Request: message text is empty", None
        if utf16_len(text.strip()) > MAX_TEXT:
            return 400, "Bad Request: message is too long", None
        now = time.monotonic()
        with self._lock:
            if self._flood is not None:
                interval, retry_after = self._flood
                last = self._last_accepted.get(chat_id)
                if last is not None and now - last < interval:
                    return 429, f"Too Many Requests: retry after {retry_after}", retry_after
            self._last_accepted[chat_id] = now
            chat = self._chats[chat_id]
            message = SentMessage(
                message_id=len(chat) + 1,
                chat_id=chat_id,
                text=text.strip(),
                raw=raw,
                parse_mode=parse_mode,
                at=now,
                history=[text.strip()],
                reply_markup=params.get("reply_markup"),
            )
            chat.append(message)
        return 200, self._message_dict(message), None

    def _m_editMessageText(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        assert chat_id is not None
        raw = str(params.get("text", ""))
        text, error = render(raw, params.get("parse_mode"))
        if error:
            return 400, f"Bad Request: can't parse entities: {error}", None
        if not text.strip():
            return 400, "Bad Request: message text is empty", None
        if utf16_len(text.strip()) > MAX_TEXT:
            return 400, "Bad Request: message is too long", None
        with self._lock:
            message = self._find(chat_id, params.get("message_id"))
            if message is None:
                return 400, "Bad Request: message to edit not found", None
            if message.text == text.strip() and params.get("reply_markup") == message.reply_markup:
                return (
                    400,
                    "Bad Request: message is not modified: specified new message content and reply markup "
                    "are exactly the same as a current content and reply markup of the message",
                    None,
                )
            message.text, message.raw = text.strip(), raw
            message.history.append(message.text)
            message.reply_markup = params.get("reply_markup")
        return 200, self._message_dict(message), None

    def _m_deleteMessage(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        assert chat_id is not None
        with self._lock:
            message = self._find(chat_id, params.get("message_id"))
            if message is None:
                return 400, "Bad Request: message to delete not found", None
            message.deleted = True
        return 200, True, None

    def _m_getFile(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        with self._lock:
            stored = self.files.get(str(params.get("file_id", "")))
        if stored is None:
            return 400, "Bad Request: invalid file_id", None
        result: dict[str, Any] = {
            "file_id": stored.file_id,
            "file_unique_id": f"u-{stored.file_id}",
            "file_path": stored.file_path,
        }
        if stored.report_size:
            result["file_size"] = len(stored.data)
        return 200, result, None

    def _m_setWebhook(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        url = str(params.get("url", ""))
        if url and self.require_https and not url.startswith("https://"):
            return 400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook", None
        with self._lock:
            self.webhook = {
                "url": url,
                "secret_token": params.get("secret_token"),
                "allowed_updates": params.get("allowed_updates"),
            }
        return 200, True, None

    def _m_deleteWebhook(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        with self._lock:
            self.webhook = {}
            if str(params.get("drop_pending_updates", "")).lower() == "true":
                self._updates.clear()
        return 200, True, None

    def _m_getWebhookInfo(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        with self._lock:
            return (
                200,
                {
                    "url": self.webhook.get("url", ""),
                    "has_custom_certificate": False,
                    "pending_update_count": len(self._updates),
                    **({"allowed_updates": self.webhook["allowed_updates"]} if self.webhook else {}),
                },
                None,
            )

    def _m_getUpdates(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        offset = params.get("offset")
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        deadline = time.monotonic() + min(float(params.get("timeout") or 0), 50.0)
        with self._lock:
            if self.webhook.get("url"):
                return (
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; "
                    "use deleteWebhook to delete the webhook first",
                    None,
                )
            if offset is not None:  # confirms every update before offset
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while not self._updates and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._updates_ready.wait(left)
            return 200, [dict(update) for update in self._updates[:limit]], None

    def _m_sendChatAction(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        return 200, True, None

    def _m_setMyCommands(self, params: dict[str, Any], chat_id: int | None) -> tuple[int, Any, int | None]:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            return 400, "Bad Request: commands must be a list of at most 100", None
        for command in commands:
            name, description = str(command.get("command", "")), str(command.get("description", ""))
            if not (1 <= len(name) <= 32 and name.replace("_", "").isalnum() and name.islower()):
                return 400, "Bad Request: BOT_COMMAND_INVALID", None
            if not 1 <= len(description) <= 256:
                return 400, "Bad Request: command description is empty or too long", None
        with self._lock:
            self.commands = [{"command": c["command"], "description": c["description"]} for c in commands]
        return 200, True, None

    def _m_answerCallbackQuery(
        self, params: dict[str, Any], chat_id: int | None
    ) -> tuple[int, Any, int | None]:
        return 200, True, None

    # --- helpers ----------------------------------------------------------------------------------
    def _next_fault(self, method: str) -> _Fault | None:
        """Pops the fault for this call, if one is due (the caller holds the lock)."""
        queue = self._faults.get(method)
        if not queue:
            return None
        if queue[0].after > 0:
            queue[0].after -= 1
            return None
        return queue.popleft()

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Newsdesk Test",
            "username": "newsdesk_test_bot",
        }

    def _find(self, chat_id: int, message_id: Any) -> SentMessage | None:
        for message in self._chats.get(chat_id, []):
            if message.message_id == message_id and not message.deleted:
                return message
        return None

    def _message_dict(self, message: SentMessage) -> dict[str, Any]:
        return {
            "message_id": message.message_id,
            "date": int(time.time()),
            "chat": {"id": message.chat_id, "type": "private"},
            "from": self._bot_user(),
            "text": message.text,
        }


def _canonical(method: str) -> str:
    """Telegram method names are case-insensitive."""
    known = {name.removeprefix("_m_").lower(): name.removeprefix("_m_") for name in dir(FakeTelegram)}
    return known.get(method.lower(), method)


def _params(query: str, content_type: str, body: bytes) -> dict[str, Any]:
    params: dict[str, Any] = {
        key: values[0] for key, values in parse_qs(query, keep_blank_values=True).items()
    }
    kind = content_type.split(";")[0].strip().lower()
    if body and kind == "application/json":
        params.update(json.loads(body))
        return params
    if body and kind == "multipart/form-data":
        header = f"Content-Type: {content_type}\r\n\r\n".encode()
        parsed = BytesParser(policy=policy.HTTP).parsebytes(header + body)
        for part in parsed.iter_parts():  # type: ignore[attr-defined]
            name = part.get_param("name", header="content-disposition")
            if name:
                payload = part.get_payload(decode=True) or b""
                params[name] = payload if part.get_filename() else payload.decode()
    elif body:
        params.update(
            {key: values[0] for key, values in parse_qs(body.decode(), keep_blank_values=True).items()}
        )
    for key in list(params):  # form values are strings; PTB JSON-encodes structured ones
        value = params[key]
        if not isinstance(value, str):
            continue
        if key in JSON_FIELDS:
            with contextlib.suppress(ValueError):
                params[key] = json.loads(value)
        elif key in INT_FIELDS and value.lstrip("-").isdigit():
            params[key] = int(value)
    return params


def _chat_id(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _failure(fault: _Fault) -> dict[str, Any]:
    payload: dict[str, Any] = {"ok": False, "error_code": fault.status, "description": fault.description}
    if fault.retry_after is not None:
        payload["parameters"] = {"retry_after": fault.retry_after}
    return payload


@pytest.fixture
def fake_telegram(settings: Any) -> Iterator[FakeTelegram]:
    """The fake Bot API, with TELEGRAM_BOT_TOKEN / _API_BASE_URL / _FILE_BASE_URL pointing at it."""
    fake = FakeTelegram()
    settings.TELEGRAM_BOT_TOKEN = fake.token
    settings.TELEGRAM_API_BASE_URL = fake.base_url
    settings.TELEGRAM_FILE_BASE_URL = fake.file_base_url
    try:
        yield fake
    finally:
        fake.close()
