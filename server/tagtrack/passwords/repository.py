from datetime import datetime

from sqlalchemy import delete, select

from tagtrack.access.org_keys import OrgKeyRepository
from tagtrack.kit.repository import Repository
from tagtrack.models import PasswordReset, User, UserSession
from tagtrack.models.org_key import USERNAME


class PasswordResetRepository(Repository[PasswordReset]):
    model = PasswordReset

    async def issued_since(self, user: User, since: datetime) -> bool:
        return await self.exists(
            select(PasswordReset.token_hash).where(
                PasswordReset.org_id == user.org_id,
                PasswordReset.user_id == user.id,
                PasswordReset.created_at > since,
            )
        )

    async def user_for_token(self, token_hash: str, now: datetime) -> User | None:
        """The link names no organization: the token's row does, then the user is read in it."""
        reset = await self.session.scalar(
            select(PasswordReset).where(
                PasswordReset.token_hash == token_hash, PasswordReset.expires_at > now
            )
        )
        if reset is None:
            return None
        return await self.user(reset.org_id, reset.user_id)

    async def user(self, org_id: str, user_id: str) -> User | None:
        stmt = select(User).where(User.org_id == org_id, User.id == user_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def user_by_username(self, username: str) -> User | None:
        """Sign-in names no organization: org_keys says whose the username is."""
        owner = await OrgKeyRepository(self.session).owner(USERNAME, username.lower())
        return await self.user(*owner) if owner else None

    async def forget_user(self, user: User) -> None:
        """Drop every reset token and session of the user."""
        await self.session.execute(
            delete(PasswordReset).where(
                PasswordReset.org_id == user.org_id, PasswordReset.user_id == user.id
            )
        )
        await self.session.execute(
            delete(UserSession).where(
                UserSession.org_id == user.org_id, UserSession.user_id == user.id
            )
        )
