"""Periodic clean-up of expired sessions, single sign-ons in flight and old sign-in failures."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from sqlalchemy import and_, delete, or_
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.logging import get_logger
from tagtrack.core.tasks import running
from tagtrack.models import LoginFailure, SsoLogin, UserSession
from tagtrack.models.base import utcnow

log = get_logger("tagtrack.housekeeping")

INTERVAL_SECONDS = 600
FAILURE_RETENTION = timedelta(hours=1)
# Failures of unknown usernames stand in for an account's lock, so they are kept longer.
UNKNOWN_USERNAME_RETENTION = timedelta(days=30)


async def prune_once(sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    now = utcnow()
    async with sessionmaker() as session, session.begin():
        await session.execute(delete(UserSession).where(UserSession.expires_at < now))
        await session.execute(delete(SsoLogin).where(SsoLogin.expires_at < now))
        await session.execute(
            delete(LoginFailure).where(
                or_(
                    and_(LoginFailure.username == "", LoginFailure.time < now - FAILURE_RETENTION),
                    LoginFailure.time < now - UNKNOWN_USERNAME_RETENTION,
                )
            )
        )


async def _loop(sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    while True:
        try:
            await prune_once(sessionmaker)
        except Exception:  # a failed clean-up must not stop the server; try again later
            log.exception("housekeeping failed")
        await asyncio.sleep(INTERVAL_SECONDS)


@asynccontextmanager
async def housekeeping(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[None]:
    async with running(_loop(sessionmaker), "housekeeping"):
        yield
