"""What an operator watches, against `tagtrack serve` with processing in its child process and
MQTT: /metrics adds up both processes, /readyz names each check, every log line of a request
carries its id, and the Grafana dashboard queries only metrics the server exports."""

import json
import os
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import paho.mqtt.publish as mqtt_publish
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tagtrack.models.ids import new_id
from tests.broker import mqtt_broker
from tests.database import fresh_database
from tests.serve import ROOT, Served, children, free_port, processing_children, serve
from tests.tracking import epc
from tests.waiting import eventually

MAX_PENDING = 5
# Starting the processing child takes long on a busy machine.
STARTUP_SECONDS = 240
DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"
HEX_ID = re.compile(r"[0-9a-f]{32}")


@dataclass
class Server:
    served: Served
    broker: int
    admin: dict[str, str]
    key: str
    endpoint_id: str


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    group = f"tagtrack-test-{new_id()}"
    with fresh_database() as url, mqtt_broker() as broker:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_PROCESSING": "true",
            "TAGTRACK_MQTT_URL": f"mqtt://127.0.0.1:{broker}",
            "TAGTRACK_MQTT_SHARE_GROUP": group,
            "TAGTRACK_MQTT_CLIENT_ID": group,
            "TAGTRACK_MQTT_SESSION_EXPIRY_SECONDS": "60",
            "TAGTRACK_INGEST_MAX_PENDING": str(MAX_PENDING),
            "TAGTRACK_LOG_JSON": "true",
            "TAGTRACK_WEB_DIST": "/nonexistent",
        }
        with serve(env, stop_signal=signal.SIGTERM, timeout=STARTUP_SECONDS) as served:
            admin = {"username": served.printed("Username"), "password": served.printed("Password")}
            assert admin["username"] and admin["password"], served.text()
            key = reader_key_of(served.url, admin)
            config = httpx.get(
                f"{served.url}/api/ingest/config", headers={"Authorization": f"Bearer {key}"}
            )
            assert config.status_code == 200, config.text
            folder = metrics_folder(served)
            assert folder.is_dir()
            yield Server(served, broker, admin, key, config.json()["_id"])
        # The run's metrics directory goes when the server stops.
        assert not folder.exists()


def reader_key_of(url: str, admin: dict[str, str]) -> str:
    with httpx.Client(base_url=url, timeout=10) as client:
        assert client.post("/api/auth/login", json=admin).status_code == 200
        site = client.post(
            "/api/sites",
            json={
                "name": "Dock",
                "description": "",
                "startDate": "2024-03-01T08:00:00Z",
                "timezone": {"id": "Europe/London"},
            },
        )
        assert site.status_code == 201, site.text
        endpoint = client.post("/api/endpoints", json={"name": "Gate", "site": site.json()["_id"]})
        assert endpoint.status_code == 201, endpoint.text
        return str(endpoint.json()["key"])


def samples(text: str) -> "Scraped":
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


Scraped = dict[tuple[str, frozenset[tuple[str, str]]], float]


def value(scraped: Scraped, name: str, **labels: str) -> float | None:
    return scraped.get((name, frozenset(labels.items())))


def scrape(url: str) -> Scraped:
    response = httpx.get(f"{url}/metrics", timeout=10)
    assert response.status_code == 200
    return samples(response.text)


def child_of(pid: int) -> int:
    """The processing child of the server process."""
    found = processing_children(pid)
    assert len(found) == 1, children(pid)
    return found[0]


def metrics_folder(served: Served) -> Path:
    """The run's own metrics directory, which the server hands down to its child."""
    child = child_of(served.process.pid)
    environ = dict(
        line.split("=", 1)
        for line in Path(f"/proc/{child}/environ").read_text().split("\0")
        if "=" in line
    )
    return Path(environ["PROMETHEUS_MULTIPROC_DIR"])


def reads(count: int) -> bytes:
    return orjson.dumps({"reads": [{"tag": epc(), "antenna": 1} for _ in range(count)]})


def post_reads(server: Server, body: bytes) -> httpx.Response:
    return httpx.post(
        f"{server.served.url}/api/ingest/reads",
        content=body,
        headers={"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"},
        timeout=10,
    )


