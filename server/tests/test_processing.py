"""Processing rules (DESIGN section 6) with reads at controlled times, through the ingest API."""

import asyncio

from sqlalchemy import func, select, text

from tagtrack.core.config import Settings
from tagtrack.mail.sender import OutboxSender
from tagtrack.models import PendingReadBatch, SiteSettings, Thing
from tagtrack.models.ids import UNKNOWN_THING_ID
from tests.mailbox import smtp_server
from tests.tracking import Floor, at, epc

HOUR = 3600
NS = 1_000_000_000


async def test_reads_fold_while_the_gap_stays_under_the_window(floor: Floor) -> None:
    dock = await floor.endpoint("Dock")
    tag = epc()
    await floor.thing("Pallet jack", tag)
    for second in (0, 30, 80):
        await floor.read(dock, tag, second, antenna=1)
    [event] = await floor.events(tag)
    assert (event.first_time, event.time, event.repeat_count) == (at(0), at(80), 3)
    # A gap longer than the 60 s window starts a new event.
    await floor.read(dock, tag, 200, antenna=1)
    events = await floor.events(tag)
    assert [(e.first_time, e.repeat_count) for e in events] == [(at(0), 3), (at(200), 1)]


async def test_another_antenna_or_endpoint_starts_a_new_event(floor: Floor) -> None:
    dock, gate = await floor.endpoint("Dock"), await floor.endpoint("Gate")
    tag = epc()
    await floor.thing("Drill", tag)
    await floor.read(dock, tag, 0, antenna=1)
    await floor.read(dock, tag, 5, antenna=2)
    await floor.read(gate, tag, 10, antenna=1)
    await floor.read(dock, tag, 15, antenna=1)
    events = await floor.events(tag)
    assert sorted((e.endpoint_id == dock.id, e.antenna, e.repeat_count) for e in events) == [
        (False, 1, 1),
        (True, 1, 2),
        (True, 2, 1),
    ]


