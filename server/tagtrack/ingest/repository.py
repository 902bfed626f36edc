"""The SQL of ingest: endpoint by key, idempotent batches, the pending queue."""

from collections.abc import Sequence

import orjson
from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tagtrack.access.org_keys import OrgKeyRepository
from tagtrack.core.wakeups import READS_CHANNEL
from tagtrack.ingest.formats import Read
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, IngestBatch, PendingRead, RawPayload
from tagtrack.models.base import utcnow
from tagtrack.models.org_key import ENDPOINT, READER_KEY

QUEUE_COLUMNS = (
    "org_id", "endpoint_id", "tag", "antenna", "time", "rssi", "direction", "tamper", "data",
    "received_at",
)  # fmt: skip
QUEUE_COLUMNS_WITHOUT_DATA = tuple(column for column in QUEUE_COLUMNS if column != "data")


class IngestRepository(Repository[PendingRead]):
    model = PendingRead

    async def endpoint_by_key(self, key: str) -> Endpoint | None:
        """A reader's key names no organization: org_keys says whose it is."""
        owner = await OrgKeyRepository(self.session).owner(READER_KEY, key)
        if owner is None:
            return None
        org_id, endpoint_id = owner
        stmt = select(Endpoint).where(
            Endpoint.org_id == org_id, Endpoint.id == endpoint_id, Endpoint.key == key
        )
        return await self.session.scalar(stmt)

    async def endpoint_by_topic(self, endpoint_id: str) -> Endpoint | None:
        """An MQTT topic names the endpoint alone: org_keys says whose it is."""
        owner = await OrgKeyRepository(self.session).owner(ENDPOINT, endpoint_id)
        return await self.endpoint_by_id(*owner) if owner else None

    async def endpoint_by_id(self, org_id: str, endpoint_id: str) -> Endpoint | None:
        return await self.session.get(Endpoint, {"org_id": org_id, "id": endpoint_id})

    async def claim_batch(self, endpoint: Endpoint, batch_id: str, accepted: int) -> int | None:
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

    async def queue(self, endpoint: Endpoint, reads: Sequence[Read], *, user_id: str = "") -> None:
        """One binary COPY in the request's transaction: hundreds of reads a request, no ORM rows.

        Sensor data goes only when some read has any: the column's default is the empty
        object, and each value costs a JSON encoding in Python.
        """
        if not reads:
            return
        now = utcnow()
        org_id, endpoint_id = endpoint.org_id, endpoint.id
        columns: tuple[str, ...] = QUEUE_COLUMNS
        records: list[tuple[object, ...]]
        if any(read.data for read in reads):
            records = [
                (
                    org_id, endpoint_id, read.tag, read.antenna, read.time, read.rssi,
                    read.direction or "", read.tamper,
                    orjson.dumps(read.data).decode() if read.data else "{}", now,
                )
                for read in reads
            ]  # fmt: skip
        else:
            columns = QUEUE_COLUMNS_WITHOUT_DATA
            records = [
                (
                    org_id, endpoint_id, read.tag, read.antenna, read.time, read.rssi,
                    read.direction or "", read.tamper, now,
                )
                for read in reads
            ]  # fmt: skip
        driver = await self._driver()
        await driver.copy_records_to_table("pending_reads", records=records, columns=columns)
        # Every process's worker is woken when this transaction commits (not before).
        await self.session.execute(select(func.pg_notify(READS_CHANNEL, "")))

    async def keep_raw(self, endpoint: Endpoint, channel: str, body: bytes) -> None:
        self.session.add(
            RawPayload(org_id=endpoint.org_id, endpoint_id=endpoint.id, channel=channel, body=body)
        )

    async def pending_span(self, org_id: str) -> int:
        """How many ids lie between the organization's oldest and newest queued read."""
        stmt = select(func.min(PendingRead.id), func.max(PendingRead.id)).where(
            PendingRead.org_id == org_id
        )
        oldest, newest = (await self.session.execute(stmt)).one()
        return 0 if oldest is None else int(newest) - int(oldest) + 1

    async def pending_count(self, org_id: str, up_to: int) -> int:
        """Reads waiting for this organization, counted no further than `up_to`."""
        limited = select(PendingRead.id).where(PendingRead.org_id == org_id).limit(up_to)
        stmt = select(func.count()).select_from(limited.subquery())
        return int(await self.session.scalar(stmt) or 0)
