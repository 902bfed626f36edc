"""The SQL of ingest: endpoint by key, idempotent batches, the pending queue."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tagtrack.core.db import json_from_database
from tagtrack.core.wakeups import READS_CHANNEL
from tagtrack.ingest.formats import Read, pack_reads
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, IngestBatch, PendingReadBatch
from tagtrack.models.base import utcnow
from tagtrack.models.org_key import ENDPOINT, READER_KEY

# What a request sent, kept for diagnosis.
KEEP_RAW = """
INSERT INTO raw_payloads (org_id, endpoint_id, channel, body, received_at)
VALUES ($1, $2, $3, $4, $5)
"""
# In one round trip: the request kept, its reads queued as one row (see PendingReadBatch),
# and every process's worker woken when the transaction commits (not before).
QUEUE_BATCH = f"""
WITH kept AS ({KEEP_RAW}),
queued AS (
    INSERT INTO pending_read_batches (org_id, endpoint_id, reads, body, received_at)
    VALUES ($1, $2, $6, $7, $5)
)
SELECT pg_notify('{READS_CHANNEL}', '')
"""
# Reads of the oldest `$2` batches: more than `$2 - 1` reads when that many batches wait.
OLDEST_READS = """
SELECT coalesce(sum(reads), 0) FROM (
    SELECT reads FROM pending_read_batches WHERE org_id = $1 ORDER BY id LIMIT $2
) AS oldest
"""
# The endpoint a reader's key, or an MQTT topic's endpoint id, belongs to. Neither names an
# organization: org_keys says whose it is.
_READER_ENDPOINT = """
SELECT e.org_id, e.id, e.site_id, e.name, e.antennas::text, e.config::text
FROM endpoints AS e JOIN org_keys AS k ON k.org_id = e.org_id AND k.target_id = e.id
WHERE k.key = $1 AND k.kind = """
ENDPOINT_BY_KEY = f"{_READER_ENDPOINT}'{READER_KEY}' AND e.key = $1"
ENDPOINT_BY_TOPIC = f"{_READER_ENDPOINT}'{ENDPOINT}'"


@dataclass(frozen=True, slots=True)
class ReaderEndpoint:
    """What a reader's requests need of its endpoint."""

    org_id: str
    id: str
    site_id: str
    name: str
    antennas: list[dict[str, Any]]
    config: dict[str, Any]

    @classmethod
    def of(cls, endpoint: Endpoint) -> Self:
        return cls(
            endpoint.org_id,
            endpoint.id,
            endpoint.site_id,
            endpoint.name,
            endpoint.antennas,
            endpoint.config,
        )


class IngestRepository(Repository[PendingReadBatch]):
    model = PendingReadBatch

    async def endpoint_by_key(self, key: str) -> ReaderEndpoint | None:
        return await self._reader_endpoint(ENDPOINT_BY_KEY, key)

    async def endpoint_by_topic(self, endpoint_id: str) -> ReaderEndpoint | None:
        return await self._reader_endpoint(ENDPOINT_BY_TOPIC, endpoint_id)

    async def _reader_endpoint(self, sql: str, key: str) -> ReaderEndpoint | None:
        """The statement every reader request or message pays, through the driver: building
        and loading it as an ORM query cost three times the CPU of this. It begins no
        transaction, so a request that then writes one statement needs none (no BEGIN and
        COMMIT round trips)."""
        driver = await self._driver()
        row = await driver.fetchrow(sql, key)
        if row is None:
            return None
        org_id, endpoint_id, site_id, name, antennas, config = row
        return ReaderEndpoint(
            org_id,
            endpoint_id,
            site_id,
            name,
            json_from_database(antennas),
            json_from_database(config),
        )

    async def endpoint_by_id(self, org_id: str, endpoint_id: str) -> Endpoint | None:
        return await self.session.get(Endpoint, {"org_id": org_id, "id": endpoint_id})

    async def claim_batch(
        self, endpoint: ReaderEndpoint, batch_id: str, accepted: int
    ) -> int | None:
        """Record a batch id; None when it is new, else what was accepted the first time."""
        stmt = (
            pg_insert(IngestBatch)
            .values(
                org_id=endpoint.org_id,
                endpoint_id=endpoint.id,
                batch_id=batch_id,
                accepted=accepted,
            )
            .on_conflict_do_nothing()
            .returning(IngestBatch.batch_id)
        )
        if (await self.session.execute(stmt)).first() is not None:
            return None
        earlier = await self.session.scalar(
            select(IngestBatch.accepted).where(
                IngestBatch.org_id == endpoint.org_id,
                IngestBatch.endpoint_id == endpoint.id,
                IngestBatch.batch_id == batch_id,
            )
        )
        return int(earlier or 0)

    async def queue(
        self, endpoint: ReaderEndpoint, reads: Sequence[Read], channel: str, body: bytes
    ) -> None:
        """Keep what a request sent and queue its reads (one row), in one statement: in the
        request's transaction when an earlier statement began one, else on its own."""
        driver = await self._driver()
        kept = (endpoint.org_id, endpoint.id, channel, body, utcnow())
        if reads:
            await driver.execute(QUEUE_BATCH, *kept, len(reads), pack_reads(reads))
        else:
            await driver.execute(KEEP_RAW, *kept)

    async def pending_reads(self, org_id: str, batches: int) -> int:
        """Reads waiting for this organization, counted in its oldest `batches` batches."""
        driver = await self._driver()
        return int(await driver.fetchval(OLDEST_READS, org_id, batches))
