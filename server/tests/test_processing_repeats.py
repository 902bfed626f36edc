"""The repeat short path of processing gives exactly what applying every read in full gives.

Random read sequences over a small floor (gates in and out, an external gate, a zone with a
kill delay, a site-kill zone, a handheld with a location tag, auto-enrolment, a site tag
prefix, unknown tags, stored events newer than the reads) are applied twice in memory: once
with repeats taking the short path, once with every read through the full rules. The things,
events, visits and endpoints must come out the same, field by field.
"""

import dataclasses
import itertools
from datetime import timedelta
from typing import Any, cast
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.config import Settings
from tagtrack.models import Endpoint, LocationTag, Zone, ZoneGate
from tagtrack.processing.repository import EventRow, ReadRow, ThingRow, VisitRow
from tagtrack.processing.service import BatchProcessor
from tests.tracking import T0

ORG, SITE = "0" * 23 + "1", "0" * 23 + "2"
TAGS = ["A1", "A2", "A3", "PXA4", "U1", "U2", "LOC1"]  # things, unknown, a location tag
THINGS = {"A1": "t1", "A2": "t2", "A3": "t3", "A4": "t4"}  # A4 is stored without the prefix
DIRECTIONS = ["", "", "", "IN", "OUT", "NEAR", "GONE"]


def zone(zone_id: str, **fields: Any) -> Zone:
    values = {"kill_duration": 0.0, "immediate_kill": False, "kill_mode": "zone"} | fields
    return Zone(id=zone_id, org_id=ORG, site_id=SITE, name=zone_id, duration=0, **values)


def endpoint(endpoint_id: str, **fields: Any) -> Endpoint:
    values = {
        "external_gate": False,
        "auto_enroll": False,
        "auto_enroll_location": False,
        "antennas": [],
        "map_id": "",
        "xy": [1.0, 2.0],
        "location_tag_id": None,
        "location_time": None,
    } | fields
    return Endpoint(id=endpoint_id, org_id=ORG, site_id=SITE, name=endpoint_id, **values)


def gate(endpoint_id: str, zone_id: str, direction: str, antenna: int) -> ZoneGate:
    return ZoneGate(
        org_id=ORG, zone_id=zone_id, endpoint_id=endpoint_id, direction=direction, antenna=antenna
    )


def thing(thing_id: str, zone_id: str | None, last: float | None) -> ThingRow:
    at = None if last is None else T0 + timedelta(seconds=last)
    return ThingRow(
        id=thing_id, org_id=ORG, site_id=SITE, zone_id=zone_id, last_event=at,
        last_endpoint_time=at, last_zone_time=at, last_zone_read=at if zone_id else None,
        endpoint_id=None, direction="", location_tag_id=None, xy=[0.0, 0.0], map_id="",
        alarm_tamper=False, alarm_tamper_tag="", alarm_tamper_time=None, data={},
    )  # fmt: skip


def processor(fold: bool, stored_event_at: float, prefix: bool) -> BatchProcessor:
    """The floor, built afresh for each run so the two runs share no objects."""
    settings = Settings(repeat_window_seconds=60, location_hold_seconds=60)
    batch = BatchProcessor(cast(AsyncSession, None), settings, ORG)
    batch.fold_repeats = fold
    zones = [
        zone("z-store"),  # in on antenna 1, out (at once) on antenna 2
        zone("z-bay", kill_duration=2.0),  # out only after the kill delay
        zone("z-site", immediate_kill=True, kill_mode="site"),
        zone("z-yard"),  # where the location tag puts a handheld
    ]
    batch.zones = {z.id: z for z in zones}
    endpoints = [
        endpoint("e-door"),
        endpoint("e-portal", external_gate=True),
        endpoint("e-plain", antennas=[{"xycoordinates": [5.0, 6.0], "map": "m1"}]),
        endpoint("e-enrol", auto_enroll=True, auto_enroll_location=True),
        endpoint("e-hand"),
    ]
    batch.endpoints = {e.id: e for e in endpoints}
    gates = [
        gate("e-door", "z-store", "IN", 1),
        gate("e-door", "z-store", "OUT", 2),
        gate("e-portal", "z-bay", "IN", -1),
        gate("e-enrol", "z-site", "NEAR", 0),
        gate("e-enrol", "z-site", "GONE", 1),
    ]
    batch.gates = {}
    for g in gates:
        batch.gates.setdefault(g.endpoint_id, []).append(g)
    location = LocationTag(
        id="l-1", org_id=ORG, site_id=SITE, name="Yard post", tag="LOC1", zone_id="z-yard",
        xy=[9.0, 9.0], map_id="m2",
    )  # fmt: skip
    batch.locations = {"LOC1": location}
    batch.locations_by_id = {"l-1": location}
    batch.prefixes = {SITE: "PX"} if prefix else {}
    batch.thing_ids = {tag: thing_id for tag, thing_id in THINGS.items()}
    batch.things = {
        "t1": thing("t1", "z-store", -30),
        "t2": thing("t2", None, None),
        "t3": thing("t3", "z-bay", 500),  # a stored state newer than every read
        "t4": thing("t4", None, -5),
    }
    start = T0 - timedelta(seconds=30)
    batch.visits = {
        "t1": VisitRow("v-1", ORG, SITE, "t1", "z-store", start, None, 0, stored=True),
        "t3": VisitRow("v-3", ORG, SITE, "t3", "z-bay", start, None, 0, stored=True),
    }
    stored_at = T0 + timedelta(seconds=stored_event_at)
    batch.latest = {
        ("e-door", 1, "A1"): EventRow(
            id="ev-1", org_id=ORG, site_id=SITE, endpoint_id="e-door", thing_id="t1", tag="A1",
            antenna=1, time=stored_at, first_time=stored_at - timedelta(seconds=10),
            repeat_count=3, direction="IN", zone_id="z-store", location_tag_id=None,
            alarm_tamper=False, rssi=None, data={}, stored=True,
        )
    }  # fmt: skip
    return batch


