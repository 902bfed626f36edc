"""The SQL of the probes and of /metrics."""

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.metrics import Backlog

# One step down ix_pending_reads_org_id per organisation with reads waiting (a skip scan,
# as processing finds them), then each one's count and its oldest read by the index.
BACKLOG = """
WITH RECURSIVE orgs(org_id) AS (
    (SELECT org_id FROM pending_reads ORDER BY org_id LIMIT 1)
    UNION ALL
    SELECT (
        SELECT p.org_id FROM pending_reads AS p WHERE p.org_id > orgs.org_id
        ORDER BY p.org_id LIMIT 1
    )
    FROM orgs WHERE orgs.org_id IS NOT NULL
)
SELECT coalesce(sum(waiting.reads), 0), min(waiting.oldest)
FROM orgs, LATERAL (
    SELECT
        (SELECT count(*) FROM pending_reads AS p WHERE p.org_id = orgs.org_id) AS reads,
        (
            SELECT p.received_at FROM pending_reads AS p WHERE p.org_id = orgs.org_id
            ORDER BY p.id LIMIT 1
        ) AS oldest
) AS waiting
WHERE orgs.org_id IS NOT NULL
"""


class MetaRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def ping(self) -> None:
        await self.session.execute(text("SELECT 1"))

    async def backlog(self) -> Backlog:
        """The reads waiting for processing, of every organisation (the installation's)."""
        reads, oldest = (await self.session.execute(text(BACKLOG))).one()
        return Backlog(reads=int(reads), oldest=oldest)
