"""The typed fast path (ingest/fast.py) reads every body exactly as the careful rules do:
the same reads, batch id and heartbeats, or the same refusal, word for word."""

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tagtrack.ingest.fast import fast_payload
from tagtrack.ingest.formats import (
    PayloadError,
    Read,
    _documents,
    parse_carefully,
    parse_payload,
)
from tests.reader_bodies import bodies
from tests.test_ingest_formats import FIXTURE_FILES, ODD_VALUES, RECEIVED, SAMPLES, scramble

Outcome = tuple[Any, ...]


def outcome(parse: Any, body: bytes) -> Outcome:
    try:
        payload = parse(body, received_at=RECEIVED)
    except PayloadError as error:
        return ("refused", str(error))
    fields = Read.__struct_fields__
    reads = [(*(getattr(read, f) for f in fields), read.time.tzinfo) for read in payload.reads]
    return ("read", payload.batch_id, reads, payload.heartbeats)


def assert_agree(body: bytes) -> Outcome:
    careful = outcome(parse_carefully, body)
    assert outcome(parse_payload, body) == careful, body[:300]
    return careful


def took_fast_path(body: bytes) -> bool:
    return fast_payload(_documents(body).values, RECEIVED) is not None


def dumps(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()  # integers of any size, too


def shapes(objects: list[object]) -> list[bytes]:
    """The same objects as one body each, an array and NDJSON."""
    return [
        *(dumps(o) for o in objects),
        dumps(objects),
        b"\r\n".join(dumps(o) for o in objects) + b"\n\n",
    ]


CORPUS = [*sorted(SAMPLES.iterdir()), *FIXTURE_FILES]


def objects_of(path: Path) -> list[object]:
    text = path.read_bytes()
    if path.suffix == ".ndjson":
        return [orjson.loads(line) for line in text.splitlines() if line.strip()]
    value = orjson.loads(text)
    return value if isinstance(value, list) else [value]


# --- examples -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(bodies(20)))
def test_every_common_format_takes_the_fast_path(name: str) -> None:
    body = bodies(20)[name]
    assert took_fast_path(body)
    kind, _batch, reads, _beats = assert_agree(body)
    assert kind == "read" and len(reads) == 20


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_the_samples_and_published_payloads_read_alike(path: Path) -> None:
    body = path.read_bytes()
    assert assert_agree(body)[0] == "read"
    for shaped in shapes(objects_of(path)):
        assert_agree(shaped)


def test_the_fast_path_leaves_what_it_cannot_read_alike() -> None:
    heartbeat = b'{"isHeartBeat": true, "firstSeenTimestamp": 1719835200000000}'
    mixed = orjson.dumps([{"tag": "AB"}, {"epc": "CD"}])
    other_event = b'{"timestamp": "2024-02-10T12:00:02Z", "antennaConnectedEvent": {"a": 1}}'
    tag_and_reads = b'[{"tag": "AB"}, {"tag": "CD", "reads": []}]'
    zebra_with_event = (
        b'{"data": {"idHex": "AB"}, "timestamp": "2024-01-01T00:00:00Z", "xEvent": {}}'
    )
    for body in (heartbeat, mixed, other_event, tag_and_reads, zebra_with_event):
        assert not took_fast_path(body)
        assert_agree(body)


@pytest.mark.parametrize(
    "body",
    [
        b'{"tag": " ab-01 "}',  # a hyphen: formats' own tag rule
        b'{"tag": "AB", "time": "2024-03-05T10:15:30.123456789+05:30"}',
        b'{"tag": "AB", "time": " 2024-03-05T10:15:30Z "}',
        b'{"tag": "AB", "time": "2024-03-05t10:15:30z"}',
        b'{"tag": "AB", "time": "2024-03-05T10:15:30,5 +0100"}',
        b'{"tag": "AB", "time": "2024-03-05T10:15:30+05:75"}',
        b'{"tag": "AB", "time": "0001-01-01T00:00:00+00:01"}',
        b'{"tag": "AB", "time": "9999-12-31T23:59:59-00:01"}',
        b'{"tag": "AB", "time": "2024-03-05T10:15:30.1234567890123Z"}',
        b'{"tag": "AB", "antenna": 2.0, "rssi": 18446744073709551616}',
        b'{"tag": "AB", "data": {"cFloat0": 1, "cFloat1": null}}',
        b'{"tag": "AB", "data": {"x": 1e308, "y": true}}',
        b'{"tag": "AB", "extra": 1e400}',
        b'{"tag": "AB", "direction": " gone "}',
        b'{"batchId": " b-1 ", "reads": [{"tag": "AB"}]}',
        b'{"batchId": "  ", "reads": [{"tag": "AB"}]}',
        b'[{"batchId": "b", "reads": [{"tag": "AB"}]}, {"batchId": "b", "reads": []}]',
        b'{"epc": "AB", "firstSeenTimestamp": " 1712043910654321 "}',
        b'{"epc": "AB", "firstSeenTimestamp": 1712043910654321.9}',
        b'{"epc": "AB", "firstSeenTimestamp": -99999999999999999999}',
        b'{"epc": "AB", "isHeartBeat": false, "timestamp": "x", "aEvent": {}}',
        b'{"tagInventoryEvent": null, "eventType": "x"}',
        b'{"tagInventoryEvent": {"epc": "4oBolAAAUAlKPBsT", "epcHex": null}}',
        b'{"tagInventoryEvent": {"epcHex": "AB", "epc": 5}}',
        b'{"eventType": "tagInventory", "tagInventoryEvent": {"epcHex": "AB"}, "tag": 1}',
        b'{"data": {"tagData": {"EPC": "AB", "firstSeenTime": 1e3}}, "timestamp": null}',
        b'{"data": {"tagData": [{"EPCid": null, "EPC": "AB", "idHex": 3}]}}',
        b'{"data": {"tagData": [{"idHex": "AB", "lastSeenTime": 1e300}]}}',
        b'{"data": {"idHex": "AB", "tagData": []}, "type": 1e400}',
        b'{"data": {"idHex": "AB"}, "type": 1.5, "timestamp": "2024-01-31T19:00:00.125-0500"}',
    ],
)
def test_odd_but_possible_bodies_read_alike(body: bytes) -> None:
    assert_agree(body)


def test_scrambled_corpus_reads_alike() -> None:
    rng = random.Random(16)
    objects = [o for path in CORPUS for o in objects_of(path)]
    for _ in range(3000):
        picked = [scramble(rng.choice(objects), rng) for _ in range(rng.randint(1, 3))]
        shaped = shapes(picked)
        assert_agree(rng.choice(shaped))


# --- properties -----------------------------------------------------------------------------

ODD = st.sampled_from(ODD_VALUES)


def mostly(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A good value four times in five, an odd one otherwise."""
    return st.one_of(good, good, good, good, ODD)


# Times as readers write them: isoformat(), Z, +0000 and nanoseconds.
GOOD_TIMES = st.builds(
    lambda moment, fraction, zone: moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + zone,
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.sampled_from(["", ".5", ".123", ".123456", ".123456789"]),
    st.sampled_from(["", "Z", "+00:00", "+0000", "-05:00", "+0530"]),
)
ODD_TIMES = st.one_of(
    st.builds(
        lambda date, sep, fraction, zone: f"{date}{sep}10:15:30{fraction}{zone}",
        st.sampled_from(["2024-03-05", "2024-02-30", "0001-01-01", "9999-12-31", "2024-3-5"]),
        st.sampled_from(["T", "t", " ", "x"]),
        st.sampled_from(["", ".5", ",25", ".9999999", ".1234567890123", "."]),
        st.sampled_from(
            [
                "",
                "Z",
                "z",
                "-00:00",
                "+05",
                "-23:59",
                "+24:00",
                " +01:00",
                "+01:00:00",
                "+5:30",
                "+05:75",
            ]
        ),
    ),
    st.text(max_size=12),
)
TIMES = st.one_of(GOOD_TIMES, GOOD_TIMES, GOOD_TIMES, ODD_TIMES)
TAGS = st.one_of(
    st.from_regex(r"[0-9a-fA-F]{1,24}", fullmatch=True),
    st.from_regex(r"[0-9A-F]{24}", fullmatch=True),
    st.from_regex(r"[0-9A-F]{24}", fullmatch=True),
    st.sampled_from([" e2801160600002aa00000001 ", "AB-01:x", "", "  ", "A" * 129, "\ufb01"]),
    st.text(max_size=8),
)
NUMBERS = st.one_of(
    st.integers(-90, 0),
    st.integers(-90, 0),
    st.floats(-90, 0),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    ODD,
)
ANTENNAS = st.one_of(
    st.integers(0, 8), st.integers(0, 8), st.integers(-2, 70_000),
    st.sampled_from([2.0, 65_535, 65_536]), ODD,
)  # fmt: skip
EPOCHS = st.one_of(
    st.integers(10**12, 2 * 10**15),
    st.integers(10**12, 2 * 10**15),
    st.integers(-(2**66), 2**66),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(0, 2 * 10**15).map(str),
    TIMES,
    ODD,
)


def maybe(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects holding any subset of these fields."""
    return st.fixed_dictionaries({}, optional=fields)


OUR_READ = st.fixed_dictionaries(
    {"tag": mostly(TAGS)},
    optional={
        "time": mostly(TIMES), "antenna": ANTENNAS, "rssi": NUMBERS,
        "direction": st.one_of(st.sampled_from(["in", " OUT ", "near", "Gone", "", "UP"]), ODD),
        "tamper": mostly(st.booleans()),
        "data": st.one_of(st.dictionaries(st.text(max_size=3), NUMBERS, max_size=3), ODD),
        "note": ODD,
    },
)  # fmt: skip
OUR_BATCH = st.fixed_dictionaries(
    {"reads": st.one_of(st.lists(OUR_READ, max_size=4), ODD)},
    optional={"batchId": st.one_of(st.text(max_size=4), st.just("x" * 201), ODD)},
)
R700 = st.fixed_dictionaries(
    {},
    optional={
        "timestamp": mostly(TIMES),
        "eventType": st.one_of(st.sampled_from(["tagInventory", "antennaConnected"]), ODD),
        "tagInventoryEvent": st.one_of(
            maybe(epcHex=mostly(TAGS),
                  epc=st.one_of(st.sampled_from(["4oBolAAAUAlKPBsT", "!!", ""]), ODD),
                  antennaPort=ANTENNAS, peakRssiCdbm=NUMBERS,
                  lastSeenTime=mostly(TIMES)),
            ODD,
        ),
        "antennaConnectedEvent": maybe(antennaPort=ANTENNAS),
    },
)  # fmt: skip
HANDHELD_TAG = maybe(
    EPCid=mostly(TAGS), EPC=mostly(TAGS), idHex=mostly(TAGS),
    antenna=ANTENNAS, peakRssi=NUMBERS, firstSeenTime=EPOCHS, lastSeenTime=EPOCHS,
    seenCount=ODD,
)  # fmt: skip
HANDHELD = st.fixed_dictionaries(
    {"data": st.fixed_dictionaries(
        {"tagData": st.one_of(st.lists(HANDHELD_TAG, max_size=4), HANDHELD_TAG, ODD)},
        optional={"barcodeData": ODD})},
    optional={"timestamp": mostly(TIMES), "type": ODD, "someEvent": ODD},
)  # fmt: skip
ZEBRA = st.fixed_dictionaries(
    {"data": st.fixed_dictionaries(
        {"idHex": mostly(TAGS)},
        optional={"antenna": ANTENNAS, "peakRssi": NUMBERS, "eventNum": ODD, "tagData": ODD})},
    optional={"timestamp": mostly(TIMES), "type": ODD, "eventType": ODD},
)  # fmt: skip
SPEEDWAY = st.fixed_dictionaries(
    {"epc": mostly(TAGS)},
    optional={
        "antennaPort": ANTENNAS, "peakRssi": NUMBERS, "firstSeenTimestamp": EPOCHS,
        "isHeartBeat": mostly(st.booleans()), "timestamp": ODD, "data": ODD,
        "uptime": NUMBERS,
    },
)  # fmt: skip
ANY_OBJECT = st.one_of(OUR_READ, OUR_BATCH, R700, HANDHELD, ZEBRA, SPEEDWAY)


@st.composite
def reader_bodies(draw: st.DrawFn) -> bytes:
    """Objects of one format (mostly) or of several, as one object, an array or NDJSON."""
    one_format = draw(st.sampled_from([OUR_READ, OUR_BATCH, R700, HANDHELD, ZEBRA, SPEEDWAY]))
    objects = draw(
        st.lists(st.one_of(one_format, ANY_OBJECT) if draw(st.booleans()) else one_format,
                 min_size=1, max_size=3)
    )  # fmt: skip
    return draw(st.sampled_from(shapes(objects)))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reader_bodies())
def test_any_body_reads_alike_on_both_paths(body: bytes) -> None:
    assert_agree(body)