def wait_ready(url: str) -> httpx.Response:
    def ready() -> Any:
        response = httpx.get(f"{url}/readyz")
        return response.status_code == 200 and response

    return eventually(ready)  # type: ignore[no-any-return]


def test_metrics_add_up_the_server_and_its_processing_child(server: Server) -> None:
    url = server.served.url
    wait_ready(url)  # subscribed to the broker: messages published now are delivered
    child = child_of(server.served.process.pid)

    # Processing held still: reads wait, the backlog passes the limit, ingest refuses.
    os.kill(child, signal.SIGSTOP)
    try:
        assert post_reads(server, reads(3)).status_code == 202
        assert post_reads(server, reads(3)).status_code == 202
        time.sleep(1.2)  # the backlog is counted again at most once a second
        refused = post_reads(server, reads(2))
        assert refused.status_code == 429, refused.text
        topic = f"tagtrack/{server.endpoint_id}"
        mqtt_publish.single(f"{topic}/reads", reads(2), qos=1, port=server.broker)
        beat = {"uptime": 10, "readerTemp": 30, "ip": "10.1.1.1", "version": "1.0"}
        mqtt_publish.single(f"{topic}/status", orjson.dumps(beat), qos=1, port=server.broker)

        def behind() -> Any:
            scraped = scrape(url)
            refused_mqtt = value(
                scraped, "tagtrack_ingest_refused_total", channel="mqtt", cause="backlog"
            )
            return (refused_mqtt or 0) >= 1 and scraped

        scraped = eventually(behind)
        assert value(scraped, "tagtrack_pending_reads") == 6
        lag = value(scraped, "tagtrack_processing_lag_seconds")
        assert lag is not None and lag > 1
        assert value(scraped, "tagtrack_ingest_reads_accepted_total", channel="http") == 6
        assert value(scraped, "tagtrack_ingest_refused_total", channel="http", cause="backlog") == 1
        assert value(scraped, "tagtrack_mqtt_connected", broker=f"127.0.0.1:{server.broker}") == 1
        assert (
            value(
                scraped,
                "tagtrack_http_requests_total",
                method="POST",
                route="/api/ingest/reads",
                status="429",
            )
            == 1
        )

        # A console watching: one live stream open while it lasts.
        with httpx.Client(base_url=url, timeout=10) as console:
            assert console.post("/api/auth/login", json=server.admin).status_code == 200
            with console.stream("GET", "/api/live") as stream:
                assert stream.status_code == 200
                lines = stream.iter_lines()  # held: dropping it would close the stream
                assert next(lines).startswith("retry:")  # the stream is open
                streaming = scrape(url)
                assert value(streaming, "tagtrack_live_streams") == 1
    finally:
        os.kill(child, signal.SIGCONT)

    def caught_up() -> Any:
        scraped = scrape(url)
        stored = value(scraped, "tagtrack_mqtt_messages_total", kind="reads", outcome="stored")
        processed = value(scraped, "tagtrack_processing_batch_reads_sum")
        done = value(scraped, "tagtrack_pending_reads") == 0 and stored == 1 and processed == 8
        return done and scraped

    # The MQTT message waits out its hold-back (5 s) and is stored; the child processes all.
    scraped = eventually(caught_up, seconds=40)
    assert value(scraped, "tagtrack_processing_lag_seconds") == 0
    assert value(scraped, "tagtrack_ingest_reads_accepted_total", channel="mqtt") == 2
    assert value(scraped, "tagtrack_mqtt_messages_total", kind="status", outcome="stored") == 1
    # Batches are processed in the child only: its samples reach the server's /metrics.
    batches = value(scraped, "tagtrack_processing_batch_reads_count")
    assert batches is not None and 1 <= batches <= 8
    assert value(scraped, "tagtrack_processing_batch_seconds_count") == batches
    assert value(scraped, "tagtrack_live_streams") == 0
    assert (
        value(
            scraped,
            "tagtrack_http_requests_total",
            method="POST",
            route="/api/ingest/reads",
            status="202",
        )
        == 2
    )

    # Every metric the dashboard queries is one the server exports.
    dashboard = json.loads(DASHBOARD.read_text())
    queried = set(re.findall(r"\btagtrack_\w+", json.dumps(dashboard)))
    exported = {name for name, _ in scraped}
    assert queried, "the dashboard queries no metric"
    assert queried <= exported, sorted(queried - exported)
    panels = {panel["title"] for panel in dashboard["panels"]}
    assert {"Pending reads", "Processing lag", "Ingest refused (429)"} <= panels


