"""A reader simulator: fixed gate readers and handhelds feeding the ingest API over HTTP.

Things wander between zones through the IN gates, leave through the OUT gates, are read
again where they stand, and handhelds walk past location tags. Readers send heartbeats,
except one per site that plays an unplugged reader, so the dashboard shows one stale row.
"""

import asyncio
import random
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.logging import get_logger
from tagtrack.core.tasks import running
from tagtrack.demo.repository import DemoRepository
from tagtrack.models.base import utcnow

log = get_logger("tagtrack.simulator")

HEARTBEAT_EVERY_TICKS = 15


@dataclass
class Gate:
    key: str
    antenna: int
    zone_id: str
    entering: bool


@dataclass
class SiteFloor:
    entries: list[Gate] = field(default_factory=list)
    exits: list[Gate] = field(default_factory=list)
    handhelds: list[str] = field(default_factory=list)
    location_tags: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    readers: list[str] = field(default_factory=list)


def _iso(seconds_ago: float = 0) -> str:
    return (utcnow() - timedelta(seconds=seconds_ago)).isoformat()


class Simulator:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        base_url: str,
        seed: int | None = None,
        site_names: Collection[str] | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.base_url = base_url.rstrip("/")
        # None: every site of the database; otherwise only the sites of these names.
        self.site_names = site_names
        self.random = random.Random(seed)
        self.floors: dict[str, SiteFloor] = {}
        self.where: dict[str, str] = {}  # tag -> zone id, as the simulator moved it
        self.sent = 0

    async def load(self) -> None:
        async with self.sessionmaker() as session:
            repository = DemoRepository(session)
            endpoints = await repository.endpoints()
            gates = await repository.gates()
            location_tags = await repository.location_tags()
            things = await repository.thing_tags()
            chosen = (
                None
                if self.site_names is None
                else set(await repository.site_ids_named(self.site_names))
            )
        by_id = {e.id: e for e in endpoints}
        floors: dict[str, SiteFloor] = {}
        gated = {g.endpoint_id for g in gates}
        for endpoint in endpoints:
            floor = floors.setdefault(endpoint.site_id, SiteFloor())
            floor.readers.append(endpoint.key)
            if endpoint.id not in gated:
                floor.handhelds.append(endpoint.key)
        for gate in gates:
            endpoint = by_id[gate.endpoint_id]
            entering = gate.direction in ("IN", "NEAR")
            antenna = gate.antenna if gate.antenna >= 0 else self.random.randint(0, 3)
            target = floors[endpoint.site_id]
            (target.entries if entering else target.exits).append(
                Gate(endpoint.key, antenna, gate.zone_id, entering)
            )
        for location in location_tags:
            floors.setdefault(location.site_id, SiteFloor()).location_tags.append(location.tag)
        for site_id, tag, _ in things:
            floors.setdefault(site_id, SiteFloor()).tags.append(tag)
        self.floors = {
            site: f
            for site, f in floors.items()
            if f.tags and f.readers and (chosen is None or site in chosen)
        }

    async def post(self, client: httpx.AsyncClient, key: str, path: str, body: object) -> None:
        response = await client.post(
            f"{self.base_url}/api/ingest/{path}",
            json=body,
            headers={"Authorization": f"Bearer {key}"},
        )
        if response.status_code == 429:
            await asyncio.sleep(float(response.headers.get("Retry-After", "5")))
        elif response.status_code >= 400:
            log.warning("simulated request refused", path=path, answer=response.text[:200])

    async def tick(self, client: httpx.AsyncClient, count: int) -> None:
        for floor in self.floors.values():
            if count % HEARTBEAT_EVERY_TICKS == 0:
                await self.heartbeats(client, floor)
            for _ in range(self.random.randint(1, 3)):
                await self.move_one(client, floor)
            if floor.handhelds and floor.location_tags and count % 5 == 0:
                await self.walk_handheld(client, floor)

    async def heartbeats(self, client: httpx.AsyncClient, floor: SiteFloor) -> None:
        # The last reader of a site plays an unplugged one.
        for n, key in enumerate(floor.readers[:-1]):
            body = {
                "uptime": 86_400 + n * 3_600 + self.sent,
                "readerTemp": round(self.random.uniform(32, 48), 1),
                "ip": f"10.20.{n // 250}.{n % 250 + 10}",
                "version": f"3.{21 + n % 3}.{n % 7}",
            }
            await self.post(client, key, "status", body)

    async def move_one(self, client: httpx.AsyncClient, floor: SiteFloor) -> None:
        tag = self.random.choice(floor.tags)
        here = self.where.get(tag)
        exits = [g for g in floor.exits if g.zone_id == here]
        roll = self.random.random()
        if here and exits and roll < 0.15:
            gate = self.random.choice(exits)
            self.where.pop(tag, None)
        elif floor.entries and (roll < 0.6 or here is None):
            gate = self.random.choice(floor.entries)
            self.where[tag] = gate.zone_id
        else:
            staying = [g for g in floor.entries if g.zone_id == here] or floor.entries
            if not staying:
                return
            gate = self.random.choice(staying)
        reads = [
            {
                "tag": tag,
                "time": _iso(seconds_ago=2 - n),
                "antenna": gate.antenna,
                "rssi": round(self.random.uniform(-70, -40), 1),
                "data": {"cFloat0": round(self.random.uniform(18, 24), 1)},
            }
            for n in range(self.random.randint(1, 3))
        ]
        await self.post(client, gate.key, "reads", {"reads": reads})
        self.sent += len(reads)

    async def walk_handheld(self, client: httpx.AsyncClient, floor: SiteFloor) -> None:
        key = self.random.choice(floor.handhelds)
        shelf = self.random.choice(floor.location_tags)
        nearby = self.random.sample(floor.tags, k=min(len(floor.tags), self.random.randint(2, 5)))
        reads = [{"tag": shelf, "time": _iso(3)}]
        reads += [{"tag": tag, "time": _iso(2 - n * 0.3)} for n, tag in enumerate(nearby)]
        await self.post(client, key, "reads", {"reads": reads})
        self.sent += len(reads)

    async def run(
        self,
        interval: float = 2.0,
        ticks: int | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        async with httpx.AsyncClient(timeout=30, transport=transport) as client:
            await self._wait_for_server(client)
            await self.load()
            log.info("simulating readers", sites=len(self.floors))
            count = 0
            while ticks is None or count < ticks:
                try:
                    await self.tick(client, count)
                except httpx.HTTPError as exc:
                    log.warning("simulator could not reach the server", error=str(exc))
                count += 1
                if count % 30 == 0:
                    await self.load()  # pick up readers and things added meanwhile
                await asyncio.sleep(interval)

    async def _wait_for_server(self, client: httpx.AsyncClient) -> None:
        for _ in range(600):
            with suppress(httpx.HTTPError):
                if (await client.get(f"{self.base_url}/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.5)
        raise RuntimeError(f"no TagTrack server answers at {self.base_url}")


@asynccontextmanager
async def running_simulator(
    sessionmaker: async_sessionmaker[AsyncSession],
    base_url: str,
    site_names: Collection[str] | None = None,
) -> AsyncIterator[None]:
    simulator = Simulator(sessionmaker, base_url, site_names=site_names)
    async with running(simulator.run(), "simulator"):
        yield
