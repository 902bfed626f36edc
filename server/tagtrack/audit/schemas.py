from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Query
from pydantic import BaseModel

from tagtrack.kit.schemas import UtcDateTime


class AuditEntryRead(BaseModel):
    id: int
    time: datetime
    orgId: str
    actorId: str
    actor: str
    action: str
    targetType: str
    targetId: str
    target: str
    client: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class AuditQuery:
    action: str
    after: datetime | None
    before: datetime | None


async def _audit_query(
    action: Annotated[str, Query(max_length=64, description="Only this action")] = "",
    after: Annotated[UtcDateTime | None, Query(description="From this time on")] = None,
    before: Annotated[UtcDateTime | None, Query(description="Before this time")] = None,
) -> AuditQuery:
    return AuditQuery(action=action, after=after, before=before)


AuditFilter = Annotated[AuditQuery, Depends(_audit_query)]
