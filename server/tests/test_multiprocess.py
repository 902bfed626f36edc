"""Several `tagtrack serve` processes on one fresh database split the work: every read
acknowledged over HTTP or MQTT is processed exactly once, each dwell exception and each
daily job happens once, even when a process is killed in the middle and started again."""

import asyncio
import signal
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import aiomqtt
import httpx
import orjson
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.kit.wiring import Wiring
from tagtrack.models import (
    DailyRun,
    Endpoint,
    EndpointStatus,
    Event,
    Organization,
    PendingReadBatch,
    Site,
    Thing,
    ThingTag,
    TrackingException,
    User,
    Zone,
    ZoneDuration,
    ZoneGate,
)
from tagtrack.models.ids import new_id
from tagtrack.organizations.service import OrganizationService
from tests.broker import mqtt_broker
from tests.database import fresh_database
from tests.mailbox import smtp_server
from tests.serve import Served, free_port, serve
from tests.tracking import epc
from tests.waiting import until

PROCESSES = 3
BATCHES = 48
TAGS_PER_BATCH = 4
READS_PER_TAG = 3
DAILY = "daily@example.com"
DWELL = "dwell@example.com"


def midday_timezone(now: datetime) -> str:
    """A fixed-offset zone whose clock is near noon now, far from a change of day."""
    offset = 12 - now.hour
    return f"Etc/GMT{-offset:+d}"


async def seed(maker: async_sessionmaker[AsyncSession], now: datetime) -> dict[str, Any]:
    """An organization and a site whose daily time is the current minute of its clock, four
    readers on the gates of one zone with a one-minute alert time, and the things."""
    timezone = midday_timezone(now)
    local = now.astimezone(ZoneInfo(timezone))
    async with maker() as session, session.begin():
        organizations = Wiring(session).get(OrganizationService)
        org = await organizations.create_organization("Scale Logistics", f"scale{new_id()[:8]}")
        site = Site(
            org_id=org.id,
            name="Scale DC",
            start_date=now,
            timezone=timezone,
            report_daily_time=f"{local:%H:%M}",
            report_emails=[DAILY],
        )
        session.add(site)
        await session.flush()
        zone = Zone(
            id=new_id(),
            org_id=org.id,
            site_id=site.id,
            name="Dock",
            duration=60 * 10**9,
            emails=[DWELL],
        )
        endpoints = [
            Endpoint(
                id=new_id(),
                org_id=org.id,
                site_id=site.id,
                name=f"Door {n}",
                key=f"reader-key-{n}-{new_id()}",
                xy=[0, 0],
                antennas=[],
                config={},
            )
            for n in range(4)
        ]
        session.add_all([zone, *endpoints])
        await session.flush()
        session.add_all(
            ZoneGate(
                org_id=org.id,
                zone_id=zone.id,
                endpoint_id=endpoint.id,
                direction="IN",
                antenna=-1,
                position=position,
            )
            for position, endpoint in enumerate(endpoints)
        )
        tags = [epc() for _ in range(BATCHES * TAGS_PER_BATCH)]
        for n, tag in enumerate(tags):
            thing = Thing(
                id=new_id(),
                org_id=org.id,
                site_id=site.id,
                thing_class="item",
                name=f"Pallet {n}",
                tag1=tag,
                data={},
            )
            session.add_all([thing, ThingTag(org_id=org.id, tag=tag, thing_id=thing.id)])
    return {"org": org.id, "site": site.id, "endpoints": endpoints, "tags": tags}


def batch(number: int, tags: Sequence[str], start: datetime) -> bytes:
    reads = [
        {
            "tag": tag,
            "time": (start + timedelta(seconds=second)).isoformat(),
            "antenna": 1,
        }
        for tag in tags
        for second in range(READS_PER_TAG)
    ]
    return orjson.dumps({"batchId": f"batch-{number}", "reads": reads})


async def count(maker: async_sessionmaker[AsyncSession], stmt: Any) -> int:
    async with maker() as session:
        return int(await session.scalar(stmt) or 0)


async def has(maker: async_sessionmaker[AsyncSession], stmt: Any, expected: int) -> bool:
    return await count(maker, stmt) >= expected


