"""The SQL of ingest: endpoint by key, idempotent batches, the pending queue."""

from collections.abc import Sequence

import orjson
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tagtrack.ingest.formats import Read
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, IngestBatch, PendingRead, RawPayload
from tagtrack.models.base import utcnow

QUEUE_COLUMNS = (
    "org_id", "endpoint_id", "tag", "antenna", "time", "rssi", "direction", "tamper", "data",
    "received_at",
)  # fmt: skip


class IngestRepository(Repository[PendingRead]):
    model = PendingRead

    async def endpoint_by_key(self, key: str) -> Endpoint | None:
        return await self.session.scalar(select(Endpoint).where(Endpoint.key == key))

    async def endpoint_by_id(self, endpoint_id: str) -> Endpoint | None:
        return await self.session.get(Endpoint, endpoint_id)

    async def claim_batch(self, endpoint_id: str, batch_id: str, accepted: int) -> int | None:
        """Record a batch id; None when it is new, else what was accepted the first time."""
        stmt = (
            pg_insert(IngestBatch)
            .values(endpoint_id=endpoint_id, batch_id=batch_id, accepted=accepted)
            .on_conflict_do_nothing()
            .returning(IngestBatch.batch_id)
        )
        if (await self.session.execute(stmt)).first() is not None:
            return None
        earlier = await self.session.scalar(
            select(IngestBatch.accepted).where(
                IngestBatch.endpoint_id == endpoint_id, IngestBatch.batch_id == batch_id
            )
        )
        return int(earlier or 0)

    async def queue(self, endpoint: Endpoint, reads: Sequence[Read], *, user_id: str = "") -> None:
        """One COPY in the request's transaction: hundreds of reads a request, no ORM rows."""
        if not reads:
            return
        now = utcnow()
        records = [
            (
                endpoint.org_id, endpoint.id, read.tag, read.antenna, read.time, read.rssi,
                read.direction or "", read.tamper, orjson.dumps(read.data).decode(), now,
            )
            for read in reads
        ]  # fmt: skip
        connection = await self.session.connection()
        driver = (await connection.get_raw_connection()).driver_connection
        assert driver is not None
        await driver.copy_records_to_table("pending_reads", records=records, columns=QUEUE_COLUMNS)

    async def keep_raw(self, endpoint: Endpoint, channel: str, body: bytes) -> None:
        self.session.add(
            RawPayload(org_id=endpoint.org_id, endpoint_id=endpoint.id, channel=channel, body=body)
        )

    async def pending_count(self, org_id: str, up_to: int) -> int:
        """Reads waiting for this organisation, counted no further than `up_to`."""
        limited = select(PendingRead.id).where(PendingRead.org_id == org_id).limit(up_to)
        stmt = select(func.count()).select_from(limited.subquery())
        return int(await self.session.scalar(stmt) or 0)
