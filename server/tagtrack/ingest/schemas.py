from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tagtrack.kit.schemas import ApiModel


class Accepted(ApiModel):
    accepted: int = Field(description="Reads durably queued for processing by this request")
    duplicate: bool = Field(
        default=False, description="True when this batchId was delivered before"
    )


class ReaderConfig(ApiModel):
    """What a reader needs to know about itself."""

    id: str = Field(alias="_id")
    name: str
    site: str
    antennas: list[dict[str, Any]]
    config: dict[str, Any]
    repeatWindowSeconds: float


# --- reader payloads, for the API docs ------------------------------------------------------
# The endpoint reads the raw body with ingest.formats (its own checks and error messages, and
# no model validation on the hot path); these models only describe those formats.


class _Payload(BaseModel):
    # Readers send more fields than TagTrack uses; they are allowed and ignored.
    model_config = ConfigDict(extra="allow")


Direction = Literal["IN", "OUT", "NEAR", "GONE"]


class ReadIn(_Payload):
    """One read of our format (also accepted alone, as a bare object)."""

    tag: str = Field(description="EPC hex (letters, digits and . _ : -), at most 128")
    time: str | None = Field(
        default=None, description="ISO 8601 date-time, any offset; default: when received"
    )
    antenna: int | None = Field(default=None, ge=0, le=65535, description="Antenna port")
    rssi: float | None = Field(default=None, description="dBm")
    direction: Direction | None = None
    tamper: bool | None = None
    data: dict[str, float | None] | None = Field(
        default=None, description='Sensor values, e.g. {"cFloat0": 21.5}'
    )


class ReadsBatch(_Payload):
    """Our batch: a repeated batchId is acknowledged again and counted once."""

    batchId: str | None = Field(default=None, max_length=200)
    reads: list[ReadIn]


class ZebraTagData(_Payload):
    idHex: str = Field(description="The tag's EPC in hex")
    antenna: int | None = None
    peakRssi: float | None = Field(default=None, description="dBm")


class ZebraIotTagEvent(_Payload):
    """Zebra IoT Connector (FX, FXR) tag data event: one tag per event."""

    type: str | None = Field(default=None, description="SIMPLE")
    timestamp: str | None = Field(default=None, description="ISO 8601, offsets like +0000")
    data: ZebraTagData


class ZebraHandheldTag(_Payload):
    EPCid: str | None = Field(default=None, description="The tag's EPC in hex (or EPC, idHex)")
    EPC: str | None = None
    antenna: int | None = None
    peakRssi: float | None = Field(default=None, description="dBm")
    firstSeenTime: int | None = Field(default=None, description="Milliseconds since 1970")
    lastSeenTime: int | None = Field(default=None, description="Milliseconds since 1970")


class ZebraHandheldData(_Payload):
    tagData: list[ZebraHandheldTag]


class ZebraHandheldEvent(_Payload):
    """Zebra RFD40/RFD90 handheld dataEVT: the tags of one trigger pull."""

    type: str | None = None
    timestamp: str | None = Field(default=None, description="ISO 8601 date-time")
    data: ZebraHandheldData


class ImpinjTagInventory(_Payload):
    epcHex: str | None = Field(default=None, description="The tag's EPC in hex")
    epc: str | None = Field(default=None, description="The EPC in base64, when epcHex is off")
    antennaPort: int | None = None
    peakRssiCdbm: int | None = Field(default=None, description="Centi-dBm")
    lastSeenTime: str | None = Field(default=None, description="ISO 8601 date-time")


class ImpinjR700Event(_Payload):
    """Impinj R700 IoT device interface event; events without tagInventoryEvent (antenna,
    inventory status) are accepted and hold no read."""

    timestamp: str
    eventType: str | None = Field(default=None, description="tagInventory, on some firmware")
    tagInventoryEvent: ImpinjTagInventory | None = None


class SpeedwayConnectRead(_Payload):
    """Impinj Speedway Connect read, or its heartbeat with isHeartBeat true."""

    epc: str | None = Field(default=None, description="The tag's EPC in hex")
    antennaPort: int | None = None
    peakRssi: float | None = Field(default=None, description="dBm")
    firstSeenTimestamp: str | int | None = Field(
        default=None, description="ISO 8601, or microseconds since 1970"
    )
    isHeartBeat: bool | None = None


READER_PAYLOADS: tuple[type[BaseModel], ...] = (
    ReadsBatch,
    ReadIn,
    ZebraIotTagEvent,
    ZebraHandheldEvent,
    ImpinjR700Event,
    SpeedwayConnectRead,
)
