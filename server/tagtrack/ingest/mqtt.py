"""MQTT: readers publish to tagtrack/<endpoint id>/reads and tagtrack/<endpoint id>/status.

Payloads are the same as over HTTP. The session is persistent (a fixed client id, no
clean session), so the broker keeps QoS 1 messages for us while we are away.
"""

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from urllib.parse import unquote, urlparse

import aiomqtt
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError, Overloaded
from tagtrack.ingest.service import RETRY_AFTER_SECONDS, Admission, IngestService

log = logging.getLogger("tagtrack.mqtt")

TOPIC_ROOT = "tagtrack"
RECONNECT_SECONDS = 3


class MqttSubscriber:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: Settings,
        admission: Admission,
        wake: Callable[[], None],
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.admission = admission
        self.wake = wake
        self.url = urlparse(settings.mqtt_url)
        self.connected = asyncio.Event()

    async def handle(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in ("reads", "status"):
            log.warning("ignored message on unexpected topic %s", topic)
            return
        endpoint_id, kind = parts[1], parts[2]
        while True:
            try:
                async with self.sessionmaker() as session, session.begin():
                    service = IngestService(session, self.settings, self.admission)
                    endpoint = await service.endpoint_for_topic(endpoint_id)
                    if kind == "reads":
                        await service.accept_reads(endpoint, payload, "mqtt")
                    else:
                        await service.accept_status(endpoint, payload)
            except Overloaded:
                # Holding the message back slows the broker down to what we can take.
                await asyncio.sleep(RETRY_AFTER_SECONDS)
                continue
            except AppError as exc:
                log.warning("refused message on %s: %s", topic, exc.message)
                return
            break
        self.wake()

    async def run(self) -> None:
        client_id = f"tagtrack-{socket.gethostname()}-{os.getpid()}"
        while True:
            try:
                async with aiomqtt.Client(
                    hostname=self.url.hostname or "127.0.0.1",
                    port=self.url.port or 1883,
                    username=unquote(self.url.username) if self.url.username else None,
                    password=unquote(self.url.password) if self.url.password else None,
                    identifier=client_id,
                    clean_session=False,
                ) as client:
                    await client.subscribe(f"{TOPIC_ROOT}/+/+", qos=1)
                    self.connected.set()
                    log.info("subscribed to %s/+/+ on %s", TOPIC_ROOT, self.url.hostname)
                    async for message in client.messages:
                        payload = message.payload
                        if isinstance(payload, str):
                            payload = payload.encode()
                        if not isinstance(payload, bytes | bytearray):
                            continue
                        await self.handle(str(message.topic), bytes(payload))
            except aiomqtt.MqttError as exc:
                self.connected.clear()
                log.warning("MQTT connection lost (%s); reconnecting", exc)
                await asyncio.sleep(RECONNECT_SECONDS)


@asynccontextmanager
async def mqtt_subscriber(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    admission: Admission,
    wake: Callable[[], None],
) -> AsyncIterator[MqttSubscriber | None]:
    if not settings.mqtt_url:
        yield None
        return
    subscriber = MqttSubscriber(sessionmaker, settings, admission, wake)
    task = asyncio.create_task(subscriber.run(), name="mqtt")
    try:
        yield subscriber
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
