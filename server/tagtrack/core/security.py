"""Passwords, session tokens and the password rule."""

import asyncio
import hashlib
import os
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

PASSWORD_MIN_LENGTH = 8
# zxcvbn scores 0-4; 3 is "safely unguessable: moderate protection from offline attacks".
PASSWORD_MIN_SCORE = 3

_hasher = PasswordHasher()
# Verifying against this keeps timing equal when the username does not exist.
_DUMMY_HASH = _hasher.hash("not-a-real-password")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def password_problem(password: str, user_inputs: list[str] | None = None) -> str | None:
    """Why a password is not acceptable, or None when it is."""
    if len(password) < PASSWORD_MIN_LENGTH:
        return f"Password must be at least {PASSWORD_MIN_LENGTH} characters"
    if len(password) > 256:
        return "Password must be at most 256 characters"
    if zxcvbn(password[:100], user_inputs=user_inputs or [])["score"] < PASSWORD_MIN_SCORE:
        return "Password too weak"
    return None


# Argon2 costs tens of milliseconds of CPU and 64 MiB each: a few threads of its own bound
# a burst of sign-ins, queued here instead of taking every worker thread and the memory.
_HASHING = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1), thread_name_prefix="argon2")


async def hash_password_off_loop(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(_HASHING, hash_password, password)


async def verify_password_off_loop(password_hash: str, password: str) -> bool:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_HASHING, verify_password, password_hash, password)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def random_password() -> str:
    return secrets.token_urlsafe(18)
