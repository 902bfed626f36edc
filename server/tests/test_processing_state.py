"""A worker keeps a batch's rows for the organization's next batch (processing.state): the
next batch loads only what was not kept, and never works from rows anyone else changed."""

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any
from unittest import mock

import httpx
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.models import Event, Thing, ZoneDuration
from tagtrack.models.ids import UNKNOWN_THING_ID
from tagtrack.processing.repository import ProcessingRepository, ThingRow
from tagtrack.processing.service import ProcessingService
from tagtrack.processing.state import KeptStates, WorkingState
from tagtrack.processing.worker import ProcessingWorker
from tests.tracking import Floor, at, epc, iso


class Loads:
    """What the batches load from the database: thing ids and fold keys."""

    def __init__(self) -> None:
        self.things: list[str] = []
        self.keys: list[tuple[str, int, str]] = []

    def __enter__(self) -> "Loads":
        things = ProcessingRepository.things_for_update
        latest = ProcessingRepository.latest_events

        async def things_for_update(repo: ProcessingRepository, org_id: str, ids: Any) -> Any:
            ids = list(ids)
            self.things += ids
            return await things(repo, org_id, ids)

        async def latest_events(
            repo: ProcessingRepository, org_id: str, keys: Any, since: Any
        ) -> Any:
            keys = list(keys)
            self.keys += keys
            return await latest(repo, org_id, keys, since)

        self.patches = [
            mock.patch.object(ProcessingRepository, "things_for_update", things_for_update),
            mock.patch.object(ProcessingRepository, "latest_events", latest_events),
        ]
        for patch in self.patches:
            patch.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for patch in self.patches:
            patch.stop()


