"""Whose a key is: the org_keys lookups that name the organization of a request's credential."""

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.models import ApiKey, OrgKey
from tagtrack.models.org_key import API_TOKEN


class OrgKeyRepository:
    """Whose a reader key, endpoint id, API token or username is (models/org_key.py)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def owner(self, kind: str, key: str) -> tuple[str, str] | None:
        """(org_id, id of the row) the key belongs to."""
        stmt = select(OrgKey.org_id, OrgKey.target_id).where(OrgKey.kind == kind, OrgKey.key == key)
        row = (await self.session.execute(stmt)).first()
        return (row.org_id, row.target_id) if row else None

    async def taken(self, kind: str, key: str, except_id: str | None) -> bool:
        stmt = select(OrgKey.target_id).where(OrgKey.kind == kind, OrgKey.key == key)
        if except_id:
            stmt = stmt.where(OrgKey.target_id != except_id)
        return (await self.session.execute(stmt.limit(1))).first() is not None

    async def api_key(self, token_hash: str) -> ApiKey | None:
        """A request with a key names no organization: org_keys says whose it is."""
        owner = await self.owner(API_TOKEN, token_hash)
        if owner is None:
            return None
        org_id, key_id = owner
        stmt = select(ApiKey).where(
            ApiKey.org_id == org_id, ApiKey.id == key_id, ApiKey.token_hash == token_hash
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()
