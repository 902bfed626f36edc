"""Processing in a child process: it turns acknowledged reads into events when woken, and
it never outlives its parent's pipe."""

import asyncio

from sqlalchemy import func, select

from tagtrack.models import PendingRead
from tagtrack.processing.process import ProcessingProcess
from tests.tracking import Floor, epc, iso


async def pending(floor: Floor) -> int:
    async with floor.sessionmaker() as session:
        stmt = (
            select(func.count()).select_from(PendingRead).where(PendingRead.org_id == floor.org_id)
        )
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
        for _ in range(300):
            if await pending(floor) == 0:
                break
            await asyncio.sleep(0.1)
        [event] = await floor.events(tag)
        assert event.repeat_count == 5
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
