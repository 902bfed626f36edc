"""Nothing on a request's way runs in the thread pool: every endpoint and dependency is async.

A plain `def` dependency makes FastAPI hand each call to a worker thread and wait for it to
come back; two of them (the request's wiring and its service) once cost an Events page poll
more than its SQL. The dependencies here only build objects from the request, so none needs a
thread.
"""

import inspect

from fastapi.dependencies.models import Dependant
from fastapi.routing import iter_route_contexts

from tagtrack.core.config import Settings
from tagtrack.main import create_app


def _runs_in_thread(call: object) -> bool:
    return not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call))


def _threaded(dependant: Dependant, where: str) -> list[str]:
    found = []
    for dependency in dependant.dependencies:
        if dependency.call is not None and _runs_in_thread(dependency.call):
            found.append(f"{where}: {getattr(dependency.call, '__qualname__', dependency.call)}")
        found += _threaded(dependency, where)
    return found


def test_no_endpoint_or_dependency_runs_in_the_thread_pool(database_url: str) -> None:
    app = create_app(Settings(log_json=True, processing=False), database_url=database_url)
    threaded: list[str] = []
    routes = 0
    for route in iter_route_contexts(app.routes):
        dependant = getattr(route, "dependant", None)
        if dependant is None:  # static files and the OpenAPI document
            continue
        routes += 1
        where = f"{sorted(route.methods or ())} {route.path}"
        if dependant.call is not None and _runs_in_thread(dependant.call):
            threaded.append(f"{where}: the endpoint")
        threaded += _threaded(dependant, where)
    assert routes > 100
    assert threaded == []
