"""An MQTT broker for the tests: the machine's Mosquitto on 1883, or one started for them."""

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.serve import free_port


def _broker_reachable(port: int) -> bool:
    with contextlib.closing(socket.socket()) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def mqtt_broker() -> Iterator[int]:
    """Yield the broker's port."""
    if _broker_reachable(1883):
        yield 1883
        return
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    port = free_port()
    process = subprocess.Popen([binary, "-p", str(port)])
    try:
        for _ in range(50):
            if _broker_reachable(port):
                break
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
