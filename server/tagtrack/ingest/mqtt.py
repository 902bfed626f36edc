"""MQTT: readers publish to tagtrack/<endpoint id>/reads and tagtrack/<endpoint id>/status.

Payloads are the same as over HTTP. Every server process subscribes with MQTT 5 shared
subscriptions ($share/<group>/...), so the broker hands each message to one process of the
group. A message is acknowledged only once its reads are committed; the session is
persistent under a stable client id, so what a process had not acknowledged when it stopped
is delivered again when it comes back. A batch id makes such a second delivery count once.
"""

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from urllib.parse import unquote, urlparse

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError, Overloaded
from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import MQTT_CONNECTED, MQTT_MESSAGES
from tagtrack.ingest.service import RETRY_AFTER_SECONDS, Admission, IngestService

log = get_logger("tagtrack.mqtt")

TOPIC_ROOT = "tagtrack"
KINDS = ("reads", "status")
RECONNECT_SECONDS = 3


def client_id(settings: Settings) -> str:
    """Stable across restarts of the same process slot (host and port)."""
    return settings.mqtt_client_id or f"tagtrack-{socket.gethostname()}-{settings.port}"


def shared_topics(group: str) -> list[str]:
    return [f"$share/{group}/{TOPIC_ROOT}/+/{kind}" for kind in KINDS]


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
        self.broker = f"{self.url.hostname or '127.0.0.1'}:{self.url.port or 1883}"
        self.connected = asyncio.Event()
        self.last_error = ""
        self.up = MQTT_CONNECTED.labels(self.broker)
        self.up.set(0)

    def failure(self) -> str | None:
        """Why the subscriber is not connected, or None when it is (readiness)."""
        if self.connected.is_set():
            return None
        why = f": {self.last_error}" if self.last_error else ""
        return f"not connected to the MQTT broker {self.broker}{why}"

    async def handle(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in KINDS:
            log.warning("ignored message on unexpected topic", topic=topic)
            MQTT_MESSAGES.labels("other", "ignored").inc()
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
                log.warning("refused message", topic=topic, reason=exc.message)
                MQTT_MESSAGES.labels(kind, "rejected").inc()
                return
            except Exception:  # the database is away: keep the message and try again
                log.exception("message not stored; retrying", topic=topic)
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            break
        MQTT_MESSAGES.labels(kind, "stored").inc()
        self.wake()

    async def run(self) -> None:
        identifier = client_id(self.settings)
        session = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        session.SessionExpiryInterval = self.settings.mqtt_session_expiry_seconds
        topics = shared_topics(self.settings.mqtt_share_group)
        while True:
            try:
                client = aiomqtt.Client(
                    hostname=self.url.hostname or "127.0.0.1",
                    port=self.url.port or 1883,
                    username=unquote(self.url.username) if self.url.username else None,
                    password=unquote(self.url.password) if self.url.password else None,
                    identifier=identifier,
                    protocol=aiomqtt.ProtocolVersion.V5,
                    clean_start=False,
                    properties=session,
                )
                # aiomqtt offers no acknowledgement of its own: paho's, so that a message is
                # acknowledged after its reads are committed, not on arrival.
                client._client.manual_ack_set(True)
                async with client:
                    await client.subscribe([(topic, 1) for topic in topics])
                    self.connected.set()
                    self.last_error = ""
                    self.up.set(1)
                    log.info("subscribed", topics=topics, broker=self.broker, client_id=identifier)
                    async for message in client.messages:
                        payload = message.payload
                        if isinstance(payload, str):
                            payload = payload.encode()
                        if isinstance(payload, bytes | bytearray):
                            await self.handle(str(message.topic), bytes(payload))
                        if message.qos > 0:
                            client._client.ack(message.mid, message.qos)
            except aiomqtt.MqttError as exc:
                self.connected.clear()
                self.last_error = str(exc)
                self.up.set(0)
                log.warning(
                    "MQTT connection lost; reconnecting", broker=self.broker, error=str(exc)
                )
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
        subscriber.up.set(0)
