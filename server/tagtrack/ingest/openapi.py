"""How the API docs describe the reads body: every accepted format as a schema, with examples.
The endpoint still reads the raw body (ingest.formats); nothing here takes part in parsing."""

from typing import Any

from pydantic.json_schema import models_json_schema

from tagtrack.ingest.schemas import READER_PAYLOADS

REF = "#/components/schemas/{model}"


def payload_schemas() -> dict[str, Any]:
    """The component schemas of the reader payload models (and the models they hold)."""
    _, top = models_json_schema([(m, "validation") for m in READER_PAYLOADS], ref_template=REF)
    return dict(top["$defs"])


ONE_PAYLOAD: dict[str, Any] = {
    "anyOf": [{"$ref": REF.format(model=m.__name__)} for m in READER_PAYLOADS]
}

READS_EXAMPLES: dict[str, Any] = {
    "batch": {
        "summary": "Our batch",
        "value": {
            "batchId": "dock-door-1-000042",
            "reads": [
                {
                    "tag": "E28011606000020A6681F23F",
                    "time": "2026-05-01T12:00:00Z",
                    "antenna": 1,
                    "rssi": -55.0,
                    "direction": "IN",
                    "tamper": False,
                    "data": {"cFloat0": 21.5},
                },
                {"tag": "E28011606000020A66846D40", "time": "2026-05-01T12:00:01.250Z"},
            ],
        },
    },
    "zebraIotConnector": {
        "summary": "Zebra IoT Connector (FX, FXR) tag data event",
        "value": {
            "type": "SIMPLE",
            "timestamp": "2026-05-01T12:00:00.000+0000",
            "data": {
                "idHex": "3005FB63AC1F3681EC880468",
                "antenna": 1,
                "peakRssi": -39,
                "reads": 1,
                "channel": 911.75,
            },
        },
    },
    "zebraHandheld": {
        "summary": "Zebra RFD40/RFD90 dataEVT",
        "value": {
            "type": "BALANCED_PERFORMANCE",
            "timestamp": "2026-05-01T12:00:00Z",
            "data": {
                "tagData": [
                    {"EPCid": "BEDD11112222333344445555", "peakRssi": -41, "seenCount": 3},
                    {"EPCid": "BEDD11112222333344446666", "lastSeenTime": 1777636800500},
                ]
            },
        },
    },
    "impinjR700": {
        "summary": "Impinj R700 IoT device interface events (an array)",
        "value": [
            {
                "timestamp": "2026-05-01T12:00:00.120Z",
                "eventType": "tagInventory",
                "tagInventoryEvent": {
                    "epcHex": "E28011606000020A66846D40",
                    "antennaPort": 1,
                    "peakRssiCdbm": -5400,
                    "lastSeenTime": "2026-05-01T12:00:00.100Z",
                },
            },
            {
                "timestamp": "2026-05-01T12:00:00.300Z",
                "tagInventoryEvent": {"epc": "4oARYGAAAgpmgfI_", "antennaPort": 2},
            },
        ],
    },
}
NDJSON_EXAMPLES: dict[str, Any] = {
    "speedwayConnect": {
        "summary": "Impinj Speedway Connect, newline-delimited",
        "value": (
            '{"epc":"999908290000000000000004","antennaPort":7,"peakRssi":-51,'
            '"firstSeenTimestamp":"2026-05-01T12:00:00.368790Z","isHeartBeat":false}\n'
            '{"epc":"999908290000000000000003","antennaPort":2,"peakRssi":-50,'
            '"firstSeenTimestamp":1777636800373293,"isHeartBeat":false}\n'
        ),
    }
}

READS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": (
            "Our batch or a Zebra IoT Connector, Zebra RFD40/RFD90, Impinj R700 or Impinj "
            "Speedway Connect payload: one object, an array of objects, or newline-delimited "
            "JSON (one object a line, any Content-Type). At most 10,000 reads a request; "
            "fields other than those described are ignored."
        ),
        "content": {
            "application/json": {
                "schema": {"anyOf": [ONE_PAYLOAD, {"type": "array", "items": ONE_PAYLOAD}]},
                "examples": READS_EXAMPLES,
            },
            "application/x-ndjson": {
                "schema": {
                    "type": "string",
                    "description": "One payload object of the application/json formats a line",
                },
                "examples": NDJSON_EXAMPLES,
            },
        },
    }
}
