from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.models import LoginFailure, User, UserSession


class SessionUser(NamedTuple):
    user: User
    expires_at: datetime
    created_at: datetime


# Built once: every console's first call after a start looks its caller up with it.
_SESSION_USER = (
    select(User, UserSession.expires_at, UserSession.created_at)
    .join(UserSession, (UserSession.org_id == User.org_id) & (UserSession.user_id == User.id))
    .where(
        UserSession.token_hash == bindparam("token_hash"),
        UserSession.expires_at > bindparam("now"),
        UserSession.created_at > bindparam("oldest"),
        User.active.is_(True),
    )
)


class AuthRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def session_user(
        self,
        token_hash: str,
        now: datetime,
        idle: timedelta,
        lifetime: timedelta,
        extend: bool = True,
    ) -> SessionUser | None:
        """The session's user, and its deadline after this use; a use pushes the idle
        deadline on (unless extend is False), never past the lifetime.

        The session (a global table, found by its token) names the organization; the user is
        joined within it, in the same statement."""
        values = {"token_hash": token_hash, "now": now, "oldest": now - lifetime}
        found = (await self.session.execute(_SESSION_USER, values)).first()
        if found is None:
            return None
        user, expires_at, created_at = found
        if extend:
            expires_at = await self.extend_session(
                token_hash, now, expires_at, created_at, idle, lifetime
            )
        return SessionUser(user, expires_at, created_at)

    async def extend_session(
        self,
        token_hash: str,
        now: datetime,
        expires_at: datetime,
        created_at: datetime,
        idle: timedelta,
        lifetime: timedelta,
    ) -> datetime:
        """Push a used session's idle deadline on; the deadline it has now."""
        deadline = min(now + idle, created_at + lifetime)
        # Written at most once a minute per session, not on every request.
        if abs(deadline - expires_at) <= timedelta(minutes=1):
            return expires_at
        await self.session.execute(
            update(UserSession)
            .where(UserSession.token_hash == token_hash)
            .values(expires_at=deadline)
            .execution_options(synchronize_session=False)
        )
        return deadline

    async def add_session(self, user: User, token_hash: str, expires_at: datetime) -> None:
        self.session.add(
            UserSession(
                token_hash=token_hash, user_id=user.id, org_id=user.org_id, expires_at=expires_at
            )
        )
        await self.session.flush()

    async def delete_session(self, token_hash: str) -> None:
        await self.session.execute(delete(UserSession).where(UserSession.token_hash == token_hash))

    async def delete_user_sessions(self, user: User) -> None:
        await self.session.execute(
            delete(UserSession).where(
                UserSession.org_id == user.org_id, UserSession.user_id == user.id
            )
        )

    async def recent_failures(self, client: str, since: datetime) -> int:
        stmt = select(func.count()).where(LoginFailure.client == client, LoginFailure.time > since)
        return int((await self.session.execute(stmt)).scalar_one())

    async def unknown_username_locked(self, username: str, lock_after: int) -> bool:
        return await unknown_failures(self.session, username) >= lock_after

    async def release_connection(self) -> None:
        """End the read-only transaction so far; the session takes a connection again on use."""
        await self.session.rollback()

    async def reset_failures(self, user: User) -> None:
        user.failed_logins = 0


class FailureRecorder:
    """Records failed sign-ins in their own transaction: the failed request rolls back."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker

    async def record(
        self, client: str, username: str, user: tuple[str, str] | None, lock_after: int
    ) -> bool:
        """Store the failure; return True when the account is now locked.

        An unknown username locks after as many failures as a real account, so the answers
        never tell whether an account exists.
        """
        async with self.sessionmaker() as session, session.begin():
            # Only unknown usernames are counted by name; accounts count on the user row.
            session.add(LoginFailure(client=client, username="" if user else username))
            if user is None:
                await session.flush()
                return await unknown_failures(session, username) >= lock_after
            org_id, user_id = user
            stmt = (
                update(User)
                .where(User.org_id == org_id, User.id == user_id)
                .values(
                    failed_logins=User.failed_logins + 1,
                    locked=User.locked | (User.failed_logins + 1 >= lock_after),
                )
                .returning(User.locked)
            )
            return bool((await session.execute(stmt)).scalar_one())


async def unknown_failures(session: AsyncSession, username: str) -> int:
    """Failed sign-ins kept for a username (used for usernames of no account)."""
    stmt = select(func.count()).where(LoginFailure.username == username)
    return int((await session.execute(stmt)).scalar_one())
