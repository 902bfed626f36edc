"""MQTT: readers publish to tagtrack/<endpoint id>/reads and tagtrack/<endpoint id>/status.

Payloads are the same as over HTTP. Every server process subscribes with MQTT 5 shared
subscriptions ($share/<group>/...), so the broker hands each message to one process of the
group. A message is acknowledged only once its reads are committed (paho's manual
acknowledgements; its network loop runs in a thread); the session is persistent under a
stable client id, so what a process had not acknowledged when it stopped is delivered again
when it comes back. A batch id makes such a second delivery count once. `mqtts://` connects
over TLS (port 8883 by default) with the configured CA and optional client certificate.
"""

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import unquote, urlparse

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError, Overloaded
from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import MQTT_CONNECTED, MQTT_MESSAGES
from tagtrack.core.tasks import running
from tagtrack.ingest.service import RETRY_AFTER_SECONDS, Admission, IngestService
from tagtrack.kit.wiring import Wiring

log = get_logger("tagtrack.mqtt")

TOPIC_ROOT = "tagtrack"
KINDS = ("reads", "status")
RECONNECT_SECONDS = 3
CONNECT_TIMEOUT_SECONDS = 10


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
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.admission = admission
        self.url = urlparse(settings.mqtt_url)
        default_port = 8883 if self.url.scheme == "mqtts" else 1883
        self.address = f"{self.url.hostname or '127.0.0.1'}:{self.url.port or default_port}"
        self.connected = asyncio.Event()
        # Why the last connection failed or ended ("" while connected).
        self.problem = "not connected yet"
        self.up = MQTT_CONNECTED.labels(self.address)
        self.up.set(0)

    def failure(self) -> str | None:
        """Why the subscriber is not connected, or None when it is (readiness)."""
        if self.connected.is_set():
            return None
        return f"not connected to the MQTT broker {self.address}: {self.problem}"

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
                    wiring = Wiring(session, self.settings, self.admission)
                    service = wiring.get(IngestService)
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

    def _client(self) -> mqtt.Client:
        """A paho client that acknowledges a message only when told (after its commit)."""
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id(self.settings),
            protocol=mqtt.MQTTv5,
            reconnect_on_failure=False,  # reconnections are ours, to say why one failed
        )
        client.manual_ack_set(True)
        if self.url.username:
            client.username_pw_set(
                unquote(self.url.username),
                unquote(self.url.password) if self.url.password else None,
            )
        if self.url.scheme == "mqtts":
            client.tls_set(
                ca_certs=self.settings.mqtt_ca_file or None,
                certfile=self.settings.mqtt_cert_file or None,
                keyfile=self.settings.mqtt_key_file or None,
            )
        return client

    async def run(self) -> None:
        while True:
            try:
                await self._session()
                problem = "the broker closed the connection"
            except Exception as exc:  # unreachable, TLS refused, not authorised: say why
                problem = str(exc) or type(exc).__name__
            self.connected.clear()
            self.problem = problem
            self.up.set(0)
            log.warning("MQTT connection lost; reconnecting", broker=self.address, error=problem)
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _session(self) -> None:
        """One connection: subscribe, then store and acknowledge messages until it ends."""
        loop = asyncio.get_running_loop()
        messages: asyncio.Queue[mqtt.MQTTMessage | None] = asyncio.Queue()
        connack: asyncio.Future[ReasonCode] = loop.create_future()

        def answered(code: ReasonCode) -> None:
            if not connack.done():
                connack.set_result(code)

        def on_connect(_c: object, _u: object, _f: object, code: ReasonCode, _p: object) -> None:
            loop.call_soon_threadsafe(answered, code)

        def on_message(_c: object, _u: object, message: mqtt.MQTTMessage) -> None:
            loop.call_soon_threadsafe(messages.put_nowait, message)

        def on_disconnect(*_: object) -> None:
            loop.call_soon_threadsafe(messages.put_nowait, None)

        client = self._client()
        client.on_connect = on_connect
        client.on_message = on_message
        client.on_disconnect = on_disconnect
        session = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        session.SessionExpiryInterval = self.settings.mqtt_session_expiry_seconds
        host, port = self.address.rsplit(":", 1)
        # The TLS handshake happens here: a refused certificate raises with its reason.
        await asyncio.to_thread(
            client.connect, host, int(port), clean_start=False, properties=session
        )
        client.loop_start()
        try:
            code = await asyncio.wait_for(connack, CONNECT_TIMEOUT_SECONDS)
            if code.is_failure:
                raise ConnectionError(f"the broker refused the connection: {code}")
            topics = shared_topics(self.settings.mqtt_share_group)
            client.subscribe([(topic, SubscribeOptions(qos=1)) for topic in topics])
            self.connected.set()
            self.problem = ""
            self.up.set(1)
            log.info(
                "subscribed", topics=topics, broker=self.address, client_id=client_id(self.settings)
            )
            while (message := await messages.get()) is not None:
                await self.handle(message.topic, bytes(message.payload))
                if message.qos > 0:
                    client.ack(message.mid, message.qos)
        finally:
            client.disconnect()
            await asyncio.to_thread(client.loop_stop)


@asynccontextmanager
async def mqtt_subscriber(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    admission: Admission,
) -> AsyncIterator[MqttSubscriber | None]:
    if not settings.mqtt_url:
        yield None
        return
    subscriber = MqttSubscriber(sessionmaker, settings, admission)
    try:
        async with running(subscriber.run(), "mqtt"):
            yield subscriber
    finally:
        subscriber.up.set(0)
