"""Processing in large batches: thousands of reads folded, placed and written in bulk."""

from typing import Any

from sqlalchemy import func, select

from tagtrack.models import Event, PendingReadBatch, Thing, ThingTag
from tests.tracking import Floor, at, epc, iso


async def test_a_large_backlog_folds_repeats_and_moves_things_once(floor: Floor) -> None:
    dock, gate = await floor.endpoint("Dock"), await floor.endpoint("Gate")
    bay = await floor.zone("Bay", gates=[(dock, "IN", -1)])
    yard = await floor.zone("Yard", gates=[(gate, "IN", -1)])
    tags = [epc() for _ in range(40)]
    things = [await floor.thing(f"Crate {n}", tag) for n, tag in enumerate(tags)]
    # 40 tags read every second for 300 s at the dock (12,000 reads, more than one batch
    # of the worker), then each once at the gate: 300 repeats fold into one event a tag.
    reads = [
        {"tag": tag, "time": iso(second + n / 100), "antenna": 1}
        for second in range(300)
        for n, tag in enumerate(tags)
    ]
    for start in range(0, len(reads), 4000):
        response = await floor.post(dock, {"reads": reads[start : start + 4000]})
        assert response.status_code == 202, response.text
    late = [{"tag": tag, "time": iso(400 + n / 100)} for n, tag in enumerate(tags)]
    assert (await floor.post(gate, {"reads": late})).status_code == 202
    assert await floor.drain() == len(reads) + len(late)

    for n, (tag, thing) in enumerate(zip(tags, things, strict=True)):
        at_dock, at_gate = await floor.events(tag)
        assert (at_dock.first_time, at_dock.time) == (at(n / 100), at(299 + n / 100))
        assert (at_dock.repeat_count, at_dock.zone_id) == (300, bay.id)
        assert (at_gate.repeat_count, at_gate.zone_id) == (1, yard.id)
        state = await floor.state(thing)
        assert (state.zone_id, state.endpoint_id, state.last_event) == (
            yard.id,
            gate.id,
            at(400 + n / 100),
        )
        in_bay, in_yard = await floor.visits(thing)
        assert (in_bay.zone_id, in_bay.time_start, in_bay.time_end) == (
            bay.id,
            at(n / 100),
            at(400 + n / 100),
        )
        assert (in_yard.zone_id, in_yard.time_end) == (yard.id, None)
    async with floor.sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(PendingReadBatch)) == 0


async def test_many_unknown_tags_are_enrolled_in_one_batch(floor: Floor) -> None:
    enrol = await floor.endpoint("Enrol", auto_enroll=True)
    tags = [epc() for _ in range(300)]
    # Each new tag twice in the batch: the second read folds into the new thing's event.
    reads = [{"tag": tag, "time": iso(second)} for second in (0, 10) for tag in tags]
    assert (await floor.post(enrol, {"reads": reads})).status_code == 202
    await floor.drain()
    async with floor.sessionmaker() as session:
        enrolled = select(func.count()).where(Thing.org_id == floor.org_id, Thing.name.in_(tags))
        assert await session.scalar(enrolled) == len(tags)
        tagged = select(func.count()).where(ThingTag.org_id == floor.org_id, ThingTag.tag.in_(tags))
        assert await session.scalar(tagged) == len(tags)
        events = (
            await session.execute(
                select(Event.repeat_count, Thing.tag1, Thing.last_event)
                .join(Thing, Thing.id == Event.thing_id)
                .where(Event.org_id == floor.org_id)
            )
        ).all()
    assert sorted(t for _, t, _ in events) == sorted(tags)
    assert {(count, last) for count, _, last in events} == {(2, at(10))}


async def test_zone_durations_list_closed_and_open_visits_with_names(
    org_factory: Any, floor: Floor
) -> None:
    org = await org_factory()
    mine = Floor(org.id, org.site_ids[0], floor.sessionmaker, floor.settings, floor.client)
    dock, gate = await mine.endpoint("Dock"), await mine.endpoint("Gate")
    bay = await mine.zone("Bay", gates=[(dock, "IN", -1)])
    yard = await mine.zone("Yard", gates=[(gate, "IN", -1)])
    tag = epc()
    thing = await mine.thing("Pallet 7", tag)
    await mine.read(dock, tag, 0)
    await mine.read(gate, tag, 90)
    response = await org.client("Viewer").get("/api/zonedurations", params={"thing": thing.id})
    assert response.status_code == 200 and response.headers["x-total-count"] == "2"
    open_visit, closed = response.json()  # newest first
    assert (closed["zone"], closed["zoneName"], closed["thingName"]) == (
        bay.id,
        bay.name,
        "Pallet 7",
    )
    assert (closed["timeEnd"], closed["timeDuration"]) == (iso(90), 90 * 1_000_000_000)
    assert (open_visit["zone"], open_visit["zoneName"]) == (yard.id, yard.name)
    assert open_visit["timeEnd"].startswith("0001-01-01") and open_visit["timeDuration"] > 0
    assert open_visit["site"] == org.site_ids[0] and open_visit["thing"] == thing.id
