"""Services built one way: from their constructors' type hints.

`Wiring(session, *values).get(ThingService)` builds the service and whatever its constructor
asks for: the session itself, a value given by type (settings, storage, a sessionmaker, ...),
or another class built the same way (a repository gets the session; a service is built in
turn). One instance per class per wiring, so a request's or a job's services share their
repositories and their transaction. Routers take a service with `provide`:

    Service = Annotated[ThingService, Depends(provide(ThingService))]
"""

import dataclasses
import inspect
from collections.abc import Callable, Coroutine
from types import NoneType, UnionType
from typing import Annotated, Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from fastapi import BackgroundTasks, Depends, Request
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.db import DbSession

T = TypeVar("T")


class WiringError(TypeError):
    """A constructor asks for something the wiring has no value for and cannot build."""


class PublicUrl(str):
    """The server's address as clients reach it: the configured one, else the request's."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True)
class _Parameter:
    name: str
    # The classes that may fill it (several for `X | None`), and whether it may be left out.
    kinds: tuple[type[Any], ...]
    optional: bool
    hint: object
    # The kinds a given value may fill it by: a builtin (a str, an int) says nothing of what
    # it is for, so never.
    given_by: tuple[type[Any], ...]


_PARAMETERS: dict[type[Any], tuple[_Parameter, ...]] = {}
# Whether a given value fits, by the value's class: decided once per class and parameter, not
# for every request (isinstance of a checkable protocol, such as Storage, walks its members).
_FITS: dict[tuple[tuple[type[Any], ...], type[Any]], bool] = {}


def _parameters(cls: type[Any]) -> tuple[_Parameter, ...]:
    """The constructor's parameters, read once per class."""
    known = _PARAMETERS.get(cls)
    if known is None:
        known = _PARAMETERS[cls] = _read_parameters(cls)
    return known


def _read_parameters(cls: type[Any]) -> tuple[_Parameter, ...]:
    init = cls.__init__
    if init is object.__init__:
        return ()
    hints = get_type_hints(init)
    found = []
    for name, parameter in list(inspect.signature(init).parameters.items())[1:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        hint = hints.get(name)
        if hint is None:
            raise WiringError(f"{cls.__qualname__}: parameter {name!r} has no type hint")
        optional = parameter.default is not parameter.empty
        kinds = _kinds(hint)
        given_by = tuple(k for k in kinds if k.__module__ != "builtins")
        found.append(_Parameter(name, kinds, optional, hint, given_by))
    return tuple(found)


def _kinds(hint: object) -> tuple[type[Any], ...]:
    origin = get_origin(hint)
    if origin is Union or origin is UnionType:
        return tuple(k for arg in get_args(hint) for k in _kinds(arg) if k is not NoneType)
    if origin is Annotated:
        return _kinds(get_args(hint)[0])
    kind = origin if origin is not None else hint
    return (kind,) if isinstance(kind, type) else ()


def _fits(kinds: tuple[type[Any], ...], value: object) -> bool:
    key = (kinds, type(value))
    fits = _FITS.get(key)
    if fits is None:
        fits = _FITS[key] = isinstance(value, kinds)
    return fits


def _buildable(kind: type[Any]) -> bool:
    """A class of behaviour, not a value: data (models, settings, dataclasses), builtins and
    protocols are given, never made up."""
    return not (
        kind.__module__ == "builtins"
        or issubclass(kind, BaseModel)
        or dataclasses.is_dataclass(kind)
        or getattr(kind, "_is_protocol", False)
    )


class Wiring:
    def __init__(self, session: AsyncSession, *values: object) -> None:
        self.session = session
        self._values = (session, *values)
        self._built: dict[type[Any], object] = {}
        self._building: list[type[Any]] = []

    def get(self, cls: type[T]) -> T:
        """The one instance of `cls` for this wiring, built on first use."""
        built = self._built.get(cls)
        if built is None:
            if cls in self._building:
                chain = " -> ".join(c.__qualname__ for c in [*self._building, cls])
                raise WiringError(f"constructors ask for each other: {chain}")
            self._building.append(cls)
            try:
                built = cls(**self._arguments(cls))
            finally:
                self._building.pop()
            self._built[cls] = built
        return cast(T, built)

    def _arguments(self, cls: type[Any]) -> dict[str, object]:
        arguments: dict[str, object] = {}
        for parameter in _parameters(cls):
            given = self._given(cls, parameter)
            if given is not None:
                arguments[parameter.name] = given
            elif parameter.optional:
                continue
            elif len(parameter.kinds) == 1 and _buildable(parameter.kinds[0]):
                arguments[parameter.name] = self.get(parameter.kinds[0])
            else:
                raise WiringError(
                    f"{cls.__qualname__}: no value for parameter {parameter.name!r} "
                    f"({parameter.hint!r}); give one to Wiring or build it by hand"
                )
        return arguments

    def _given(self, cls: type[Any], parameter: _Parameter) -> object | None:
        kinds = parameter.given_by
        if not kinds:
            return None
        matches = [v for v in self._values if _fits(kinds, v)]
        if len(matches) > 1:
            raise WiringError(
                f"{cls.__qualname__}: {len(matches)} given values fit parameter {parameter.name!r}"
            )
        return matches[0] if matches else None


async def request_wiring(
    request: Request, session: DbSession, background: BackgroundTasks
) -> Wiring:
    """The request's wiring: its session and background tasks, the application's values
    (settings, storage, sessionmaker, ...), and the address clients reach the server at."""
    state = request.app.state
    public_url = PublicUrl(state.settings.public_url or str(request.base_url).rstrip("/"))
    held = [v for v in vars(state).get("_state", {}).values() if v is not None]
    return Wiring(session, background, public_url, *held)


RequestWiring = Annotated[Wiring, Depends(request_wiring)]


def provide(cls: type[T]) -> Callable[[Wiring], Coroutine[Any, Any, T]]:
    """A FastAPI dependency giving the request's instance of `cls`."""

    async def dependency(wiring: RequestWiring) -> T:
        return wiring.get(cls)

    dependency.__name__ = f"provide_{cls.__name__}"
    return dependency
