"""Reader payloads of every accepted format become the same read record; bad bodies are refused."""

import contextlib
import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest

from tagtrack.ingest.formats import (
    MAX_READS_PER_PAYLOAD,
    Heartbeat,
    PayloadError,
    Read,
    parse_payload,
    parse_status,
)

SAMPLES = Path(__file__).parent / "samples" / "readers"
# Real payloads published by the vendors and integrators, kept outside the repository.
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "readers"
RECEIVED = datetime(2024, 7, 1, 12, 0, tzinfo=UTC)


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0, s: int = 0, us: int = 0) -> datetime:
    return datetime(y, mo, d, h, mi, s, us, tzinfo=UTC)


def parse(body: bytes | str | object) -> list[Read]:
    if isinstance(body, str):
        body = body.encode()
    elif not isinstance(body, bytes):
        body = orjson.dumps(body)
    return parse_payload(body, received_at=RECEIVED).reads


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def refused(body: bytes | str | object) -> str:
    with pytest.raises(PayloadError) as caught:
        parse(body)
    return str(caught.value)


# --- our format -----------------------------------------------------------------------------


def test_our_batch_keeps_every_field() -> None:
    payload = parse_payload(sample("ours_batch.json"), received_at=RECEIVED)
    assert payload.batch_id == "hh-42-000017"
    assert payload.heartbeats == []
    assert payload.reads == [
        Read(
            tag="E2801160600002AA00000001",
            time=utc(2024, 3, 5, 9, 15, 30, 250_000),
            antenna=2,
            rssi=-61.5,
            direction="IN",
            tamper=False,
            data={"cFloat0": 21.5},
        ),
        Read(
            tag="E2801160600002AA00000002",
            time=RECEIVED,
            antenna=0,
            rssi=None,
            direction=None,
            tamper=True,
            data={},
        ),
    ]
    assert payload.reads[0].time.tzinfo is UTC


def test_our_bare_reads_as_array_and_ndjson() -> None:
    array = parse(sample("ours_reads_array.json"))
    assert [(r.tag, r.time, r.antenna, r.direction) for r in array] == [
        ("300833B2DDD9014000000011", utc(2024, 3, 5, 9), 0, "NEAR"),
        ("300833B2DDD9014000000012", utc(2024, 3, 5, 9, 0, 1), 3, "GONE"),
    ]
    lines = parse(sample("ours_reads.ndjson"))  # the blank line between is ignored
    assert [(r.tag, r.time, r.rssi, r.direction, r.data) for r in lines] == [
        ("AD0000000000000000000101", utc(2024, 3, 5, 9), -40.0, None, {}),
        (
            "AD0000000000000000000102",
            utc(2024, 3, 5, 9, 0, 0, 500_000),
            None,
            "OUT",
            {"cFloat0": -3.0, "cFloat1": 0.25},
        ),
    ]


def test_a_lone_bare_read_and_an_empty_batch() -> None:
    assert parse({"tag": "abc123"}) == [
        Read(
            tag="ABC123", time=RECEIVED, antenna=0, rssi=None, direction=None, tamper=False, data={}
        )
    ]
    (read,) = parse({"tag": "AB", "direction": "", "tamper": None, "data": {"cFloat0": None}})
    assert (read.direction, read.tamper, read.data) == (None, False, {})
    payload = parse_payload(b'{"reads": []}', received_at=RECEIVED)
    assert payload == parse_payload(b"[]", received_at=RECEIVED)
    assert payload.reads == [] and payload.batch_id is None


def test_batches_in_an_array_share_their_batch_id() -> None:
    body = [
        {"batchId": "b1", "reads": [{"tag": "01"}]},
        {"batchId": "b1", "reads": [{"tag": "02"}]},
    ]
    payload = parse_payload(orjson.dumps(body), received_at=RECEIVED)
    assert payload.batch_id == "b1" and [r.tag for r in payload.reads] == ["01", "02"]
    body[1]["batchId"] = "b2"
    assert "[1]: batchId: expected the same batchId" in refused(body)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2021-02-02T22:18:35.658476625Z", utc(2021, 2, 2, 22, 18, 35, 658_476)),
        ("2023-05-01T08:55:44.625+0300", utc(2023, 5, 1, 5, 55, 44, 625_000)),
        ("2023-05-01T08:55:44.625+03:00", utc(2023, 5, 1, 5, 55, 44, 625_000)),
        ("2023-12-31T22:30:00-0230", utc(2024, 1, 1, 1)),
        ("2023-04-13T11:49:33.809+0000", utc(2023, 4, 13, 11, 49, 33, 809_000)),
        ("2024-02-29 23:59:59,5z", utc(2024, 2, 29, 23, 59, 59, 500_000)),
        ("2024-03-05T10:15", utc(2024, 3, 5, 10, 15)),  # no offset: taken as UTC
        ("2024-03-05T10:15:00+05", utc(2024, 3, 5, 5, 15)),
    ],
)
def test_times_of_any_offset_and_precision_become_utc(text: str, expected: datetime) -> None:
    (read,) = parse({"tag": "AB", "time": text})
    assert read.time == expected
    assert read.time.utcoffset() == timedelta(0)


