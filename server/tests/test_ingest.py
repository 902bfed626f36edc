"""The ingest API: reader keys, every reader format end to end, statuses, overload, MQTT."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiomqtt
import orjson
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.errors import Overloaded
from tagtrack.ingest.formats import parse_payload
from tagtrack.ingest.service import BACKLOG_CHECK_SECONDS, Admission
from tagtrack.main import create_app
from tagtrack.models import EndpointStatus, Event, PendingReadBatch, RawPayload
from tagtrack.models.base import utcnow
from tagtrack.models.ids import new_id
from tagtrack.processing.repository import ProcessingRepository
from tests.broker import mqtt_broker
from tests.clock import Clock
from tests.conftest import make_client
from tests.tracking import Floor, epc, iso

SAMPLES = Path(__file__).parent / "samples" / "readers"
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "readers"
READER_FILES = sorted(SAMPLES.iterdir()) + (sorted(FIXTURES.iterdir()) if FIXTURES.is_dir() else [])
READER_BODIES = [(f"{p.parent.name}/{p.name}", p.read_bytes()) for p in READER_FILES]


async def count(sessionmaker: async_sessionmaker[AsyncSession], stmt: Any) -> int:
    async with sessionmaker() as session:
        return int(await session.scalar(stmt) or 0)


@pytest.mark.parametrize(("name", "body"), READER_BODIES, ids=[n for n, _ in READER_BODIES])
async def test_every_reader_format_becomes_events(floor: Floor, name: str, body: bytes) -> None:
    expected = parse_payload(body, received_at=utcnow()).reads
    reader = await floor.endpoint("Reader")
    response = await floor.client.post(
        "/api/ingest/reads",
        content=body,
        headers={"Authorization": f"Bearer {reader.key}", "Content-Type": "application/json"},
    )
    assert response.status_code == 202, response.text
    assert response.json()["accepted"] == len(expected)
    await floor.drain()
    for tag in {read.tag for read in expected}:
        events = await floor.events(tag)
        assert events, f"no event for {tag}"
        assert sum(e.repeat_count for e in events) == sum(r.tag == tag for r in expected)


async def test_reads_need_a_known_endpoint_key(floor: Floor) -> None:
    body = {"reads": [{"tag": epc()}]}
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = await floor.client.post("/api/ingest/reads", json=body, headers=headers)
        assert response.status_code == 401
        assert response.json()["reason"] == "unauthorized"


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"{not json", "JSON"),
        (b'{"reads": [{"tag": 5}]}', "reads[0].tag"),
        (b'{"reads": [{"tag": "E200", "antenna": "two"}]}', "antenna"),
        (b'{"reads": [{"tag": "E200", "time": "yesterday"}]}', "time"),
        (b'{"hello": "world"}', "Zebra"),
        (b"", ""),
    ],
)
async def test_bad_payloads_are_refused_and_nothing_is_queued(
    floor: Floor, content: bytes, fragment: str
) -> None:
    reader = await floor.endpoint("Reader")
    response = await floor.client.post(
        "/api/ingest/reads",
        content=content,
        headers={"Authorization": f"Bearer {reader.key}", "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["reason"] == "bad payload"
    assert fragment in response.json()["message"]
    queued = select(func.count()).where(PendingReadBatch.endpoint_id == reader.id)
    assert await count(floor.sessionmaker, queued) == 0


async def test_queued_reads_keep_every_field_with_or_without_sensor_data(floor: Floor) -> None:
    reader = await floor.endpoint("Reader")
    tags = [epc() for _ in range(3)]
    sensed = {"reads": [{"tag": tags[0], "data": {"cFloat0": 21.5}}, {"tag": tags[1]}]}
    plain = {"reads": [{"tag": tags[2], "time": "2024-03-05T10:15:30.25+01:00", "antenna": 2,
                        "rssi": -40, "direction": "in", "tamper": True}]}  # fmt: skip
    for body in (sensed, plain):
        assert (await floor.post(reader, body)).status_code == 202
    async with floor.sessionmaker() as session:
        # As processing takes them; the transaction leaves them queued.
        rows = await ProcessingRepository(session).take_pending(floor.org_id, 100)
    by_tag = {row.tag: row for row in rows}
    assert [by_tag[tag].data for tag in tags] == [{"cFloat0": 21.5}, {}, {}]
    last = by_tag[tags[2]]
    assert (last.time.isoformat(), last.antenna, last.rssi, last.direction, last.tamper) == (
        "2024-03-05T09:15:30.250000+00:00",
        2,
        -40.0,
        "IN",
        True,
    )


async def test_processing_takes_the_oldest_reads_and_leaves_the_rest_of_a_batch_queued(
    floor: Floor,
) -> None:
    reader = await floor.endpoint("Reader")
    tags = [epc() for _ in range(8)]
    plain = [{"tag": tag, "antenna": n} for n, tag in enumerate(tags[:5])]
    sensed = [
        {"tag": tag, "antenna": n, "data": {"cFloat0": n + 0.5}} for n, tag in enumerate(tags[5:])
    ]
    for reads in (plain, sensed):
        assert (await floor.post(reader, {"reads": reads})).status_code == 202
    taken = []
    for limit in (6, 1, 5):
        async with floor.sessionmaker() as session, session.begin():
            taken.append(await ProcessingRepository(session).take_pending(floor.org_id, limit))
    assert [[read.tag for read in reads] for reads in taken] == [tags[:6], tags[6:7], tags[7:]]
    # The reads put back keep their fields and their order in the queue; each read's id
    # orders the reads taken together (equal times are applied in that order).
    assert [read.antenna for reads in taken for read in reads] == [0, 1, 2, 3, 4, 0, 1, 2]
    assert [read.data for reads in taken for read in reads] == [{}] * 5 + [
        {"cFloat0": 0.5},
        {"cFloat0": 1.5},
        {"cFloat0": 2.5},
    ]
    ids = [read.id for read in taken[0]]
    assert ids == sorted(set(ids))
    queued = select(func.count()).where(PendingReadBatch.endpoint_id == reader.id)
    assert await count(floor.sessionmaker, queued) == 0


async def test_raw_payloads_are_kept_for_diagnosis(floor: Floor) -> None:
    reader = await floor.endpoint("Reader")
    assert (await floor.post(reader, {"reads": [{"tag": epc()}]})).status_code == 202
    kept = select(func.count()).where(RawPayload.endpoint_id == reader.id)
    assert await count(floor.sessionmaker, kept) == 1


async def test_a_large_request_is_kept_and_queued_compressed_with_lz4_where_the_server_has_it(
    floor: Floor,
) -> None:
    reader = await floor.endpoint("Reader")
    reads = [{"tag": epc(), "antenna": n % 4, "time": iso(n)} for n in range(500)]
    assert (await floor.post(reader, {"reads": reads})).status_code == 202
    async with floor.sessionmaker() as session:
        methods = await session.scalar(
            text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        )
        stored = await session.execute(
            text(
                "SELECT pg_column_compression(r.body), pg_column_compression(b.body)"
                " FROM raw_payloads r, pending_read_batches b"
                " WHERE r.org_id = :org AND r.endpoint_id = :reader"
                " AND b.org_id = :org AND b.endpoint_id = :reader"
            ),
            {"org": floor.org_id, "reader": reader.id},
        )
    expected = "lz4" if "lz4" in methods else "pglz"
    assert stored.all() == [(expected, expected)]


async def test_status_and_config(floor: Floor) -> None:
    reader = await floor.endpoint("Reader", antennas=[{"map": "", "xycoordinates": [1, 2]}])
    auth = {"Authorization": f"Bearer {reader.key}"}
    beat = {"uptime": 3600, "readerTemp": 41.5, "ip": "10.0.0.5", "version": "3.21.1"}
    response = await floor.client.post("/api/ingest/status", json=beat, headers=auth)
    assert response.status_code == 204
    bad = await floor.client.post("/api/ingest/status", json={"uptime": "long"}, headers=auth)
    assert bad.status_code == 400
    async with floor.sessionmaker() as session:
        [status] = await session.scalars(
            select(EndpointStatus).where(EndpointStatus.endpoint_id == reader.id)
        )
    assert (status.uptime, status.reader_temp, status.ip, status.version) == (
        3600,
        41.5,
        "10.0.0.5",
        "3.21.1",
    )
    config = await floor.client.get("/api/ingest/config", headers=auth)
    assert config.status_code == 200
    assert config.json()["_id"] == reader.id
    assert config.json()["antennas"] == [{"map": "", "xycoordinates": [1, 2]}]


async def test_reads_and_a_heartbeat_in_one_request_are_both_kept(floor: Floor) -> None:
    """The heartbeat is written first (it begins the transaction), then the reads join it."""
    reader = await floor.endpoint("Speedway")
    body = (SAMPLES / "impinj_speedway_connect.ndjson").read_bytes()
    response = await floor.client.post(
        "/api/ingest/reads", content=body, headers={"Authorization": f"Bearer {reader.key}"}
    )
    assert response.status_code == 202, response.text
    assert response.json()["accepted"] == 2
    async with floor.sessionmaker() as session:
        statuses = await session.scalars(
            select(EndpointStatus.time).where(EndpointStatus.endpoint_id == reader.id)
        )
        queued = await session.scalars(
            select(PendingReadBatch.reads).where(PendingReadBatch.endpoint_id == reader.id)
        )
        assert list(statuses) == [parse_payload(body, received_at=utcnow()).heartbeats[0].time]
        assert list(queued) == [2]
    await floor.drain()
    assert [e.antenna for e in await floor.events("AAAA00000000000000000031")] == [12]


async def test_overload_answers_429_with_retry_after(
    app: Any, floor: Floor, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader = await floor.endpoint("Reader")
    clock = Clock()
    monkeypatch.setattr(app.state.admission, "clock", clock)
    settings: Settings = app.state.settings
    limit = settings.ingest_max_pending
    settings.ingest_max_pending = 2
    try:
        reads = {"reads": [{"tag": epc()} for _ in range(3)]}
        assert (await floor.post(reader, reads)).status_code == 202
        clock.advance(BACKLOG_CHECK_SECONDS)  # the backlog is looked at once a second
        response = await floor.post(reader, reads)
        assert response.status_code == 429
        assert response.headers["Retry-After"] == "5"
        assert response.json()["reason"] == "overloaded"
    finally:
        settings.ingest_max_pending = limit
    # What was acknowledged is still there and is processed.
    await floor.drain()
    for read in reads["reads"]:
        assert len(await floor.events(read["tag"])) == 1


async def test_ingest_past_its_database_share_waits_and_past_its_slots_is_refused() -> None:
    admission = Admission(max_in_flight=8, pool_size=4)
    inside, peak, done = 0, 0, 0
    release = asyncio.Event()

    async def request() -> None:
        nonlocal inside, peak, done
        async with admission.slot("http"):
            inside += 1
            peak = max(peak, inside)
            await release.wait()
            inside -= 1
        done += 1

    waiting = [asyncio.create_task(request()) for _ in range(8)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert inside == 2
    with pytest.raises(Overloaded):
        async with admission.slot("http"):
            pass
    release.set()
    await asyncio.gather(*waiting)
    assert (peak, done) == (2, 8)


async def test_user_messages_and_manual_events(org_factory: Any, floor: Floor) -> None:
    org = await org_factory()
    mine = Floor(org.id, org.site_ids[0], floor.sessionmaker, floor.settings, floor.client)
    handheld = await mine.endpoint("Handheld")
    dock = await mine.zone("Dock")
    tag = epc()
    thing = await mine.thing("Pallet", tag)
    operator = org.client("Operator")
    body = {"endpoint": handheld.id, "reads": [{"tag": tag, "time": iso(0)}]}
    response = await operator.post("/api/messages/user", json=body)
    assert response.status_code == 202, response.text
    await mine.drain()
    [event] = await mine.events(tag)
    assert event.endpoint_id == handheld.id
    # Another organization's endpoint is not found.
    stranger = await floor.endpoint("Stranger")
    body["endpoint"] = stranger.id
    assert (await operator.post("/api/messages/user", json=body)).status_code == 404
    assert (await org.client("Viewer").post("/api/messages/user", json=body)).status_code == 403

    manual = await operator.post("/api/events", json={"tag": tag.lower(), "zone": dock.id})
    assert manual.status_code == 201, manual.text
    assert manual.json()["zone"] == dock.id
    assert manual.json()["thing"] == thing.id
    assert (await mine.state(thing)).zone_id == dock.id
    missing = await operator.post("/api/events", json={"tag": epc(), "zone": dock.id})
    assert missing.status_code == 404


async def test_events_list_filters_and_counts(org_factory: Any, floor: Floor) -> None:
    org = await org_factory()
    mine = Floor(org.id, org.site_ids[0], floor.sessionmaker, floor.settings, floor.client)
    a, b = await mine.endpoint("A"), await mine.endpoint("B")
    zone = await mine.zone("Store", gates=[(a, "IN", -1)])
    tag = epc()
    thing = await mine.thing("Ladder", tag)
    unknown = epc()
    await mine.read(a, tag, 0, data={"cFloat0": 21.5})
    await mine.read(b, tag, 300)
    await mine.read(a, unknown, 600)
    viewer = org.client("Viewer")
    site = org.site_ids[0]
    response = await viewer.get("/api/events", params={"site": site})
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "3"
    rows = response.json()
    assert [r["tag"] for r in rows] == [unknown, tag, tag]  # newest first
    assert rows[0]["matched"] is False and rows[0]["thing"] == "7" * 24
    assert rows[2]["zone"] == zone.id and rows[2]["zoneName"] == zone.name
    assert rows[2]["thingName"] == "Ladder" and rows[2]["endpointName"] == a.name
    assert rows[2] == {
        "_id": rows[2]["_id"], "tag": tag, "time": iso(0), "firstTime": iso(0), "repeatCount": 1,
        "direction": "IN", "endpoint": a.id, "endpointName": a.name, "thing": thing.id,
        "thingName": "Ladder", "matched": True, "locationTag": "", "locationTagName": "",
        "antenna": 0, "zone": zone.id, "zoneName": zone.name, "alarmTamper": False,
        "data": {"cFloat0": 21.5}, "site": site,
    }  # fmt: skip
    assert (rows[0]["thingName"], rows[0]["data"]) == ("", {"cFloat0": None})
    second = await viewer.get("/api/events", params={"site": site, "limit": 2, "page": 1})
    assert [r["_id"] for r in second.json()] == [rows[2]["_id"]]
    only_a = await viewer.get("/api/events", params={"site": site, "endpoint": f"{a.id}"})
    assert only_a.headers["x-total-count"] == "2"
    both = await viewer.get("/api/events", params={"endpoint": f"{a.id},{b.id}", "limit": 1})
    assert both.headers["x-total-count"] == "3" and len(both.json()) == 1
    of_thing = await viewer.get("/api/events", params={"thing": thing.id})
    assert of_thing.headers["x-total-count"] == "2"
    window = await viewer.get("/api/events", params={"after": iso(100), "before": iso(500)})
    assert [r["endpoint"] for r in window.json()] == [b.id]
    other_site = await viewer.get("/api/events", params={"site": org.site_ids[1]})
    assert other_site.json() == []
    assert (await viewer.get("/api/events", params={"site": "f" * 24})).json() == []
    assert (await viewer.get("/api/events", params={"endpoint": "x"})).status_code == 400
    # Another organization sees none of it.
    stranger = await org_factory()
    response = await stranger.client("Administrator").get("/api/events")
    assert response.headers["x-total-count"] == "0"

    visits = await viewer.get("/api/zonedurations", params={"thing": thing.id})
    assert visits.status_code == 200
    [visit] = visits.json()
    assert visit["zone"] == zone.id and visit["timeEnd"].startswith("0001-01-01")
    assert visit["timeDuration"] > 0


@pytest.fixture(scope="module")
def broker_port() -> Iterator[int]:
    with mqtt_broker() as port:
        yield port


@pytest.fixture
async def mqtt_app(database_url: str, settings: Settings, broker_port: int) -> AsyncIterator[Any]:
    # A group and session of this run's own: other runs may share the machine's broker.
    run = f"tagtrack-test-{new_id()}"
    with_mqtt = settings.model_copy(
        update={
            "mqtt_url": f"mqtt://127.0.0.1:{broker_port}",
            "mqtt_share_group": run,
            "mqtt_client_id": run,
            "mqtt_session_expiry_seconds": 60,
        }
    )
    application = create_app(with_mqtt, database_url=database_url)
    async with application.router.lifespan_context(application):
        await asyncio.wait_for(application.state.mqtt.connected.wait(), 10)
        yield application


async def test_mqtt_reads_and_status_from_the_broker(
    mqtt_app: Any, floor: Floor, broker_port: int
) -> None:
    reader = await floor.endpoint("Dock door")
    tag = epc()
    zebra = {
        "data": {"idHex": tag.lower(), "antenna": 2, "peakRssi": -52},
        "timestamp": "2026-03-02T08:00:00.000+0000",
        "type": "SIMPLE",
    }
    async with aiomqtt.Client("127.0.0.1", broker_port) as publisher:
        await publisher.publish(f"tagtrack/{reader.id}/reads", orjson.dumps(zebra), qos=1)
        beat = {"uptime": 10, "readerTemp": 30, "ip": "10.1.1.1", "version": "1.0"}
        await publisher.publish(f"tagtrack/{reader.id}/status", orjson.dumps(beat), qos=1)
        await publisher.publish("tagtrack/not-an-endpoint/reads", b"{}", qos=1)
    statuses = select(func.count()).where(EndpointStatus.endpoint_id == reader.id)
    for _ in range(100):
        await floor.drain()
        if await floor.events(tag) and await count(floor.sessionmaker, statuses):
            break
        await asyncio.sleep(0.1)
    [event] = await floor.events(tag)
    assert (event.endpoint_id, event.antenna) == (reader.id, 2)
    assert await count(floor.sessionmaker, statuses) == 1
    async with make_client(mqtt_app) as client:
        assert (await client.get("/healthz")).status_code == 200
    stored = select(func.count()).where(Event.endpoint_id == reader.id)
    assert await count(floor.sessionmaker, stored) == 1
