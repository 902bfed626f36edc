"""The audit log: who did what, when, in which organization; never a secret.

Any feature records an action with `AuditRepository.record(principal, action, ...)` inside its
own transaction, or with `record_now(sessionmaker, ...)` when the request itself fails (a failed
sign-in) and its transaction is rolled back.
"""

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import Actor as Actor
from tagtrack.audit.repository import AuditRepository
from tagtrack.audit.schemas import AuditEntryRead, AuditQuery
from tagtrack.kit.lists import ListParams


async def record_now(
    sessionmaker: async_sessionmaker[AsyncSession],
    who: Principal | Actor,
    action: str,
    target_type: str = "",
    target_id: str = "",
    target: str = "",
    detail: Mapping[str, Any] | None = None,
) -> None:
    """Commit an entry on its own, for failures whose request transaction rolls back."""
    async with sessionmaker() as session, session.begin():
        await AuditRepository(session).record(who, action, target_type, target_id, target, detail)


class AuditService:
    def __init__(self, repository: AuditRepository) -> None:
        self.repository = repository

    async def list_page(
        self, principal: Principal, query: AuditQuery, params: ListParams
    ) -> tuple[list[AuditEntryRead], int]:
        rows, total = await self.repository.list_page(principal.org_id, query, params)
        return [
            AuditEntryRead(
                id=r.id,
                time=r.time,
                orgId=r.org_id,
                actorId=r.actor_id,
                actor=r.actor,
                action=r.action,
                targetType=r.target_type,
                targetId=r.target_id,
                target=r.target,
                client=r.client,
                detail=r.detail,
            )
            for r in rows
        ], total
