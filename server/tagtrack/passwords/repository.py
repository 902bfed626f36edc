from datetime import datetime

from sqlalchemy import delete, select

from tagtrack.kit.repository import Repository
from tagtrack.models import PasswordReset, User, UserSession


class PasswordResetRepository(Repository[PasswordReset]):
    model = PasswordReset

    async def issued_since(self, user_id: str, since: datetime) -> bool:
        return await self.exists(
            select(PasswordReset.token_hash).where(
                PasswordReset.user_id == user_id, PasswordReset.created_at > since
            )
        )

    async def user_for_token(self, token_hash: str, now: datetime) -> User | None:
        stmt = (
            select(User)
            .join(PasswordReset, PasswordReset.user_id == User.id)
            .where(PasswordReset.token_hash == token_hash, PasswordReset.expires_at > now)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def forget_user(self, user_id: str) -> None:
        """Drop every reset token and session of the user."""
        await self.session.execute(delete(PasswordReset).where(PasswordReset.user_id == user_id))
        await self.session.execute(delete(UserSession).where(UserSession.user_id == user_id))