async def test_the_next_batch_starts_from_the_rows_the_last_one_wrote(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    store = await floor.zone("Store", gates=[(door, "IN", 1)])
    tag, other = epc(), epc()
    thing = await floor.thing("Generator", tag)
    await floor.read(door, tag, 0, antenna=1)
    with Loads() as loads:
        await floor.queue(door, [{"tag": tag, "time": iso(20), "antenna": 1}])
        await floor.queue(door, [{"tag": other, "time": iso(25), "antenna": 1}])
        await floor.drain()
    # The thing and its event were kept; only the new tag's event was looked for.
    assert loads.things == []
    assert loads.keys == [(door.id, 1, other)]
    [event] = await floor.events(tag)
    assert (event.first_time, event.time, event.repeat_count) == (at(0), at(20), 2)
    state = await floor.state(thing)
    assert (state.zone_id, state.last_event, state.last_zone_read) == (store.id, at(20), at(20))
    [visit] = await floor.visits(thing)
    assert (visit.time_start, visit.time_end) == (at(0), None)
    [unknown] = await floor.events(other)
    assert unknown.thing_id == UNKNOWN_THING_ID


async def test_an_edit_between_batches_is_not_overwritten(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    await floor.zone("Store", gates=[(door, "IN", 1)])
    tag = epc()
    thing = await floor.thing("Ladder", tag)
    await floor.read(door, tag, 0, antenna=1, tamper=True)
    assert (await floor.state(thing)).alarm_tamper
    # Someone clears the alarm while the worker keeps the thing's row as it wrote it.
    await floor.clear_alarm(thing)
    with Loads() as loads:
        await floor.read(door, tag, 30, antenna=1)
    # The batch found the row changed, and ran again from the database.
    assert loads.things == [thing.id]
    state = await floor.state(thing)
    assert (state.alarm_tamper, state.last_event) == (False, at(30))
    [event] = await floor.events(tag)
    assert (event.time, event.repeat_count) == (at(30), 2)


async def test_a_batch_processed_elsewhere_in_between_is_not_shadowed(floor: Floor) -> None:
    """Rows kept at one epoch serve only the next: here another worker made a newer event
    of an unknown tag (no thing row changes), which the next read must fold into."""
    door = await floor.endpoint("Door")
    tag = epc()
    await floor.read(door, tag, 0)
    other = ProcessingWorker(floor.sessionmaker, floor.settings)
    await floor.queue(door, [{"tag": tag, "time": iso(200)}])  # past the window: a new event
    await other.drain()
    with Loads() as loads:
        await floor.read(door, tag, 230)
    assert loads.keys == [(door.id, 0, tag)]
    events = await floor.events(tag)
    assert [(e.first_time, e.time, e.repeat_count) for e in events] == [
        (at(0), at(0), 1),
        (at(200), at(230), 2),
    ]


async def test_a_thing_deleted_between_batches_is_an_unknown_tag_in_the_next(
    floor: Floor,
) -> None:
    door = await floor.endpoint("Door")
    await floor.zone("Store", gates=[(door, "IN", 1)])
    tag = epc()
    thing = await floor.thing("Crate", tag)
    await floor.read(door, tag, 0, antenna=1)
    # The worker keeps the thing, its open visit and its event; the visit goes with it.
    async with floor.sessionmaker() as session, session.begin():
        await session.execute(
            delete(Thing).where(Thing.org_id == floor.org_id, Thing.id == thing.id)
        )
    await floor.read(door, tag, 10, antenna=1)
    [event] = await floor.events(tag)
    assert (event.thing_id, event.time, event.repeat_count) == (UNKNOWN_THING_ID, at(10), 2)
    assert await floor.visits(thing) == []


async def test_a_sweep_between_batches_is_seen_by_the_next(floor: Floor) -> None:
    door, yard = await floor.endpoint("Door"), await floor.endpoint("Yard")
    bay = await floor.zone("Bay", gates=[(door, "IN", 1)], kill_duration=1.0)
    tag = epc()
    thing = await floor.thing("Pallet", tag)
    await floor.read(door, tag, 0, antenna=1)
    await floor.sweep(2 * 3600)  # out of the bay an hour after its last read there
    assert (await floor.state(thing)).zone_id is None
    await floor.read(yard, tag, 3 * 3600)
    state = await floor.state(thing)
    assert (state.zone_id, state.endpoint_id) == (None, yard.id)
    [visit] = await floor.visits(thing)
    assert (visit.zone_id, visit.time_end) == (bay.id, at(3600))


def test_kept_states_stay_within_their_limit_least_recent_first() -> None:
    def state(things: int) -> WorkingState:
        return WorkingState(1, {str(n): mock.Mock(spec=ThingRow) for n in range(things)})

    kept = KeptStates(max_rows=10)
    kept.keep("a", state(4))
    kept.keep("b", state(4))
    kept.keep("a", state(5))  # a is now the most recent
    assert list(kept.states) == ["b", "a"]
    kept.keep("c", state(3))
    assert list(kept.states) == ["a", "c"]
    assert kept.take("a") is not None and kept.take("a") is None
    old = WorkingState(1, {str(n): mock.Mock(spec=ThingRow) for n in range(8)})
    later = WorkingState(2, {"x": mock.Mock(spec=ThingRow)})
    assert len(old.followed_by(later).things) == 9
    with mock.patch("tagtrack.processing.state.MAX_KEPT_ROWS", 8):
        assert old.followed_by(later) is later


async def test_a_failing_drain_is_retried_once_a_second_not_in_a_busy_loop(floor: Floor) -> None:
    worker = ProcessingWorker(floor.sessionmaker, floor.settings)
    tries = 0

    async def failing() -> int:
        nonlocal tries
        tries += 1
        raise RuntimeError("the database is away")

    with mock.patch.object(worker, "drain", failing):
        task = asyncio.create_task(worker.run())
        for _ in range(150):  # reads keep arriving
            worker.wake.set()
            await asyncio.sleep(0.01)
        task.cancel()
    assert 1 <= tries <= 3


async def _floor_with_reads(floor: Floor, seed: int) -> dict[str, str]:
    """Gates in and out, a plain reader, things and unknown tags, and 600 reads of them in
    requests of 20, some late, some tampered; the label of every id the reads name."""
    door, dock, yard = [await floor.endpoint(n) for n in ("Door", "Dock", "Yard")]
    store = await floor.zone("Store", gates=[(door, "IN", 1), (door, "OUT", 2)])
    bay = await floor.zone("Bay", gates=[(dock, "IN", -1)])
    labels = {door.id: "door", dock.id: "dock", yard.id: "yard", store.id: "store", bay.id: "bay"}
    tags = [f"ST{seed}{n:02d}{floor.org_id[-6:].upper()}" for n in range(8)]
    for n, tag in enumerate(tags[:6]):
        labels[(await floor.thing(f"Thing {n}", tag)).id] = f"thing {n}"
    labels.update({tag: f"tag {n}" for n, tag in enumerate(tags)})
    labels[UNKNOWN_THING_ID] = "unknown"
    rng = random.Random(seed)
    reads = [
        (
            rng.choice((door, dock, yard)),
            {
                "tag": rng.choice(tags),
                "antenna": rng.choice((1, 1, 2)),
                # Mostly in order, a few late by up to two minutes.
                "time": iso(n * 3 - (rng.random() < 0.1) * rng.randrange(120)),
                "tamper": rng.random() < 0.02,
            },
        )
        for n in range(600)
    ]
    for start in range(0, len(reads), 20):
        endpoint = reads[start][0]
        await floor.queue(endpoint, [read for _, read in reads[start : start + 20]])
    return labels


async def _history(floor: Floor, labels: dict[str, str]) -> dict[str, Any]:
    def name(value: Any) -> Any:
        return labels.get(value, value)

    async with floor.sessionmaker() as session:
        events = await session.scalars(select(Event).where(Event.org_id == floor.org_id))
        visits = await session.scalars(
            select(ZoneDuration).where(ZoneDuration.org_id == floor.org_id)
        )
        things = await session.scalars(select(Thing).where(Thing.org_id == floor.org_id))
        return {
            "events": sorted(
                (name(e.tag), name(e.endpoint_id), e.antenna, e.first_time, e.time,
                 e.repeat_count, name(e.zone_id), name(e.thing_id), e.direction, e.alarm_tamper)
                for e in events
            ),
            "visits": sorted(
                (name(v.thing_id), name(v.zone_id), v.time_start, v.time_end, v.time_duration)
                for v in visits
            ),
            "things": sorted(
                (name(t.id), name(t.zone_id), t.last_event, t.last_zone_time, t.last_zone_read,
                 t.direction, name(t.endpoint_id), t.alarm_tamper)
                for t in things
            ),
        }  # fmt: skip


async def _process_in_batches(floor: Floor, size: int, keep: bool) -> int:
    kept, batches = None, 0
    while True:
        async with floor.sessionmaker() as session, session.begin():
            service = ProcessingService(session, floor.settings)
            outcome = await service.process_pending(floor.org_id, size, kept=kept)
        if not outcome.processed:
            return batches
        batches += 1
        kept = outcome.state if keep else None


async def test_batches_from_kept_rows_make_the_history_batches_from_the_database_make(
    org_factory: Callable[[], Awaitable[Any]],
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> None:
    for seed in (1, 2, 3):
        histories = []
        for keep in (True, False):
            org = await org_factory()
            floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
            labels = await _floor_with_reads(floor, seed)
            assert await _process_in_batches(floor, 37, keep) == 17  # 600 reads, 37 a batch
            histories.append(await _history(floor, labels))
        kept, loaded = histories
        assert kept == loaded
        assert len(kept["events"]) > 20 and len(kept["visits"]) > 20
