"""Ingest: readers hand over reads; they are queued durably, then processed in the background."""

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import orjson

from tagtrack.access.principal import Principal
from tagtrack.core.config import DEFAULT_DATABASE_POOL_SIZE, Settings
from tagtrack.core.errors import BadRequest, NotFound, Overloaded, Unauthorized
from tagtrack.core.metrics import INGEST_ACCEPTED, INGEST_REFUSED
from tagtrack.endpoints.repository import EndpointRepository
from tagtrack.ingest.formats import Heartbeat, Payload, PayloadError, parse_payload, parse_status
from tagtrack.ingest.repository import IngestRepository, ReaderEndpoint
from tagtrack.ingest.schemas import Accepted, ReaderConfig
from tagtrack.models.base import utcnow
from tagtrack.models.ids import is_id

RETRY_AFTER_SECONDS = 5
BACKLOG_CHECK_SECONDS = 1.0


@dataclass
class _Backlog:
    count: int
    checked: float


class Admission:
    """Per-process overload guard: in-flight requests and the processing backlog.

    Of the requests in flight, half as many as the connection pool holds use the database at
    once; the others wait their turn in the process. More readers than the pool holds would
    otherwise each open a connection beyond it and close it after one request: a new
    backend, its set-up and its prepared statements every time, which cost more than the
    request.
    """

    def __init__(
        self,
        max_in_flight: int = 64,
        clock: Callable[[], float] = time.monotonic,
        pool_size: int = DEFAULT_DATABASE_POOL_SIZE,
    ) -> None:
        self.clock = clock
        self.slots = asyncio.Semaphore(max_in_flight)
        self.working = asyncio.Semaphore(max(1, pool_size // 2))
        self.backlogs: dict[str, _Backlog] = {}

    @asynccontextmanager
    async def slot(self, channel: str) -> AsyncIterator[None]:
        if self.slots.locked():
            INGEST_REFUSED.labels(channel, "busy").inc()
            raise Overloaded(
                "Too many ingest requests at once; retry later",
                retry_after_seconds=RETRY_AFTER_SECONDS,
            )
        async with self.slots, self.working:
            yield

    async def check_backlog(self, repository: IngestRepository, org_id: str, limit: int) -> None:
        now = self.clock()
        known = self.backlogs.get(org_id)
        if known is None or now - known.checked >= BACKLOG_CHECK_SECONDS:
            if known is not None:
                # Requests arriving meanwhile go by the last count instead of counting too.
                known.checked = now
            known = _Backlog(await self._backlog(repository, org_id, limit), now)
            self.backlogs[org_id] = known
        if known.count > limit:
            raise Overloaded(
                "Processing is behind; retry later", retry_after_seconds=RETRY_AFTER_SECONDS
            )

    @staticmethod
    async def _backlog(repository: IngestRepository, org_id: str, limit: int) -> int:
        # Every batch holds a read at least: past `limit` batches, the limit is passed, and a
        # large backlog costs no more than that many rows of the key to look at.
        return await repository.pending_reads(org_id, limit + 1)


class IngestService:
    def __init__(
        self,
        repository: IngestRepository,
        endpoints: EndpointRepository,
        settings: Settings,
        admission: Admission,
    ) -> None:
        self.repository = repository
        self.endpoints = endpoints
        self.settings = settings
        self.admission = admission

    async def endpoint_for_key(self, key: str) -> ReaderEndpoint:
        endpoint = await self.repository.endpoint_by_key(key) if key else None
        if endpoint is None:
            raise Unauthorized("Unknown endpoint key")
        return endpoint

    async def endpoint_for_topic(self, endpoint_id: str) -> ReaderEndpoint:
        endpoint = (
            await self.repository.endpoint_by_topic(endpoint_id) if is_id(endpoint_id) else None
        )
        if endpoint is None:
            raise NotFound(f"No endpoint {endpoint_id!r}")
        return endpoint

    async def accept_reads(self, endpoint: ReaderEndpoint, body: bytes, channel: str) -> Accepted:
        """Parse, then queue the reads: durable once the caller's transaction commits, or
        once the queueing statement returns when nothing was written before it."""
        payload = self._parse(body)
        try:
            await self.admission.check_backlog(
                self.repository, endpoint.org_id, self.settings.ingest_max_pending
            )
        except Overloaded:
            INGEST_REFUSED.labels(channel, "backlog").inc()
            raise
        accepted = len(payload.reads)
        if payload.batch_id:
            earlier = await self.repository.claim_batch(endpoint, payload.batch_id, accepted)
            if earlier is not None:
                return Accepted(accepted=earlier, duplicate=True)
        # Heartbeats before the reads: they begin the transaction the reads then join.
        await self._add_statuses(endpoint, payload.heartbeats)
        await self.repository.queue(endpoint, payload.reads, channel, body)
        INGEST_ACCEPTED.labels(channel).inc(accepted)
        return Accepted(accepted=accepted)

    async def accept_user_reads(self, principal: Principal, body: bytes) -> Accepted:
        """Reads a signed-in handheld user sends for one endpoint of their sites."""
        try:
            endpoint_id = orjson.loads(body).get("endpoint")
        except (orjson.JSONDecodeError, AttributeError) as exc:
            raise BadRequest(
                'Expected a JSON object {"endpoint", "reads": [...]}', reason="bad payload"
            ) from exc
        if not isinstance(endpoint_id, str) or not is_id(endpoint_id):
            raise BadRequest("endpoint must be a 24-character hex id", reason="bad payload")
        endpoint = await self.repository.endpoint_by_id(principal.org_id, endpoint_id)
        if endpoint is None or not principal.sees_site(endpoint.site_id):
            raise NotFound("Endpoint not found")
        return await self.accept_reads(ReaderEndpoint.of(endpoint), body, "user")

    async def accept_status(self, endpoint: ReaderEndpoint, body: bytes) -> None:
        try:
            beat = parse_status(body, received_at=utcnow())
        except PayloadError as exc:
            raise BadRequest(str(exc), reason="bad payload") from exc
        await self._add_statuses(endpoint, [beat])

    async def _add_statuses(self, endpoint: ReaderEndpoint, beats: Sequence[Heartbeat]) -> None:
        for beat in beats:
            await self.endpoints.add_status(
                endpoint.org_id,
                endpoint.id,
                time=beat.time,
                uptime=beat.uptime,
                reader_temp=beat.reader_temp,
                ip=beat.ip or "",
                version=beat.version or "",
            )

    def config(self, endpoint: ReaderEndpoint) -> ReaderConfig:
        return ReaderConfig(
            id=endpoint.id,
            name=endpoint.name,
            site=endpoint.site_id,
            antennas=endpoint.antennas,
            config=endpoint.config,
            repeatWindowSeconds=self.settings.repeat_window_seconds,
        )

    @staticmethod
    def _parse(body: bytes) -> Payload:
        try:
            return parse_payload(body, received_at=utcnow())
        except PayloadError as exc:
            raise BadRequest(str(exc), reason="bad payload") from exc
