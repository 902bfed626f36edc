"""HMAC signatures with the installation's secret, and loading that secret."""

import base64
import hashlib
import hmac

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.security import new_token
from tagtrack.models import InstallSecret

SIGNING_SECRET = "signing"


def sign(secret: str, message: str) -> str:
    digest = hmac.new(secret.encode(), message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def signature_valid(secret: str, message: str, signature: str) -> bool:
    return hmac.compare_digest(sign(secret, message), signature)


async def load_install_secret(sessionmaker: async_sessionmaker[AsyncSession]) -> str:
    """The secret the migrations made for this installation (made here if it is missing)."""
    async with sessionmaker() as session, session.begin():
        stmt = select(InstallSecret.value).where(InstallSecret.name == SIGNING_SECRET)
        value = (await session.execute(stmt)).scalar_one_or_none()
        if value is None:
            await session.execute(
                insert(InstallSecret)
                .values(name=SIGNING_SECRET, value=new_token())
                .on_conflict_do_nothing()
            )
            value = (await session.execute(stmt)).scalar_one()
        return value