read_strategy = st.tuples(
    st.sampled_from(["e-door", "e-portal", "e-plain", "e-enrol", "e-hand"]),
    st.integers(0, 2),  # antenna
    st.sampled_from(TAGS),
    st.integers(-20, 400),  # seconds from T0, in quarter seconds below
    st.sampled_from(DIRECTIONS),
    st.integers(0, 30),  # 0: tamper, 1: sensor data, 2: a manual read naming a zone
)


def reads_from(drawn: list[tuple[str, int, str, int, str, int]]) -> list[ReadRow]:
    reads = []
    for n, (endpoint_id, antenna, tag, quarter, direction, odd) in enumerate(drawn):
        reads.append(
            ReadRow(
                id=n + 1,
                endpoint_id=endpoint_id,
                tag=tag,
                antenna=antenna,
                time=T0 + timedelta(seconds=quarter / 4),
                rssi=-50.0 - n % 7,
                direction=direction,
                tamper=odd == 0,
                data={"cFloat0": float(n)} if odd == 1 else {},
                zone_id="z-yard" if odd == 2 else None,
            )
        )
    return reads


def snapshot(batch: BatchProcessor) -> dict[str, Any]:
    def rows(values: Any) -> dict[str, dict[str, Any]]:
        return {row.id: dataclasses.asdict(row) for row in values}

    return {
        "things": rows(batch.things.values()),
        "events": rows(batch.changed_events.values()),
        "visits": rows(batch.changed_visits.values()),
        "open": {thing_id: visit.id for thing_id, visit in batch.visits.items()},
        "endpoints": {e.id: (e.location_tag_id, e.location_time) for e in batch.endpoints.values()},
        "enrolled": dict(batch.enrolled),
        "outcome": (batch.outcome.processed, batch.outcome.events_created),
    }


def run(reads: list[ReadRow], fold: bool, stored_event_at: float, prefix: bool) -> Any:
    counter = itertools.count()
    # Deterministic ids, so the two runs name their new rows alike.
    with mock.patch("tagtrack.processing.service.new_id", lambda: f"id-{next(counter):06d}"):
        batch = processor(fold, stored_event_at, prefix)
        ordered = sorted(reads, key=lambda r: (r.time, r.id))
        batch.apply_all(ordered)
    return snapshot(batch)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    # Runs of one key, as readers send them, mixed with random reads.
    st.lists(
        # A run: its first read, its length and the gap between its reads (quarter seconds,
        # some past the 60 s window).
        st.tuples(
            read_strategy, st.integers(1, 30), st.one_of(st.integers(0, 8), st.integers(200, 280))
        ),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from([-100.0, 5.0, 300.0]),
    st.booleans(),
)
def test_repeats_on_the_short_path_equal_every_read_in_full(
    runs: list[tuple[tuple[str, int, str, int, str, int], int, int]],
    stored_event_at: float,
    prefix: bool,
) -> None:
    drawn = []
    for (endpoint_id, antenna, tag, quarter, direction, odd), length, gap in runs:
        for n in range(length):
            extra = odd if n == 0 else (odd if n % 11 == 7 else 5)
            drawn.append((endpoint_id, antenna, tag, quarter + n * gap, direction, extra))
    reads = reads_from(drawn)
    full = run(reads, False, stored_event_at, prefix)
    short = run(reads, True, stored_event_at, prefix)
    assert short == full


def test_a_plain_run_of_repeats_takes_the_short_path() -> None:
    """The property above holds trivially if nothing takes the short path; this one does."""
    reads = reads_from([("e-door", 1, "A2", n * 4, "", 5) for n in range(50)])
    batch = processor(True, -100.0, False)
    taken = 0
    original = batch.apply

    def counted(read: Any) -> None:
        nonlocal taken
        taken += 1
        original(read)

    batch.apply = counted  # type: ignore[method-assign]
    batch.apply_all(reads)
    assert taken == 1
    [event] = batch.changed_events.values()
    assert (event.repeat_count, event.time) == (50, T0 + timedelta(seconds=49))
    assert batch.things["t2"].zone_id == "z-store"
    assert batch.things["t2"].last_zone_read == T0 + timedelta(seconds=49)
