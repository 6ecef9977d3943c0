"""Encryption of stored Anthropic keys (MultiFernet: the first key encrypts, all decrypt).

NEWSDESK_ENCRYPTION_KEYS rotates keys: prepend a new key, run `manage.py rotate_keys`, then
drop the old one. Without the variable a random key is kept in var/ so a laptop just works.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings


class KeyUnreadable(Exception):
    """The stored token cannot be decrypted with any configured key (rotated away or tampered)."""


@lru_cache(maxsize=1)
def _fernet() -> MultiFernet:
    keys = settings.NEWSDESK_ENCRYPTION_KEYS or [_laptop_key()]
    return MultiFernet([Fernet(key.encode()) for key in keys])


def _laptop_key() -> str:
    path = settings.VAR_DIR / "encryption.key"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(Fernet.generate_key().decode(), encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


def encrypt(plain: str) -> str:
    return _fernet().encrypt(plain.encode()).decode()


def decrypt(token: str) -> str:
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken as exc:
        raise KeyUnreadable from exc


def rotate(token: str) -> str:
    try:
        return _fernet().rotate(token.encode()).decode()
    except InvalidToken as exc:
        raise KeyUnreadable from exc


def reset_cache() -> None:
    _fernet.cache_clear()