def test_received_at_in_another_zone_is_stored_in_utc() -> None:
    local = datetime(2024, 7, 1, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    (read,) = parse_payload(b'{"tag": "AB"}', received_at=local).reads
    assert read.time == RECEIVED and read.time.tzinfo is UTC


# --- vendor formats -------------------------------------------------------------------------


def test_zebra_iot_connector_events_with_offsets() -> None:
    reads = parse(sample("zebra_fx_tag_events.json"))
    assert [(r.tag, r.time, r.antenna, r.rssi) for r in reads] == [
        ("E20000172211011718905D2A", utc(2024, 1, 31, 23, 59, 59, 900_000), 3, -58.0),
        ("E20000172211011718905D2B", utc(2024, 2, 1, 0, 0, 0, 125_000), 4, -71.0),
    ]
    assert all(r.direction is None and not r.tamper and r.data == {} for r in reads)


def objects_in(name: str) -> list[object]:
    body = sample(name)
    if name.endswith(".ndjson"):
        return [orjson.loads(line) for line in body.splitlines() if line.strip()]
    value = orjson.loads(body)
    return value if isinstance(value, list) else [value]


@pytest.mark.parametrize("name", sorted(path.name for path in SAMPLES.iterdir()))
def test_every_format_reads_the_same_as_object_array_or_ndjson(name: str) -> None:
    objects = objects_in(name)
    one_by_one = [parse_payload(orjson.dumps(o), received_at=RECEIVED) for o in objects]
    reads = [read for payload in one_by_one for read in payload.reads]
    heartbeats = [beat for payload in one_by_one for beat in payload.heartbeats]
    assert reads or heartbeats
    as_array = orjson.dumps(objects)
    as_ndjson = b"\r\n".join(orjson.dumps(o) for o in objects) + b"\n\n"
    for body in (as_array, as_ndjson):
        payload = parse_payload(body, received_at=RECEIVED)
        assert (payload.reads, payload.heartbeats) == (reads, heartbeats)


def test_zebra_handheld_data_event_gives_one_read_per_tag() -> None:
    reads = parse(sample("zebra_rfd_dataevt.json"))
    assert [(r.tag, r.time, r.antenna, r.rssi) for r in reads] == [
        ("3034257BF7194E4000000A01", utc(2024, 6, 1, 6, 30), 0, -47.0),
        # lastSeenTime (milliseconds since epoch) is more precise than the envelope
        ("3034257BF7194E4000000A02", utc(2024, 6, 1, 6, 30, 0, 123_000), 0, -66.0),
    ]
    barcode_only = {"type": "FAST_READ", "timestamp": "2024-06-01T08:30:00Z", "data": {
        "tagData": [], "barcodeData": [{"decodedBarcode": "123"}]}}  # fmt: skip
    assert parse(barcode_only) == []


def test_impinj_r700_events_with_and_without_event_type() -> None:
    reads = parse(sample("impinj_r700_events.ndjson"))
    assert [(r.tag, r.time, r.antenna, r.rssi) for r in reads] == [
        # centi-dBm become dBm; lastSeenTime wins over the queueing timestamp
        ("E2806894000050094A3C1B11", utc(2024, 2, 10, 11, 59, 59, 987_654), 2, -53.5),
        ("E2806894000050094A3C1B12", utc(2024, 2, 10, 12, 0, 1), 4, -62.25),
        # only the base64 epc came: decoded to hex
        ("E2806894000050094A3C1B13", utc(2024, 2, 10, 12, 0, 3), 1, None),
    ]


def test_impinj_r700_other_events_are_ignored() -> None:
    other = [
        {"timestamp": "2024-02-10T12:00:02Z", "eventType": "inventoryStatus",
         "inventoryStatusEvent": {"status": "running"}},
        {"timestamp": "2024-02-10T12:00:02Z", "antennaDisconnectedEvent": {"antennaPort": 3}},
    ]  # fmt: skip
    assert parse_payload(orjson.dumps(other), received_at=RECEIVED).reads == []


def test_impinj_speedway_connect_reads_and_heartbeats() -> None:
    payload = parse_payload(sample("impinj_speedway_connect.ndjson"), received_at=RECEIVED)
    assert [(r.tag, r.time, r.antenna, r.rssi) for r in payload.reads] == [
        ("AAAA00000000000000000031", utc(2024, 4, 2, 7, 45, 10, 123_456), 12, -48.0),
        # integer microseconds since epoch
        ("AAAA00000000000000000032", utc(2024, 4, 2, 7, 45, 10, 654_321), 5, -55.5),
    ]
    assert payload.heartbeats == [
        Heartbeat(
            time=utc(2024, 4, 2, 7, 46, 0, 1), uptime=None, reader_temp=None, ip=None, version=None
        )
    ]


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "empty body"),
        (b"  \n\t ", "empty body"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"{'tag': 'AB'}", "not JSON"),
        (b'{"tag": "AB",}', "not JSON"),
        (b"42", "got 42"),
        (b'"E280"', 'got "E280"'),
        (b"null", "got null"),
        (b"[1]", "[0]: expected a JSON object, got 1"),
        (b'{"tag": "AB"}\n[1]', "line 2: expected a JSON object per line"),
        (b'{"tag": "AB"}\n{"tag": ', "line 2: not JSON"),
        (b'{"hello": "world"}', "unrecognised object (keys: hello)"),
        ({"reads": {"tag": "AB"}}, "reads: expected an array"),
        ({"reads": ["AB"]}, "reads[0]: expected a read object"),
        ({"reads": [{"tag": "AB"}, {"tag": 5}]}, "reads[1].tag: expected a non-empty tag"),
        ({"reads": [{"tag": "  "}]}, "reads[0].tag: expected a non-empty tag"),
        ({"reads": [{"tag": "E2 80"}]}, "reads[0].tag"),
        ({"reads": [{"tag": "A" * 129}]}, "at most 128"),
        ({"reads": [{"tag": "\ufb01"}]}, "reads[0].tag"),  # the "fi" ligature, upper() "FI"
        ({"reads": [{"tag": "\u0663\u0663"}]}, "reads[0].tag"),  # Arabic-Indic digits
        ({"reads": [{"tag": "AB", "antenna": "abc"}]}, "reads[0].antenna: expected an antenna"),
        ({"reads": [{"tag": "AB", "antenna": 1.5}]}, "reads[0].antenna"),
        ({"reads": [{"tag": "AB", "antenna": -1}]}, "reads[0].antenna"),
        ({"reads": [{"tag": "AB", "antenna": True}]}, "reads[0].antenna"),
        ({"reads": [{"tag": "AB", "time": "yesterday"}]}, "reads[0].time: expected an ISO 8601"),
        ({"reads": [{"tag": "AB", "time": 1712043910}]}, "reads[0].time"),
        ({"reads": [{"tag": "AB", "time": "2024-02-30T00:00:00Z"}]}, "reads[0].time"),
        ({"reads": [{"tag": "AB", "time": "2024-01-01T00:00:00+2400"}]}, "reads[0].time"),
        ({"reads": [{"tag": "AB", "rssi": "-50"}]}, "reads[0].rssi: expected a number"),
        ({"reads": [{"tag": "AB", "direction": "UP"}]}, "reads[0].direction: expected one of"),
        ({"reads": [{"tag": "AB", "direction": 1}]}, "reads[0].direction"),
        ({"reads": [{"tag": "AB", "tamper": "no"}]}, "reads[0].tamper: expected true, false"),
        ({"reads": [{"tag": "AB", "data": [1]}]}, "reads[0].data: expected an object"),
        ({"reads": [{"tag": "AB", "data": {"cFloat0": "hot"}}]}, "reads[0].data.cFloat0"),
        ({"batchId": 7, "reads": []}, "batchId: expected a non-empty string"),
        ({"batchId": "x" * 201, "reads": []}, "batchId: expected at most 200"),
        ([{"tag": "AB"}, {"tag": "AB", "antenna": "2"}], "[1]: antenna"),
        ({"data": {"idHex": 12}, "timestamp": "2024-01-01T00:00:00Z"}, "data.idHex"),
        ({"data": {"idHex": "AB"}, "timestamp": "2024-13-01T00:00:00Z"}, "timestamp"),
        ({"data": {"idHex": "AB", "peakRssi": "-40"}}, "data.peakRssi"),
        ({"data": {"tagData": "AB"}}, "data.tagData: expected an array"),
        ({"data": {"tagData": [{"EPC": "AB"}, {"peakRssi": -4}]}}, "data.tagData[1].EPCid"),
        ({"data": {"tagData": [{"EPC": "AB", "lastSeenTime": "x"}]}}, "tagData[0].lastSeenTime"),
        ({"timestamp": "x", "tagInventoryEvent": {"epcHex": "AB"}}, "timestamp: expected an ISO"),
        ({"eventType": "tagInventory"}, "tagInventoryEvent: expected an object"),
        ({"tagInventoryEvent": [1]}, "tagInventoryEvent: expected an object"),
        ({"tagInventoryEvent": {"epc": "!!"}}, "tagInventoryEvent.epc: expected the EPC"),
        ({"tagInventoryEvent": {"epcHex": "AB", "antennaPort": "1"}}, "antennaPort"),
        ({"epc": "AB", "firstSeenTimestamp": "today"}, "firstSeenTimestamp"),
        (b'{"epc": "AB", "firstSeenTimestamp": 1' + b"0" * 30 + b"}", "firstSeenTimestamp"),
        ({"epc": "AB", "isHeartBeat": "no"}, "isHeartBeat: expected true or false"),
    ],
)
def test_bad_payloads_are_refused_with_a_reason(body: object, message: str) -> None:
    assert message in refused(body)


