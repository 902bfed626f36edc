"""Processing in a child process: it turns acknowledged reads into events when woken, and
it never outlives its parent's pipe."""

import asyncio
import signal

from sqlalchemy import func, select

from tagtrack.models import EventCount, PendingReadBatch
from tagtrack.processing.process import ProcessingProcess
from tagtrack.processing.service import BATCH_READS
from tests.tracking import Floor, epc, iso
from tests.waiting import until


async def pending(floor: Floor) -> int:
    async with floor.sessionmaker() as session:
        reads = func.coalesce(func.sum(PendingReadBatch.reads), 0)
        stmt = select(reads).where(PendingReadBatch.org_id == floor.org_id)
        return int(await session.scalar(stmt) or 0)


async def test_the_child_processes_reads_and_stops_with_its_parent(
    database_url: str, floor: Floor
) -> None:
    dock = await floor.endpoint("Dock")
    bay = await floor.zone("Bay", gates=[(dock, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Cage", tag)
    child = ProcessingProcess(database_url, floor.settings.model_copy(update={"processing": True}))
    child.start()
    await child.ready()
    try:
        reads = [{"tag": tag, "time": iso(second), "antenna": 1} for second in range(5)]
        # No one tells the child: the NOTIFY of the ingest transaction wakes it.
        assert (await floor.post(dock, {"reads": reads})).status_code == 202

        # Until the five reads are one event (a busy machine may take a while).
        async def processed() -> bool:
            events = await floor.events(tag)
            return len(events) == 1 and events[0].repeat_count == 5

        await until(processed, 90)
        assert await pending(floor) == 0
        assert (await floor.state(thing)).zone_id == bay.id
    finally:
        process = child.process
        await child.stop()
    assert process is not None and process.returncode == 0


async def test_the_child_exits_when_its_parent_pipe_closes(database_url: str, floor: Floor) -> None:
    child = ProcessingProcess(database_url, floor.settings.model_copy(update={"processing": True}))
    child.start()
    process = child.process
    assert process is not None and process.stdin is not None
    # What the kernel does to the pipe when the parent dies, however it dies.
    process.stdin.close()
    returncode = await asyncio.to_thread(process.wait, 30)
    assert returncode == 0


async def test_a_read_posted_to_one_process_is_processed_at_once_by_anothers_worker(
    database_url: str, floor: Floor
) -> None:
    """This process serves HTTP without processing; the child processes. Only the NOTIFY
    sent in the ingest transaction links them, and it wakes the idle child well before its
    safety timeout."""
    dock = await floor.endpoint("Gate")
    await floor.zone("Yard", gates=[(dock, "IN", -1)])
    tag = epc()
    await floor.thing("Trailer", tag)
    # No sweep wakes the child meanwhile.
    update = {"processing": True, "sweep_interval_seconds": 3600}
    child = ProcessingProcess(database_url, floor.settings.model_copy(update=update))
    child.start()
    await child.ready()
    try:
        await asyncio.sleep(3)  # the child is listening and idle, its first drain done
        loop = asyncio.get_running_loop()
        posted = loop.time()
        reads = [{"tag": tag, "time": iso(0), "antenna": 1}]
        assert (await floor.post(dock, {"reads": reads})).status_code == 202
        while await pending(floor) > 0:
            assert loop.time() - posted < 10, "not processed within 10 s"
            await asyncio.sleep(0.05)
        assert len(await floor.events(tag)) == 1
    finally:
        await child.stop()


async def test_a_child_killed_in_the_middle_of_a_backlog_loses_and_doubles_nothing(
    database_url: str, floor: Floor
) -> None:
    """SIGKILL while batches are being applied, then a new child (as the parent's watch
    starts one): what the killed child had not committed is done again, from the state in
    the database, and what it had committed is not."""
    dock, bay = await floor.endpoint("Dock"), await floor.endpoint("Bay")
    dock_zone = await floor.zone("Dock zone", gates=[(dock, "IN", -1)])
    bay_zone = await floor.zone("Bay zone", gates=[(bay, "IN", -1)])
    tags = [epc() for _ in range(100)]
    things = [await floor.thing(f"Crate {n}", tag) for n, tag in enumerate(tags)]
    # At each reader, 0.15 s apart: one event each under the repeat window. Four batches in
    # all, so the kill comes seconds before the last commit, even on a fast machine.
    per_tag = 1000
    assert 2 * per_tag * len(tags) >= 4 * BATCH_READS
    for endpoint, start in ((dock, 0.0), (bay, 200.0)):
        reads = [
            {"tag": tag, "time": iso(start + n * 0.15), "antenna": 1}
            for n in range(per_tag)
            for tag in tags
        ]
        for first in range(0, len(reads), 5000):
            body = {"reads": reads[first : first + 5000]}
            assert (await floor.post(endpoint, body)).status_code == 202
    total = await pending(floor)
    assert total == 2 * per_tag * len(tags)
    # A sweep every second also drains: a new child may find the killed one's lock not yet
    # released by the database.
    update = {"processing": True, "sweep_interval_seconds": 1}
    child = ProcessingProcess(database_url, floor.settings.model_copy(update=update))
    child.start()
    await child.ready()
    try:
        for _ in range(1200):
            if await pending(floor) < total:
                break
            await asyncio.sleep(0.05)
        left = await pending(floor)
        assert 0 < left < total, "no batch was committed before the kill, or all were"
        process = child.process
        assert process is not None
        process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(process.wait)
        assert child.failure() is not None
        child.restart_if_gone()
        assert child.process is not process
        for _ in range(1200):
            if await pending(floor) == 0:
                break
            await asyncio.sleep(0.1)
        assert await pending(floor) == 0
    finally:
        await child.stop()
    for tag, thing in zip(tags, things, strict=True):
        events = sorted(await floor.events(tag), key=lambda e: e.time)
        assert [(e.endpoint_id, e.repeat_count) for e in events] == [
            (dock.id, per_tag),
            (bay.id, per_tag),
        ]
        visits = await floor.visits(thing)
        assert [(v.zone_id, v.time_start, v.time_end) for v in visits] == [
            (dock_zone.id, events[0].first_time, events[1].first_time),
            (bay_zone.id, events[1].first_time, None),
        ]
        state = await floor.state(thing)
        assert (state.zone_id, state.last_event) == (bay_zone.id, events[1].time)
    async with floor.sessionmaker() as session:
        counted = select(func.sum(EventCount.events)).where(EventCount.org_id == floor.org_id)
        assert await session.scalar(counted) == 2 * len(tags)
