"""The server keeps an idle connection open longer than its clients do."""

import http.client
import time
from urllib.parse import urlsplit

from e2e.conftest import Console

# Past uvicorn's default of 5 s, after which a request sent on the idle connection could
# meet the server closing it (the client sees a reset).
IDLE_SECONDS = 6


def test_an_idle_connection_stays_open_for_the_next_request(console: Console) -> None:
    address = urlsplit(console.url)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        first = connection.getresponse()
        first.read()
        assert first.status == 200
        opened = connection.sock
        time.sleep(IDLE_SECONDS)
        connection.request("GET", "/healthz")
        second = connection.getresponse()
        second.read()
        assert second.status == 200
        # The same socket answered: the server had not closed it.
        assert connection.sock is opened
    finally:
        connection.close()