def test_an_unknown_shape_names_the_accepted_ones() -> None:
    reason = refused({"foo": 1, "timestamp": "2024-01-01T00:00:00Z"})
    for name in ("tag", "reads", "Zebra", "idHex", "tagData", "R700", "Speedway", "epc"):
        assert name in reason


def test_more_than_the_maximum_number_of_reads_is_refused() -> None:
    reads = [{"tag": f"{n:024X}"} for n in range(MAX_READS_PER_PAYLOAD)]
    assert len(parse({"reads": reads})) == MAX_READS_PER_PAYLOAD
    assert "too many reads" in refused({"reads": [*reads, {"tag": "AB"}]})
    assert "too many reads" in refused([*reads, {"tag": "AB"}])
    assert "too many reads" in refused([{"reads": reads[:6000]}, {"reads": reads[:6000]}])
    ndjson = "\n".join(orjson.dumps(r).decode() for r in [*reads, {"tag": "AB"}])
    assert "too many reads" in refused(ndjson)
    handheld = {"data": {"tagData": [{"EPC": r["tag"]} for r in [*reads, {"tag": "AB"}]]}}
    assert "too many reads" in refused(handheld)


def test_random_and_odd_bodies_only_ever_raise_payload_error() -> None:
    rng = random.Random(20240701)
    valid = [path.read_bytes() for path in sorted(SAMPLES.iterdir())]
    odd = [
        b"[" * 5000 + b"]" * 5000,
        b'{"reads": [' + b"{}," * 50 + b"{}]}",
        b'{"tag": "\\ud800"}',
        b'{"tag": "AB", "time": "9999-12-31T23:59:59-2359"}',
        b'{"tag": "AB", "time": "0001-01-01T00:00:00+2359"}',
        b'{"tag": "AB", "antenna": 1e400}',
        b'{"tag": "AB", "antenna": 18446744073709551615}',
        b'{"epc": "AB", "firstSeenTimestamp": -99999999999999999999}',
        b'{"epc": "AB", "firstSeenTimestamp": "99999999999999999999999"}',
        b'{"data": {"tagData": [{"EPC": "AB", "lastSeenTime": 1e300}]}}',
        b'{"tagInventoryEvent": {"epc": "%%%"}}',
        b'{"epc": "AB", "firstSeenTimestamp": "' + b"9" * 5000 + b'"}',
        '{"epc": "AB", "firstSeenTimestamp": "\u00b2"}'.encode(),
        '{"tag": "AB", "time": "\u0663\u0663\u0663\u0663-01-01T00:00:00Z"}'.encode(),
        b'{"tagInventoryEvent": {"epc": ""}}',
        b"\xef\xbb\xbf" + b'{"tag": "AB"}',
        b"\n\n\n",
        b"{}\n{}",
        b'{"reads": null}',
        b'{"data": null}',
    ]
    bodies = odd + [
        bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 60))) for _ in range(300)
    ]
    for body in valid:  # flipped, cut and spliced real shapes
        for _ in range(150):
            mutated = bytearray(body)
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(mutated))
                choice = rng.random()
                if choice < 0.4:
                    mutated[at] = rng.getrandbits(8)
                elif choice < 0.7:
                    mutated[at:at] = rng.choice([b"\n", b"null", b"-1", b'"', b"[", b"}", b"1e9"])
                else:
                    del mutated[at : at + rng.randint(1, 8)]
            bodies.append(bytes(mutated))
    for body in bodies:
        for parser in (parse_payload, parse_status):
            with contextlib.suppress(PayloadError):
                parser(body, received_at=RECEIVED)