async def test_processes_split_the_work_once_through_a_kill() -> None:
    now = datetime.now(UTC)
    group = f"tagtrack-test-{new_id()}"
    with (
        fresh_database() as url,
        smtp_server() as (mailbox, smtp_url),
        mqtt_broker() as broker,
        ExitStack() as running,
    ):
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_PROCESSING": "true",
            "TAGTRACK_SMTP_URL": smtp_url,
            "TAGTRACK_MQTT_URL": f"mqtt://127.0.0.1:{broker}",
            "TAGTRACK_MQTT_SHARE_GROUP": group,
            "TAGTRACK_MQTT_SESSION_EXPIRY_SECONDS": "120",
            "TAGTRACK_SWEEP_INTERVAL_SECONDS": "1",
            "TAGTRACK_DAILY_TICK_SECONDS": "1",
            "TAGTRACK_WEB_DIST": "/nonexistent",
        }
        ports = [free_port() for _ in range(PROCESSES)]

        def start(port: int) -> Served:
            # A stable client id per process slot, as a host and port give in production.
            own = {**env, "TAGTRACK_MQTT_CLIENT_ID": f"{group}-{port}"}
            return running.enter_context(serve(own, port=port, stop_signal=signal.SIGTERM))

        # All start together on an empty database: one migrates and creates the first
        # organization while the others wait.
        with ThreadPoolExecutor(PROCESSES) as starting:
            servers = list(starting.map(start, ports))
        engine = create_engine(url)
        maker = create_sessionmaker(engine)
        try:
            assert await count(maker, select(func.count()).select_from(Organization)) == 1
            assert await count(maker, select(func.count()).select_from(User)) == 1
            floor = await seed(maker, now)
            endpoints: list[Endpoint] = floor["endpoints"]
            tags: list[str] = floor["tags"]
            start_time = now - timedelta(minutes=10)
            beats = select(func.count()).select_from(EndpointStatus)
            alive = list(servers)
            victim = servers[1]

            async with (
                httpx.AsyncClient(timeout=10) as http,
                aiomqtt.Client("127.0.0.1", broker) as publisher,
            ):

                async def send(number: int) -> None:
                    chunk = tags[number * TAGS_PER_BATCH : (number + 1) * TAGS_PER_BATCH]
                    body = batch(number, chunk, start_time + timedelta(seconds=number))
                    endpoint = endpoints[number % len(endpoints)]
                    if number % 2 == 1:
                        topic = f"tagtrack/{endpoint.id}/reads"
                        await publisher.publish(topic, body, qos=1)
                        return
                    # A reader whose server went away sends the same batch to another one.
                    for attempt in range(len(servers)):
                        target = alive[(number + attempt) % len(alive)]
                        try:
                            response = await http.post(
                                f"{target.url}/api/ingest/reads",
                                content=body,
                                headers={
                                    "Authorization": f"Bearer {endpoint.key}",
                                    "Content-Type": "application/json",
                                },
                            )
                        except httpx.TransportError:
                            continue
                        assert response.status_code == 202, response.text
                        return
                    raise AssertionError(f"batch {number} was never acknowledged")

                # Heartbeats carry no batch id: stored once each shows that one process of
                # the group, not every process, takes each message.
                beat = {"uptime": 10, "readerTemp": 30, "ip": "10.1.1.1", "version": "1.0"}
                for endpoint in endpoints:
                    topic = f"tagtrack/{endpoint.id}/status"
                    await publisher.publish(topic, orjson.dumps(beat), qos=1)
                await until(lambda: has(maker, beats, len(endpoints)))
                for number in range(BATCHES // 2):
                    await send(number)
                # Killed without warning while reads are still being processed; a service
                # manager starts it again on its slot, where its MQTT session resumes.
                victim.process.send_signal(signal.SIGKILL)
                victim.process.wait()
                restarted = asyncio.create_task(asyncio.to_thread(start, ports[1]))
                for number in range(BATCHES // 2, BATCHES):
                    await send(number)
                alive.remove(victim)
                for number in range(BATCHES // 2, BATCHES // 2 + 4):
                    await send(number)  # sent twice: counted once
                servers[1] = await restarted

            assert await count(maker, beats) == len(endpoints)
            org_id = floor["org"]
            events = select(func.count()).select_from(Event).where(Event.org_id == org_id)

            async def all_processed() -> bool:
                pending = select(func.count()).select_from(PendingReadBatch)
                return await count(maker, events) == len(tags) and await count(maker, pending) == 0

            await until(all_processed)
            async with maker() as session:
                folded = await session.execute(
                    select(Event.tag, Event.repeat_count).where(Event.org_id == org_id)
                )
                assert sorted(folded.all()) == sorted((tag, READS_PER_TAG) for tag in tags)
                visits = await session.execute(
                    select(ZoneDuration.thing_id, func.count())
                    .where(ZoneDuration.org_id == org_id)
                    .group_by(ZoneDuration.thing_id)
                )
                assert sorted(n for _, n in visits.all()) == [1] * len(tags)

            dwell = (
                select(func.count())
                .select_from(TrackingException)
                .where(TrackingException.org_id == org_id)
                .where(TrackingException.type == "zoneTimeException")
            )

            async def dwell_checked() -> bool:
                return await count(maker, dwell) >= len(tags) and len(mailbox.to(DAILY)) >= 1

            await until(dwell_checked)
            await asyncio.sleep(2.5)  # more sweeps and daily ticks of every process
            assert await count(maker, dwell) == len(tags)
            # Alerts are queued with their exception and sent by whichever process's outbox
            # sender locks them first: each alert is one mail. A process killed between the
            # mail server's accept and its commit sends that mail again (delivery is at least
            # once), with the same Message-ID, so the receiver can tell it is the same mail.
            ids_by_alert: dict[str, set[str]] = {}
            for mail in mailbox.to(DWELL):
                ids_by_alert.setdefault(str(mail["Subject"]), set()).add(str(mail["Message-ID"]))
            assert ids_by_alert, "no dwell alert arrived"
            assert all(len(ids) == 1 for ids in ids_by_alert.values()), "an alert was made twice"
            async with maker() as session:
                runs = await session.execute(
                    select(DailyRun.kind, func.count())
                    .where(DailyRun.site_id == floor["site"])
                    .group_by(DailyRun.kind)
                )
                assert dict(runs.all()) == {"inventory": 1, "mail": 1}
            [daily] = mailbox.to(DAILY)
            assert "Scale DC" in str(daily["Subject"])
        finally:
            await engine.dispose()
