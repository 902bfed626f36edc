"""The audit log: who did what, when, in which organisation; never a secret.

Any feature records an action with `record(session, principal, action, ...)` inside its own
transaction, or with `record_now(sessionmaker, ...)` when the request itself fails (a failed
sign-in) and its transaction is rolled back.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.audit.schemas import AuditEntryRead, AuditQuery
from tagtrack.kit.lists import ListParams
from tagtrack.models import AuditEntry

# Detail keys whose values are never written, whatever a caller passes.
_SECRET_WORDS = ("password", "secret", "token", "key_hash", "code_verifier", "nonce")


@dataclass(frozen=True)
class Actor:
    """Someone not (yet) signed in, e.g. a person at the sign-in form."""

    org_id: str = ""
    actor_id: str = ""
    actor: str = ""
    client: str = ""


def _clean(detail: Mapping[str, Any] | None) -> dict[str, Any]:
    if not detail:
        return {}
    # A flag (say, that a password was changed) is no secret; any other value may be.
    return {
        k: v
        if isinstance(v, bool) or not any(w in k.lower() for w in _SECRET_WORDS)
        else "(hidden)"
        for k, v in detail.items()
    }


def _entry(
    who: Principal | Actor,
    action: str,
    target_type: str,
    target_id: str,
    target: str,
    detail: Mapping[str, Any] | None,
) -> AuditEntry:
    return AuditEntry(
        org_id=who.org_id,
        actor_id=who.actor_id,
        actor=who.actor[:300],
        action=action,
        target_type=target_type,
        target_id=target_id[:100],
        target=target[:300],
        client=who.client[:64],
        detail=_clean(detail),
    )


async def record(
    session: AsyncSession,
    who: Principal | Actor,
    action: str,
    target_type: str = "",
    target_id: str = "",
    target: str = "",
    detail: Mapping[str, Any] | None = None,
) -> None:
    """Add an entry to the caller's transaction: it is kept only if the change is."""
    await AuditRepository(session).add(_entry(who, action, target_type, target_id, target, detail))


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
        await record(session, who, action, target_type, target_id, target, detail)


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
