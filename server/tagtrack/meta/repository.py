"""The SQL of the probes and of /metrics."""

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.metrics import Backlog
from tagtrack.processing.repository import WAITING_ORGS

# The organizations with reads waiting, as processing finds them, then each one's count and
# its oldest read by the index.
BACKLOG = (
    WAITING_ORGS
    + """SELECT coalesce(sum(waiting.reads), 0), min(waiting.oldest)
FROM orgs, LATERAL (
    SELECT
        (SELECT sum(p.reads) FROM pending_read_batches AS p WHERE p.org_id = orgs.org_id) AS reads,
        (
            SELECT p.received_at FROM pending_read_batches AS p WHERE p.org_id = orgs.org_id
            ORDER BY p.id LIMIT 1
        ) AS oldest
) AS waiting
WHERE orgs.org_id IS NOT NULL
"""
)


class MetaRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def ping(self) -> None:
        await self.session.execute(text("SELECT 1"))

    async def backlog(self) -> Backlog:
        """The reads waiting for processing, of every organization (the installation's)."""
        reads, oldest = (await self.session.execute(text(BACKLOG))).one()
        return Backlog(reads=int(reads), oldest=oldest)
