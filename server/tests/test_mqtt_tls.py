"""MQTT over TLS against a real Mosquitto with a TLS listener and a CA made here: reads
published over TLS become events; with the wrong CA the connection is refused and the
server says why."""

import asyncio
import datetime as dt
import getpass
import ipaddress
import logging
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiomqtt
import orjson
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tagtrack.core.config import Settings
from tagtrack.ingest.mqtt import MqttSubscriber
from tagtrack.ingest.service import Admission
from tagtrack.main import create_app
from tagtrack.models.ids import new_id
from tests.broker import _broker_reachable
from tests.serve import free_port
from tests.tracking import Floor, epc


@dataclass
class Authority:
    key: ec.EllipticCurvePrivateKey
    cert: x509.Certificate
    path: Path


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> Path:
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    return path


def authority(folder: Path, common: str) -> Authority:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True,
                crl_sign=True, encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    path = folder / f"{common.replace(' ', '-')}.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return Authority(key, cert, path)


def server_certificate(folder: Path, ca: Authority) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca.key, hashes.SHA256())
    )
    cert_path = folder / "broker.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, _write_key(key, folder / "broker.key")


@dataclass
class TlsBroker:
    port: int
    ca: Authority
    wrong_ca: Authority


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsBroker]:
    """A Mosquitto of the test's own with only a TLS listener, its certificate signed by a
    CA made here."""
    folder = tmp_path_factory.mktemp("mqtt-tls")
    ca = authority(folder, "TagTrack Test CA")
    cert, key = server_certificate(folder, ca)
    port = free_port()
    config = folder / "mosquitto.conf"
    config.write_text(
        f"listener {port} 127.0.0.1\n"
        f"cafile {ca.path}\ncertfile {cert}\nkeyfile {key}\n"
        "allow_anonymous true\npersistence false\n"
        # Run as this user (not Mosquitto's own), who can read the test's temporary files.
        f"user {getpass.getuser()}\n"
    )
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    process = subprocess.Popen([binary, "-c", str(config)], stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if _broker_reachable(port):
                break
            assert process.poll() is None, "mosquitto did not start"
            time.sleep(0.1)
        yield TlsBroker(port, ca, authority(folder, "Someone Else CA"))
    finally:
        process.terminate()
        process.wait(timeout=10)


def tls_settings(settings: Settings, broker: TlsBroker, ca_file: Path) -> Settings:
    run = f"tagtrack-test-{new_id()}"
    return settings.model_copy(
        update={
            "mqtt_url": f"mqtts://localhost:{broker.port}",
            "mqtt_ca_file": str(ca_file),
            "mqtt_share_group": run,
            "mqtt_client_id": run,
            "mqtt_session_expiry_seconds": 60,
        }
    )


@pytest.fixture
async def tls_app(
    database_url: str, settings: Settings, tls_broker: TlsBroker
) -> AsyncIterator[Any]:
    application = create_app(
        tls_settings(settings, tls_broker, tls_broker.ca.path), database_url=database_url
    )
    async with application.router.lifespan_context(application):
        await asyncio.wait_for(application.state.mqtt.connected.wait(), 15)
        yield application


async def test_reads_published_over_tls_become_events(
    tls_app: Any, floor: Floor, tls_broker: TlsBroker
) -> None:
    assert tls_app.state.mqtt.problem == ""
    reader = await floor.endpoint("Dock door")
    tag = epc()
    read = {"reads": [{"tag": tag, "time": "2026-03-02T08:00:00Z", "antenna": 3}]}
    tls = aiomqtt.TLSParameters(ca_certs=str(tls_broker.ca.path))
    async with aiomqtt.Client("localhost", tls_broker.port, tls_params=tls) as publisher:
        await publisher.publish(f"tagtrack/{reader.id}/reads", orjson.dumps(read), qos=1)
    for _ in range(100):
        await floor.drain()
        if await floor.events(tag):
            break
        await asyncio.sleep(0.1)
    [event] = await floor.events(tag)
    assert (event.endpoint_id, event.antenna) == (reader.id, 3)


async def test_a_broker_certificate_from_another_ca_is_refused_with_the_reason(
    database_url: str, settings: Settings, tls_broker: TlsBroker, caplog: Any
) -> None:
    application = create_app(
        tls_settings(settings, tls_broker, tls_broker.wrong_ca.path), database_url=database_url
    )
    # The app set up its own log handler; the test reads the log through its own.
    logging.getLogger().addHandler(caplog.handler)
    caplog.set_level(logging.WARNING, logger="tagtrack.mqtt")
    async with application.router.lifespan_context(application):
        subscriber = application.state.mqtt
        for _ in range(100):
            if "certificate verify failed" in subscriber.problem:
                break
            await asyncio.sleep(0.1)
        assert not subscriber.connected.is_set()
        assert "certificate verify failed" in subscriber.problem
    logging.getLogger().removeHandler(caplog.handler)
    logged = [r.getMessage() for r in caplog.records if r.name == "tagtrack.mqtt"]
    assert any(
        f"localhost:{tls_broker.port}" in line and "certificate verify failed" in line
        for line in logged
    ), logged


def test_mqtts_defaults_to_port_8883() -> None:
    settings = Settings(mqtt_url="mqtts://broker.example.com")
    subscriber = MqttSubscriber(None, settings, Admission())  # type: ignore[arg-type]
    assert subscriber.address == "broker.example.com:8883"
    plain = Settings(mqtt_url="mqtt://broker.example.com")
    assert MqttSubscriber(None, plain, Admission()).address == "broker.example.com:1883"  # type: ignore[arg-type]