async def test_in_and_out_gates_move_things_and_record_visits(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    store = await floor.zone("Store", gates=[(door, "IN", 1), (door, "OUT", 2)])
    tag = epc()
    thing = await floor.thing("Generator", tag)
    await floor.read(door, tag, 0, antenna=1)
    state = await floor.state(thing)
    assert (state.zone_id, state.last_zone_time, state.direction) == (store.id, at(0), "IN")
    await floor.read(door, tag, 600, antenna=2)
    state = await floor.state(thing)
    assert (state.zone_id, state.last_zone_time, state.direction) == (None, at(600), "OUT")
    [visit] = await floor.visits(thing)
    assert (visit.time_start, visit.time_end, visit.time_duration) == (at(0), at(600), 600 * NS)


async def test_near_enters_gone_leaves_and_all_antennas_match(floor: Floor) -> None:
    portal, exit_reader = await floor.endpoint("Portal"), await floor.endpoint("Exit")
    bay = await floor.zone("Bay", gates=[(portal, "NEAR", -1), (exit_reader, "GONE", -1)])
    tag = epc()
    thing = await floor.thing("Forklift", tag)
    await floor.read(portal, tag, 0, antenna=7)
    assert (await floor.state(thing)).zone_id == bay.id
    await floor.read(exit_reader, tag, 100, antenna=3)
    assert (await floor.state(thing)).zone_id is None


async def test_zone_change_closes_the_visit_and_opens_the_next(floor: Floor) -> None:
    a, b = await floor.endpoint("A"), await floor.endpoint("B")
    zone_a = await floor.zone("Zone A", gates=[(a, "IN", -1)])
    zone_b = await floor.zone("Zone B", gates=[(b, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Crate", tag)
    await floor.read(a, tag, 0)
    await floor.read(a, tag, 300)  # still in A: no new visit
    await floor.read(b, tag, 900)
    visits = await floor.visits(thing)
    assert [(v.zone_id, v.time_start, v.time_end, v.time_duration) for v in visits] == [
        (zone_a.id, at(0), at(900), 900 * NS),
        (zone_b.id, at(900), None, 0),
    ]


async def test_a_read_matching_no_gate_keeps_the_zone(floor: Floor) -> None:
    door, roaming = await floor.endpoint("Door"), await floor.endpoint("Roaming", xy=[4, 9])
    store = await floor.zone("Store", gates=[(door, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Ladder", tag)
    await floor.read(door, tag, 0)
    await floor.read(roaming, tag, 100)
    state = await floor.state(thing)
    assert (state.zone_id, state.endpoint_id, state.last_endpoint_time) == (
        store.id,
        roaming.id,
        at(100),
    )
    assert state.xy == [4, 9]


async def test_handheld_at_a_location_tag_places_the_next_reads(floor: Floor) -> None:
    handheld, aisle, shelf = await floor.handheld_at_a_shelf()
    tag = epc()
    thing = await floor.thing("Torque wrench", tag)
    await floor.read(handheld, shelf.tag, 0)
    await floor.read(handheld, tag, 20)
    state = await floor.state(thing)
    assert (state.zone_id, state.location_tag_id, state.xy) == (aisle.id, shelf.id, [12.5, 40])
    [event] = await floor.events(tag)
    assert (event.zone_id, event.location_tag_id) == (aisle.id, shelf.id)
    assert await floor.events(shelf.tag) == []  # a location tag is not a thing
    # After 60 s the handheld no longer stands there.
    other = await floor.thing("Multimeter", epc())
    await floor.read(handheld, other.tag1, 90)
    assert (await floor.state(other)).zone_id is None


async def test_unknown_tags_go_to_the_placeholder(floor: Floor) -> None:
    dock = await floor.endpoint("Dock")
    tag = epc()
    await floor.read(dock, tag, 0)
    [event] = await floor.events(tag)
    assert event.thing_id == UNKNOWN_THING_ID


async def test_auto_enrol_creates_an_item_with_and_without_location(floor: Floor) -> None:
    plain = await floor.endpoint("Enrol", auto_enroll=True)
    placed = await floor.endpoint(
        "Enrol here", auto_enroll=True, auto_enroll_location=True, xy=[7, 3], map_id="m" * 24
    )
    first, second = epc(), epc()
    await floor.read(plain, first, 0)
    await floor.read(placed, second, 0)
    for tag, xy in ((first, [0, 0]), (second, [7, 3])):
        [event] = await floor.events(tag)
        assert event.thing_id != UNKNOWN_THING_ID
        async with floor.sessionmaker() as session:
            thing = await session.get(Thing, {"org_id": floor.org_id, "id": event.thing_id})
        assert thing is not None
        assert (thing.name, thing.tag1, thing.thing_class, thing.xy) == (tag, tag, "item", xy)


async def test_kill_delay_takes_things_out_after_the_delay(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    yard = await floor.zone("Yard", gates=[(door, "IN", -1)], kill_duration=1.0)
    tag = epc()
    thing = await floor.thing("Trailer", tag)
    await floor.read(door, tag, 0)
    await floor.read(door, tag, 600)  # read again inside: the delay counts from here
    await floor.sweep(600 + HOUR - 1)
    assert (await floor.state(thing)).zone_id == yard.id
    await floor.sweep(600 + HOUR + 1)
    state = await floor.state(thing)
    assert state.zone_id is None
    assert state.endpoint_id == door.id  # the zone kill mode leaves the rest
    [visit] = await floor.visits(thing)
    assert (visit.time_end, visit.time_duration) == (at(600 + HOUR), (600 + HOUR) * NS)


async def test_kill_mode_site_clears_endpoint_and_location(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    await floor.zone("Yard", gates=[(door, "IN", -1)], kill_duration=0.5, kill_mode="site")
    tag = epc()
    thing = await floor.thing("Container", tag)
    await floor.read(door, tag, 0)
    await floor.sweep(HOUR)
    state = await floor.state(thing)
    assert (state.zone_id, state.endpoint_id, state.location_tag_id) == (None, None, None)


async def test_immediate_kill_leaves_on_the_first_out_read(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    gates = [(door, "IN", 1), (door, "OUT", 2)]
    slow = await floor.zone("Slow", gates=gates, kill_duration=2.0)
    tag = epc()
    thing = await floor.thing("Cart", tag)
    await floor.read(door, tag, 0, antenna=1)
    await floor.read(door, tag, 100, antenna=2)
    # Without immediate kill, an OUT read waits for the delay.
    assert (await floor.state(thing)).zone_id == slow.id

    other_door = await floor.endpoint("Fast door")
    fast_gates = [(other_door, "IN", 1), (other_door, "OUT", 2)]
    await floor.zone("Fast", gates=fast_gates, kill_duration=2.0, immediate_kill=True)
    fast_tag = epc()
    fast_thing = await floor.thing("Fast cart", fast_tag)
    await floor.read(other_door, fast_tag, 0, antenna=1)
    await floor.read(other_door, fast_tag, 100, antenna=2)
    assert (await floor.state(fast_thing)).zone_id is None


async def test_out_of_order_reads_never_rewind_state_or_go_negative(floor: Floor) -> None:
    a, b = await floor.endpoint("A"), await floor.endpoint("B")
    zone_a = await floor.zone("Zone A", gates=[(a, "IN", -1)])
    await floor.zone("Zone B", gates=[(b, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Scanner", tag)
    await floor.read(a, tag, 100)
    await floor.read(b, tag, 50)  # older than what the state shows
    state = await floor.state(thing)
    assert (state.zone_id, state.last_event, state.endpoint_id) == (zone_a.id, at(100), a.id)
    assert all(v.time_duration >= 0 for v in await floor.visits(thing))
    assert len(await floor.events(tag)) == 2  # history keeps both


async def test_one_batch_out_of_order_is_applied_in_time_order(floor: Floor) -> None:
    a, b = await floor.endpoint("A"), await floor.endpoint("B")
    await floor.zone("Zone A", gates=[(a, "IN", -1)])
    zone_b = await floor.zone("Zone B", gates=[(b, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Hoist", tag)
    late = {"reads": [{"tag": tag, "time": at(500).isoformat()}]}
    early = {"reads": [{"tag": tag, "time": at(10).isoformat()}]}
    assert (await floor.post(b, late)).status_code == 202
    assert (await floor.post(a, early)).status_code == 202
    await floor.drain()
    state = await floor.state(thing)
    assert (state.zone_id, state.last_zone_time) == (zone_b.id, at(500))
    visits = await floor.visits(thing)
    assert [(v.time_start, v.time_duration) for v in visits] == [(at(10), 490 * NS), (at(500), 0)]


async def test_tamper_sets_the_alarm(floor: Floor) -> None:
    dock = await floor.endpoint("Dock")
    tag = epc()
    thing = await floor.thing("Safe", tag)
    await floor.read(dock, tag, 0, tamper=True, data={"cFloat0": 21.5})
    state = await floor.state(thing)
    assert (state.alarm_tamper, state.alarm_tamper_tag, state.alarm_tamper_time) == (
        True,
        tag,
        at(0),
    )
    [event] = await floor.events(tag)
    assert event.alarm_tamper and event.data == {"cFloat0": 21.5}
    assert state.data == {"cFloat0": 21.5}
    await floor.read(dock, tag, 300, data={"cFloat0": 19.0})
    await floor.read(dock, tag, 100, data={"cFloat0": 30.0})  # older: not the latest value
    assert (await floor.state(thing)).data == {"cFloat0": 19.0}


async def test_dwell_exception_is_raised_once_and_mailed(floor: Floor) -> None:
    door = await floor.endpoint("Door")
    quarantine = await floor.zone(
        "Quarantine",
        gates=[(door, "IN", -1)],
        duration=5 * 60 * NS,
        emails=["safety@example.com", "ops@example.com"],
    )
    tag = epc()
    thing = await floor.thing("Chemical drum", tag)
    await floor.read(door, tag, 0)
    assert (await floor.sweep(299)).exceptions == 0
    with smtp_server() as (mailbox, url):
        sender = OutboxSender(
            floor.sessionmaker, Settings(smtp_url=url, data_dir=floor.settings.data_dir)
        )
        outcome = await floor.sweep(301)
        again = await floor.sweep(900)
        assert await sender.deliver_due(floor.org_id) == 1
    assert (outcome.exceptions, again.exceptions) == (1, 0)
    [exception] = await floor.exceptions()
    assert (exception.type, exception.thing_id, exception.zone_id) == (
        "zoneTimeException",
        thing.id,
        quarantine.id,
    )
    assert exception.message.endswith("> 5 minute(s)")
    [mail] = mailbox.to("safety@example.com")
    assert "ops@example.com" in str(mail["To"])
    assert "Chemical drum" in str(mail["Subject"])


async def test_a_repeated_batch_id_counts_once(floor: Floor) -> None:
    dock = await floor.endpoint("Dock")
    tag = epc()
    body = {
        "batchId": "dock-0001",
        "reads": [{"tag": tag, "time": at(s).isoformat()} for s in (0, 1, 2)],
    }
    first = await floor.post(dock, body)
    second = await floor.post(dock, body)
    assert first.status_code == second.status_code == 202
    assert first.json() == {"accepted": 3, "duplicate": False}
    assert second.json() == {"accepted": 3, "duplicate": True}
    await floor.drain()
    [event] = await floor.events(tag)
    assert event.repeat_count == 3


async def test_concurrent_batches_from_many_readers_are_all_counted(floor: Floor) -> None:
    readers = [await floor.endpoint(f"Reader {n}") for n in range(6)]
    zones = [await floor.zone(f"Zone {n}", gates=[(r, "IN", -1)]) for n, r in enumerate(readers)]
    things = [await floor.thing(f"Tote {n}", epc()) for n in range(20)]

    async def feed(reader_index: int) -> None:
        reads = [
            {"tag": t.tag1, "time": at(reader_index * 1000 + n).isoformat()}
            for n, t in enumerate(things)
        ]
        response = await floor.post(readers[reader_index], {"reads": reads})
        assert response.status_code == 202

    await asyncio.gather(*(feed(i) for i in range(len(readers))))
    await asyncio.gather(floor.drain(), floor.drain(), floor.drain())
    for thing in things:
        state = await floor.state(thing)
        assert state.zone_id == zones[-1].id  # the reader that read last in time
        visits = await floor.visits(thing)
        assert len(visits) == len(readers)
        assert [v.time_end for v in visits].count(None) == 1
        assert sum(e.repeat_count for e in await floor.events(thing.tag1)) == len(readers)


async def test_a_read_that_cannot_be_stored_is_set_aside_and_the_rest_go_on(
    floor: Floor,
) -> None:
    dock = await floor.endpoint("Dock")
    good, bad = epc(), epc()
    await floor.thing("Good", good)
    await floor.thing("Bad", bad)
    # A constraint standing in for any value the database refuses.
    async with floor.sessionmaker() as session, session.begin():
        await session.execute(
            text(f"ALTER TABLE events ADD CONSTRAINT refuse_tag CHECK (tag <> '{bad}')")
        )
    try:
        reads = [{"tag": t, "time": at(n).isoformat()} for n, t in enumerate((good, bad, good))]
        assert (await floor.post(dock, {"reads": reads})).status_code == 202
        await floor.drain()
    finally:
        async with floor.sessionmaker() as session, session.begin():
            await session.execute(text("ALTER TABLE events DROP CONSTRAINT refuse_tag"))
    [event] = await floor.events(good)
    assert event.repeat_count == 2
    assert await floor.events(bad) == []
    [exception] = await floor.exceptions()
    assert exception.type == "processException" and bad in exception.message
    async with floor.sessionmaker() as session:
        left = select(func.count()).where(PendingReadBatch.endpoint_id == dock.id)
        assert await session.scalar(left) == 0


async def test_durations_stay_within_range_for_absurd_clocks(floor: Floor) -> None:
    a, b = await floor.endpoint("A"), await floor.endpoint("B")
    await floor.zone("Zone A", gates=[(a, "IN", -1)])
    await floor.zone("Zone B", gates=[(b, "IN", -1)])
    tag = epc()
    thing = await floor.thing("Clockless", tag)
    body = {"reads": [{"tag": tag, "time": "0001-01-02T00:00:00Z"}]}
    assert (await floor.post(a, body)).status_code == 202
    await floor.drain()
    await floor.read(b, tag, 0)
    first, _ = await floor.visits(thing)
    assert first.time_duration == 2**63 - 1


async def test_a_site_tag_prefix_matches_things_stored_without_it(floor: Floor) -> None:
    dock = await floor.endpoint("Dock")
    async with floor.sessionmaker() as session, session.begin():
        await session.merge(
            SiteSettings(
                site_id=floor.site_id, org_id=floor.org_id, settings={"orgTagPrefix": "3034"}
            )
        )
    short = epc()[:16]
    thing = await floor.thing("Prefixed", short)
    await floor.read(dock, "3034" + short, 0)
    [event] = await floor.events("3034" + short)
    assert event.thing_id == thing.id
