"""Readiness and the metrics of the installation."""

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import Backlog, exposition
from tagtrack.meta.repository import MetaRepository
from tagtrack.meta.schemas import Readiness

log = get_logger("tagtrack.meta")

OK = "ok"


class Processing(Protocol):
    def failure(self) -> str | None: ...


class Subscriber(Protocol):
    def failure(self) -> str | None: ...


class MetaService:
    def __init__(self, session: AsyncSession) -> None:
        self.repository = MetaRepository(session)

    async def readiness(self, processing: Processing | None, mqtt: Subscriber | None) -> Readiness:
        """Database reachable; processing alive when this process runs it; the MQTT
        broker connected when one is configured."""
        checks = {"database": await self._database()}
        if processing is not None:
            checks["processing"] = processing.failure() or OK
        if mqtt is not None:
            checks["mqtt"] = mqtt.failure() or OK
        ready = all(outcome == OK for outcome in checks.values())
        return Readiness(status="ready" if ready else "unavailable", checks=checks)

    async def _database(self) -> str:
        try:
            await self.repository.ping()
        except Exception as exc:  # any database failure means not ready
            return f"unreachable: {type(exc).__name__}"
        return OK

    async def metrics(self) -> bytes:
        try:
            backlog: Backlog | None = await self.repository.backlog()
        except Exception:  # the process metrics are still worth having
            log.warning("metrics: could not read the backlog", exc_info=True)
            backlog = None
        return exposition(backlog)
