"""Secrets kept at rest (an SSO client secret) encrypted with a key derived from the
installation's secret, so a copy of the database alone does not reveal them."""

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SEALED_PREFIX = "sealed1:"


def _box(install_secret: str) -> Fernet:
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=None, info=b"tagtrack secrets at rest"
    ).derive(install_secret.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def seal(install_secret: str, plaintext: str) -> str:
    if not plaintext:
        return ""
    return SEALED_PREFIX + _box(install_secret).encrypt(plaintext.encode()).decode()


def unseal(install_secret: str, stored: str) -> str:
    """The plaintext; empty when nothing is stored or it was sealed under another secret."""
    if not stored.startswith(SEALED_PREFIX):
        return stored
    try:
        return _box(install_secret).decrypt(stored.removeprefix(SEALED_PREFIX)).decode()
    except InvalidToken:
        return ""
