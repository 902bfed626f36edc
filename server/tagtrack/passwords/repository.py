from datetime import datetime

from sqlalchemy import delete, select

from tagtrack.kit.repository import Repository
from tagtrack.models import PasswordReset, User, UserSession


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
        """The link names no organisation: the token's row does, then the user is read in it."""
        reset = await self.session.scalar(
            select(PasswordReset).where(
                PasswordReset.token_hash == token_hash, PasswordReset.expires_at > now
            )
        )
        if reset is None:
            return None
        stmt = select(User).where(User.org_id == reset.org_id, User.id == reset.user_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

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