def log_lines(served: Served) -> list[dict[str, Any]]:
    lines = []
    for line in served.output:
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        if isinstance(parsed, dict):
            lines.append(parsed)
    return lines


def test_each_request_has_an_id_in_its_answer_and_its_log_lines(server: Server) -> None:
    url = server.served.url
    given = "client-trace-0042"
    answered = httpx.get(f"{url}/api/version", headers={"X-Request-ID": given})
    assert answered.headers["x-request-id"] == given
    generated = httpx.get(f"{url}/api/version").headers["x-request-id"]
    assert HEX_ID.fullmatch(generated)
    # One that could forge or flood log fields is replaced.
    for insane in ("a" * 200, "two words", '{"level":"error"}'):
        replaced = httpx.get(f"{url}/api/version", headers={"X-Request-ID": insane})
        assert HEX_ID.fullmatch(replaced.headers["x-request-id"]), insane
    # Refusals answer it too: an unknown route, a bad payload.
    missing = httpx.get(f"{url}/api/nothing-here", headers={"X-Request-ID": "req-404"})
    assert missing.status_code == 404 and missing.headers["x-request-id"] == "req-404"
    bad = httpx.post(
        f"{url}/api/ingest/reads",
        content=b"{",
        headers={"Authorization": f"Bearer {server.key}", "X-Request-ID": "req-400"},
    )
    assert bad.status_code == 400 and bad.headers["x-request-id"] == "req-400"

    def logged() -> Any:  # up to the last request's line
        lines = log_lines(server.served)
        return any(line.get("request_id") == "req-400" for line in lines) and lines

    lines = eventually(logged, seconds=10)
    [request] = [line for line in lines if line.get("request_id") == given]
    assert request["event"] == "request" and request["path"] == "/api/version"
    assert request["status"] == 200 and request["level"] == "info"
    assert any(
        line.get("request_id") == generated and line.get("path") == "/api/version" for line in lines
    )
    assert any(line.get("request_id") == "req-400" and line.get("status") == 400 for line in lines)
    # Lines outside a request have no id; their fields are keys, not words in a sentence.
    [subscribed] = [line for line in lines if line.get("event") == "subscribed"]
    assert subscribed["broker"] == f"127.0.0.1:{server.broker}" and "request_id" not in subscribed
    assert subscribed["logger"] == "tagtrack.mqtt"


def test_readyz_names_each_check(server: Server) -> None:
    assert wait_ready(server.served.url).json() == {
        "status": "ready",
        "checks": {"database": "ok", "processing": "ok", "mqtt": "ok"},
    }


def test_readyz_is_503_with_the_reason_when_the_broker_is_away() -> None:
    nobody = free_port()  # no broker listens there
    with fresh_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_PROCESSING": "false",
            "TAGTRACK_MQTT_URL": f"mqtt://127.0.0.1:{nobody}",
            "TAGTRACK_WEB_DIST": "/nonexistent",
        }
        with serve(env, timeout=STARTUP_SECONDS) as served:
            response = httpx.get(f"{served.url}/readyz")
            assert response.status_code == 503, response.text
            body = response.json()
            assert body["status"] == "unavailable"
            assert body["checks"]["database"] == "ok"
            assert "processing" not in body["checks"]  # not run by this installation
            assert body["checks"]["mqtt"].startswith(
                f"not connected to the MQTT broker 127.0.0.1:{nobody}"
            )
            # Liveness is another matter: the process and its database are fine.
            assert httpx.get(f"{served.url}/healthz").status_code == 200
            scraped = scrape(served.url)
            assert value(scraped, "tagtrack_mqtt_connected", broker=f"127.0.0.1:{nobody}") == 0
