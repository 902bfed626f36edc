from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.audit.schemas import AuditQuery
from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import AuditEntry


class AuditRepository(Repository[AuditEntry]):
    model = AuditEntry

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
