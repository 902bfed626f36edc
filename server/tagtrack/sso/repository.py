from datetime import datetime

from sqlalchemy import delete

from tagtrack.kit.repository import Repository
from tagtrack.models import SsoLogin, SsoSettings


class SsoRepository(Repository[SsoSettings]):
    model = SsoSettings

    async def settings(self, org_id: str) -> SsoSettings | None:
        return await self.session.get(SsoSettings, org_id)

    async def add_login(self, login: SsoLogin) -> None:
        self.session.add(login)
        await self.session.flush()

    async def take_login(self, state_hash: str, now: datetime) -> SsoLogin | None:
        """The sign-in in flight with this state, removed so it is used once."""
        stmt = (
            delete(SsoLogin)
            .where(SsoLogin.state_hash == state_hash, SsoLogin.expires_at > now)
            .returning(SsoLogin)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def prune_logins(self, now: datetime) -> None:
        await self.session.execute(delete(SsoLogin).where(SsoLogin.expires_at <= now))