ODD_VALUES: list[object] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    1e308,
    2**63,
    "",
    " ",
    "x" * 300,
    "\u00b2",
    [],
    {},
    [{}],
]


def scramble(value: object, rng: random.Random) -> object:
    """The same JSON with one member or item somewhere swapped for an odd value."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        return {**value, key: scramble(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        at = rng.randrange(len(value))
        return [*value[:at], scramble(value[at], rng), *value[at + 1 :]]
    return rng.choice(ODD_VALUES)


def test_odd_values_in_every_field_only_ever_raise_payload_error() -> None:
    rng = random.Random(7)
    shapes = [o for path in sorted(SAMPLES.iterdir()) for o in objects_in(path.name)]
    shapes.append({"uptime": 3600, "readerTemp": 41.5, "ip": "10.0.0.5", "version": "3.21.1"})
    for shape in shapes:
        for _ in range(200):
            body = orjson.dumps(scramble(shape, rng))
            for parser in (parse_payload, parse_status):
                with contextlib.suppress(PayloadError):
                    parser(body, received_at=RECEIVED)


# --- heartbeats -----------------------------------------------------------------------------


def test_our_heartbeat() -> None:
    body = b'{"uptime": 3600, "readerTemp": 41.5, "ip": "10.0.0.5", "version": "3.21.1"}'
    assert parse_status(body, received_at=RECEIVED) == Heartbeat(
        time=RECEIVED, uptime=3600, reader_temp=41.5, ip="10.0.0.5", version="3.21.1"
    )
    timed = parse_status(b'{"time": "2024-07-01T13:00:00+0100", "uptime": 5}', received_at=RECEIVED)
    assert timed.time == RECEIVED and timed.uptime == 5 and timed.ip is None


def test_speedway_heartbeat_as_status() -> None:
    body = b'{"isHeartBeat": true, "firstSeenTimestamp": 1719835200000000}'
    assert parse_status(body, received_at=RECEIVED).time == RECEIVED


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "empty body"),
        (b"[]", "expected one JSON heartbeat object"),
        (b'[{"uptime": 1}]', "expected one JSON heartbeat object"),
        (b'{"uptime": "1h"}', "uptime: expected a number"),
        (b'{"uptime": -5}', "uptime: expected a number of seconds"),
        (b'{"readerTemp": "hot"}', "readerTemp: expected a number"),
        (b'{"ip": 10}', "ip: expected a string"),
        (b'{"version": ["3"]}', "version: expected a string"),
        (b'{"time": "noon"}', "time: expected an ISO 8601"),
        (b'{"isHeartBeat": false, "epc": "AB"}', "isHeartBeat: expected true"),
    ],
)
def test_bad_heartbeats_are_refused(body: bytes, message: str) -> None:
    with pytest.raises(PayloadError) as caught:
        parse_status(body, received_at=RECEIVED)
    assert message in str(caught.value)


# --- the shared fixtures: real published payloads ----------------------------------------

# Checked by hand: (read count, first tag) per file. A file not listed must still read.
FIXTURE_READS = {
    "impinj_r700_webhook_array.json": (3, "E28011606000020A6681F23F"),
    "impinj_speedway_connect_inventory.ndjson": (2, "999908290000000000000004"),
    "zebra_fxr_mqtt_tag_data_event_simple.json": (1, "3005FB63AC1F3681EC880468"),
    "zebra_rfd40_90_mqtt_dataevt.json": (1, "BEDD11112222333344445555"),
    "zebra_ziotc_custom_access_example1_success.json": (1, "1234567890ABCDEF00000000"),
    "zebra_ziotc_custom_access_example4_result.json": (1, "BBBBBBBBBBBBBBBBBBBBBBBB"),
    "zebra_ziotc_custom_access_read.json": (1, "BBBBBBBBBBBBBBBBBBBBBBBB"),
}
FIXTURE_FILES = sorted(FIXTURES.iterdir()) if FIXTURES.is_dir() else []


# Defined only where the corpus is: a machine without it has no such test to run.
if FIXTURE_FILES:

    @pytest.mark.parametrize("path", FIXTURE_FILES, ids=[path.name for path in FIXTURE_FILES])
    def test_published_reader_payloads_are_read(path: Path) -> None:
        reads = parse(path.read_bytes())
        assert reads, f"{path.name} gave no read"
        assert all(read.tag and read.time.tzinfo is UTC for read in reads)
        if path.name in FIXTURE_READS:
            assert (len(reads), reads[0].tag) == FIXTURE_READS[path.name]
