"""The API docs describe every reads format as a schema with examples, and every example is
a body the endpoint accepts."""

import orjson
from pydantic import BaseModel

from tagtrack.ingest.schemas import (
    ImpinjR700Event,
    ReadsBatch,
    SpeedwayConnectRead,
    ZebraHandheldEvent,
    ZebraIotTagEvent,
)
from tests.tracking import Floor

FORMATS = {
    "ReadsBatch",
    "ReadIn",
    "ZebraIotTagEvent",
    "ZebraHandheldEvent",
    "ImpinjR700Event",
    "SpeedwayConnectRead",
}


# Each example: the format it shows and the reads it holds.
EXAMPLES: dict[str, tuple[type[BaseModel], int]] = {
    "batch": (ReadsBatch, 2),
    "zebraIotConnector": (ZebraIotTagEvent, 1),
    "zebraHandheld": (ZebraHandheldEvent, 2),
    "impinjR700": (ImpinjR700Event, 2),
    "speedwayConnect": (SpeedwayConnectRead, 2),
}


async def test_reads_body_is_documented_with_examples_that_are_accepted(floor: Floor) -> None:
    document = (await floor.client.get("/api/openapi.json")).json()
    body = document["paths"]["/api/ingest/reads"]["post"]["requestBody"]
    schemas = document["components"]["schemas"]
    json_body = body["content"]["application/json"]
    one, many = json_body["schema"]["anyOf"]
    assert many == {"type": "array", "items": one}
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in one["anyOf"]} == FORMATS
    assert set(schemas) >= FORMATS
    assert schemas["ReadsBatch"]["properties"]["reads"]["items"]["$ref"].endswith("/ReadIn")
    assert "tagData" in schemas["ZebraHandheldData"]["properties"]
    assert "peakRssiCdbm" in schemas["ImpinjTagInventory"]["properties"]

    ndjson = body["content"]["application/x-ndjson"]["examples"]
    examples = {k: v["value"] for k, v in (json_body["examples"] | ndjson).items()}
    # Our batch, each reader's format, an array and newline-delimited JSON.
    assert set(examples) == set(EXAMPLES)
    assert isinstance(examples["impinjR700"], list)

    reader = await floor.endpoint("Reader")
    headers = {"Authorization": f"Bearer {reader.key}"}
    for name, value in examples.items():
        model, reads = EXAMPLES[name]
        if isinstance(value, str):
            objects = [orjson.loads(line) for line in value.splitlines()]
            sent = await floor.client.post(
                "/api/ingest/reads",
                content=value,
                headers={**headers, "Content-Type": "application/x-ndjson"},
            )
        else:
            objects = value if isinstance(value, list) else [value]
            sent = await floor.client.post("/api/ingest/reads", json=value, headers=headers)
        for item in objects:
            model.model_validate(item)  # the example fits the schema it illustrates
        assert sent.status_code == 202, (name, sent.text)
        assert sent.json()["accepted"] == reads, name
