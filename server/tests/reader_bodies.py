"""Reader bodies of every common format, as their readers send them, for tests and benchmarks."""

import random
from datetime import UTC, datetime, timedelta

import orjson

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def _ndjson(objects: list[object]) -> bytes:
    return b"\n".join(orjson.dumps(o) for o in objects) + b"\n"


def bodies(batch: int, seed: int = 7) -> dict[str, bytes]:
    """One body of `batch` reads per format, with real-looking tags, times and fields."""
    rng = random.Random(seed)
    tags = [rng.randbytes(12).hex() for _ in range(batch)]
    times = [T0 + timedelta(milliseconds=rng.randrange(10**6)) for _ in range(batch)]
    ants = [rng.randrange(1, 5) for _ in range(batch)]
    rssi = [-rng.randrange(30, 80) for _ in range(batch)]
    rows = list(zip(tags, times, ants, rssi, strict=True))
    ours = [
        {"tag": t.upper(), "time": at.isoformat(), "antenna": a, "rssi": r} for t, at, a, r in rows
    ]
    zebra_fx = [
        {"data": {"eventNum": n, "format": "epc", "idHex": t, "antenna": a, "peakRssi": r},
         "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+0000", "type": "SIMPLE"}
        for n, (t, at, a, r) in enumerate(rows)
    ]  # fmt: skip
    handheld = {
        "type": "FAST_READ",
        "timestamp": T0.isoformat(),
        "data": {
            "tagData": [
                {"EPCid": t, "EPC": t, "peakRssi": r, "eventNum": n, "seenCount": 1,
                 "lastSeenTime": int(at.timestamp() * 1000)}
                for n, (t, at, _a, r) in enumerate(rows)
            ]
        },
    }  # fmt: skip
    r700 = [
        {"timestamp": at.isoformat().replace("+00:00", "Z"), "eventType": "tagInventory",
         "tagInventoryEvent": {"epcHex": t.upper(), "antennaPort": a, "antennaName": "Dock",
                               "peakRssiCdbm": r * 100,
                               "lastSeenTime": at.isoformat().replace("+00:00", "Z")}}
        for t, at, a, r in rows
    ]  # fmt: skip
    speedway = [
        {"antennaPort": a, "epc": t.upper(), "peakRssi": r, "isHeartBeat": False,
         "firstSeenTimestamp": at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
        for t, at, a, r in rows
    ]  # fmt: skip
    return {
        "ours, batch": orjson.dumps({"batchId": "bench-1", "reads": ours}),
        "ours, NDJSON": _ndjson(list(ours)),
        "Zebra FX, array": orjson.dumps(zebra_fx),
        "Zebra handheld dataEVT": orjson.dumps(handheld),
        "Impinj R700, array": orjson.dumps(r700),
        "Speedway Connect, NDJSON": _ndjson(list(speedway)),
    }
