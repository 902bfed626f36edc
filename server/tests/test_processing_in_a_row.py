"""Batches in a row (processing.worker): the next batch is loaded in a batch's transaction
and applied while that batch is written, then taken off the queue by its own transaction.
It gives the history batches one after another give, and never works from rows that
someone else changed in between."""

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any
from unittest import mock

import httpx
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.models import ThingTag
from tagtrack.processing.service import AppliedBatch, BatchProcessor, ProcessingService
from tagtrack.processing.worker import ProcessingWorker
from tests.test_processing_state import _floor_with_reads, _history
from tests.tracking import Floor, at, epc, iso


class Row:
    """What a worker's batches did: the reads of each batch loaded, and the batches adopted
    (loaded ahead, applied while the one before was written)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.adopted = 0
        # Run in the gap between a batch's commit and the adoption of the next.
        self.between: Callable[[], Awaitable[None]] | None = None
        self.after: Callable[[], Awaitable[None]] | None = None


@contextmanager
def watched() -> Iterator[Row]:
    """Each batch's writes wait until the next batch is loaded, as under load, where the
    writes take longer: the next batch never sees them."""
    row = Row()
    load, adopt = BatchProcessor.load, ProcessingService.adopt
    load_following, write = ProcessingService.load_following, ProcessingWorker.write
    loaded = asyncio.Event()

    async def following_loaded(service: ProcessingService, batch: AppliedBatch, limit: int) -> Any:
        try:
            return await load_following(service, batch, limit)
        finally:
            loaded.set()

    async def held_write(session: AsyncSession, service: ProcessingService, batch: Any) -> Any:
        await asyncio.wait_for(loaded.wait(), 10)
        loaded.clear()
        return await write(session, service, batch)

    async def loading(processor: BatchProcessor, reads: Any) -> Any:
        row.sizes.append(len(reads))
        return await load(processor, reads)

    async def adopting(service: ProcessingService, batch: AppliedBatch) -> bool:
        if row.between is not None:
            await row.between()
        adopted = await adopt(service, batch)
        row.adopted += adopted
        if adopted and row.after is not None:
            await row.after()
        return adopted

    with (
        mock.patch.object(BatchProcessor, "load", loading),
        mock.patch.object(ProcessingService, "adopt", adopting),
        mock.patch.object(ProcessingService, "load_following", following_loaded),
        mock.patch.object(ProcessingWorker, "write", staticmethod(held_write)),
    ):
        yield row


def worker(floor: Floor, batch_reads: int) -> ProcessingWorker:
    floor.worker = ProcessingWorker(floor.sessionmaker, floor.settings)
    floor.worker.batch_reads = batch_reads
    return floor.worker


async def _one_after_another(floor: Floor, sizes: list[int]) -> None:
    """The same batches, each in a transaction of its own started after the last commit,
    from the database."""
    for size in sizes:
        async with floor.sessionmaker() as session, session.begin():
            outcome = await ProcessingService(session, floor.settings).process_pending(
                floor.org_id, size
            )
        assert outcome.processed == size


async def test_batches_in_a_row_make_the_history_batches_one_after_another_make(
    org_factory: Callable[[], Awaitable[Any]],
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> None:
    for seed in (4, 5, 6):
        org = await org_factory()
        floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
        labels = await _floor_with_reads(floor, seed)
        with watched() as row:
            assert await worker(floor, 37).drain() == 600
        in_a_row = await _history(floor, labels)
        # Whole requests of 20 reads: 37 reads are 40.
        assert sum(row.sizes) == 600 and set(row.sizes) == {40}
        assert row.adopted >= len(row.sizes) // 2

        org = await org_factory()
        floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
        labels = await _floor_with_reads(floor, seed)
        await _one_after_another(floor, row.sizes)
        assert await _history(floor, labels) == in_a_row
        assert len(in_a_row["events"]) > 20 and len(in_a_row["visits"]) > 20


async def test_reads_processed_elsewhere_before_adoption_are_not_processed_twice(
    floor: Floor,
) -> None:
    door = await floor.endpoint("Door")
    store = await floor.zone("Store", gates=[(door, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Trolley", tag)
    for seconds in (0, 10, 20):
        await floor.queue(door, [{"tag": tag, "time": iso(seconds)}])
    other = ProcessingWorker(floor.sessionmaker, floor.settings)
    with watched() as row:
        # Between the first batch's commit and the second's adoption, another worker
        # processes every read left, the second batch's included.
        row.between = other.drain
        await worker(floor, 1).drain()
    assert row.adopted == 0 and row.sizes == [1, 1, 2]
    [event] = await floor.events(tag)
    assert (event.first_time, event.time, event.repeat_count) == (at(0), at(20), 3)
    # The rows the first batch left were not kept: the next read starts from the database.
    await floor.read(door, tag, 30)
    [event] = await floor.events(tag)
    assert (event.time, event.repeat_count) == (at(30), 4)
    state = await floor.state(thing)
    assert (state.zone_id, state.last_event, state.last_zone_read) == (store.id, at(30), at(30))


async def test_an_edit_after_adoption_sends_the_batch_back_to_the_database(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    await floor.zone("Store", gates=[(door, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Ladder", tag)
    await floor.queue(door, [{"tag": tag, "time": iso(0), "tamper": True}])
    await floor.queue(door, [{"tag": tag, "time": iso(10)}])

    with watched() as row:
        row.after = partial(floor.clear_alarm, thing)
        assert await worker(floor, 1).drain() == 2
    # Adopted, found the thing changed, rolled back, then processed again from the database.
    assert row.adopted == 1 and row.sizes == [1, 1, 1]
    state = await floor.state(thing)
    assert (state.alarm_tamper, state.last_event) == (False, at(10))
    [event] = await floor.events(tag)
    assert (event.time, event.repeat_count, event.alarm_tamper) == (at(10), 2, True)


async def test_a_thing_enrolled_by_a_batch_is_found_by_the_next_loaded_ahead(
    floor: Floor,
) -> None:
    enrol = await floor.endpoint("Enrol", auto_enroll=True)
    tag = epc()
    for seconds in (0, 10, 20):
        await floor.queue(enrol, [{"tag": tag, "time": iso(seconds)}])
    with watched() as row:
        await worker(floor, 1).drain()
    assert row.adopted == 2
    async with floor.sessionmaker() as session:
        tags = select(func.count()).where(ThingTag.org_id == floor.org_id, ThingTag.tag == tag)
        assert await session.scalar(tags) == 1
    [event] = await floor.events(tag)
    assert (event.time, event.repeat_count) == (at(20), 3)


async def test_a_location_tag_read_waits_for_the_batch_before_it(floor: Floor) -> None:
    handheld, aisle, shelf = await floor.handheld_at_a_shelf()
    tag = epc()
    thing = await floor.thing("Torque wrench", tag)
    await floor.queue(handheld, [{"tag": tag, "time": iso(0)}])
    # Past the repeat window: the read there makes an event of its own.
    await floor.queue(handheld, [{"tag": shelf.tag, "time": iso(300)}])
    await floor.queue(handheld, [{"tag": tag, "time": iso(320)}])
    with watched() as row:
        await worker(floor, 1).drain()
    # A location tag moves its endpoint: its batch was loaded ahead, then again once the
    # first had committed; and the batch after it was loaded once it had committed.
    assert row.sizes == [1, 1, 1, 1] and row.adopted == 0
    state = await floor.state(thing)
    assert (state.zone_id, state.location_tag_id, state.xy) == (aisle.id, shelf.id, [12.5, 40])
    events = await floor.events(tag)
    assert [(e.time, e.zone_id, e.location_tag_id) for e in events] == [
        (at(0), None, None),
        (at(320), aisle.id, shelf.id),
    ]


async def test_a_row_gives_way_after_four_batches_to_organizations_waiting(
    org_factory: Callable[[], Awaitable[Any]],
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> None:
    floors = []
    for _ in range(2):
        org = await org_factory()
        floors.append(Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous))
    busy, waiting = floors
    busy_reader, waiting_reader = await busy.endpoint("Dock"), await waiting.endpoint("Gate")
    tag = epc()
    for seconds in range(8):
        await busy.queue(busy_reader, [{"tag": tag, "time": iso(seconds)}])
    other = epc()
    await waiting.queue(waiting_reader, [{"tag": other, "time": iso(0)}])
    orgs: list[str] = []
    load = BatchProcessor.load

    async def loading(processor: BatchProcessor, reads: Any) -> Any:
        orgs.append(processor.org_id)
        return await load(processor, reads)

    with mock.patch.object(BatchProcessor, "load", loading):
        outcome = await worker(busy, 1).process(busy.org_id)
    # The first batch of the row and three loaded ahead, then the row gives way.
    assert outcome.processed == 4 and orgs == [busy.org_id] * 4
    assert await busy.drain() == 5
    [event] = await busy.events(tag)
    assert event.repeat_count == 8
    [read_there] = await waiting.events(other)
    assert read_there.repeat_count == 1


async def test_partitions_are_looked_after_between_the_batches_of_a_row(floor: Floor) -> None:
    """A new month's partition needs fresh statistics within a second of filling, however
    long a row of batches runs."""
    dock = await floor.endpoint("Dock")
    tag = epc()
    for seconds in range(3):
        await floor.queue(dock, [{"tag": tag, "time": iso(seconds)}])
    busy = worker(floor, 1)
    looked = 0

    async def upkeep() -> None:
        nonlocal looked
        looked += 1

    with watched() as row, mock.patch.object(busy, "partition_upkeep", upkeep):
        outcome = await busy.process(floor.org_id)
    assert outcome.processed == 3 and row.adopted == 2
    assert looked == 3  # after each batch of the row
