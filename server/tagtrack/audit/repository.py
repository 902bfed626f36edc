from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from tagtrack.access.principal import Principal
from tagtrack.audit.schemas import AuditQuery
from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
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


class AuditRepository(Repository[AuditEntry]):
    model = AuditEntry

    async def record(
        self,
        who: Principal | Actor,
        action: str,
        target_type: str = "",
        target_id: str = "",
        target: str = "",
        detail: Mapping[str, Any] | None = None,
    ) -> None:
        """Add an entry to the caller's transaction: it is kept only if the change is."""
        await self.add(_entry(who, action, target_type, target_id, target, detail))

    async def list_page(
        self, org_id: str, query: AuditQuery, params: ListParams
    ) -> tuple[Sequence[AuditEntry], int]:
        stmt = select(AuditEntry).where(AuditEntry.org_id == org_id)
        if query.action:
            stmt = stmt.where(AuditEntry.action == query.action)
        if query.after:
            stmt = stmt.where(AuditEntry.time >= query.after)
        if query.before:
            stmt = stmt.where(AuditEntry.time < query.before)
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"time": AuditEntry.time, "action": AuditEntry.action},
            default_sort="-time",
            searchable=[AuditEntry.actor, AuditEntry.target, AuditEntry.action],
            tiebreak=AuditEntry.id.desc(),
        )
