"""Services are built one way (from their constructors' hints), and talk to repositories only."""

import ast
from pathlib import Path

import pytest
from fastapi import BackgroundTasks
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.auth.service import AuthService
from tagtrack.core.config import Settings
from tagtrack.images.storage import LocalStorage, Storage
from tagtrack.kit.repository import Repository
from tagtrack.kit.wiring import PublicUrl, Wiring, WiringError
from tagtrack.models import Site
from tagtrack.sites.service import SiteService
from tagtrack.things.service import ThingService
from tagtrack.users.service import UserService

PACKAGE = Path(__file__).resolve().parents[1] / "tagtrack"


class Sites(Repository[Site]):
    model = Site


class Lookup:
    def __init__(self, sites: Sites, settings: Settings) -> None:
        self.sites = sites
        self.settings = settings


class Report:
    def __init__(self, sites: Sites, lookup: Lookup, url: PublicUrl, note: str = "none") -> None:
        self.sites = sites
        self.lookup = lookup
        self.url = url
        self.note = note


class Counted:
    def __init__(self, days: int) -> None:
        self.days = days


class Chicken:
    def __init__(self, egg: "Egg") -> None:
        self.egg = egg


class Egg:
    def __init__(self, chicken: Chicken) -> None:
        self.chicken = chicken


def _session() -> AsyncSession:
    # Never connects: the wiring only hands it on.
    return AsyncSession()


def test_builds_nested_classes_on_one_session_once_each() -> None:
    session, settings = _session(), Settings()
    wiring = Wiring(session, settings, PublicUrl("https://track.example"))
    report = wiring.get(Report)
    assert report.sites.session is session
    assert report.lookup.sites is report.sites
    assert report.lookup.settings is settings
    assert report.url == "https://track.example"
    assert report.note == "none"
    assert wiring.get(Report) is report
    assert wiring.get(Lookup) is report.lookup
    # Another wiring (another request) builds its own.
    assert Wiring(session, settings, PublicUrl("")).get(Report) is not report


def test_builds_the_applications_services() -> None:
    session = _session()
    storage = LocalStorage(Path("/nonexistent"))
    background = BackgroundTasks()
    maker = async_sessionmaker(class_=AsyncSession)
    wiring = Wiring(session, Settings(), storage, background, maker)
    users = wiring.get(UserService)
    things = wiring.get(ThingService)
    sites = wiring.get(SiteService)
    assert users.repository.session is session
    assert users.audit is things.audit
    assert things.sites is sites
    assert sites.storage is storage
    assert sites.background is background
    assert wiring.get(AuthService).failures.sessionmaker is maker
    # Optional values stay unset when not given (a job has no request to run tasks after).
    assert Wiring(session).get(SiteService).background is None


class Gallery:
    def __init__(self, storage: Storage, url: PublicUrl | None = None) -> None:
        self.storage = storage
        self.url = url


class NotStorage:
    async def put(self, key: str, data: bytes) -> None:
        """One of Storage's four methods: it does not fit."""


def test_a_protocol_is_filled_by_a_value_that_fits_it_in_every_wiring() -> None:
    # What fits is decided once per class of value: each wiring still gets its own value, and
    # a class that does not fit stays unfit however often it is asked about.
    for _ in range(2):
        first, second = LocalStorage(Path("/one")), LocalStorage(Path("/two"))
        assert Wiring(_session(), NotStorage(), first).get(Gallery).storage is first
        assert Wiring(_session(), second, NotStorage()).get(Gallery).storage is second
        with pytest.raises(WiringError, match=r"Gallery: no value for parameter 'storage'"):
            Wiring(_session(), NotStorage(), PublicUrl("https://a.example")).get(Gallery)
        # A str subclass fits its own parameter, and no builtin one.
        url = PublicUrl("https://b.example")
        assert Wiring(_session(), first, url).get(Gallery).url is url
        with pytest.raises(WiringError, match=r"Counted: no value for parameter 'days'"):
            Wiring(_session(), 7).get(Counted)


def test_an_unknown_parameter_is_named() -> None:
    with pytest.raises(WiringError, match=r"Counted: no value for parameter 'days'"):
        Wiring(_session()).get(Counted)


def test_a_value_not_given_is_not_made_up() -> None:
    with pytest.raises(WiringError, match=r"Lookup: no value for parameter 'settings'"):
        Wiring(_session()).get(Lookup)


def test_two_fitting_values_are_refused() -> None:
    with pytest.raises(WiringError, match=r"2 given values fit parameter 'settings'"):
        Wiring(_session(), Settings(), Settings()).get(Lookup)


def test_constructors_asking_for_each_other_are_refused() -> None:
    with pytest.raises(WiringError, match=r"Chicken -> Egg -> Chicken"):
        Wiring(_session()).get(Chicken)


def _session_reaches(source: str) -> list[int]:
    """Lines reaching a repository's session: `self.repository.session`, `Repo(s).session`,
    `repository.session`. (`self.session` is a repository's own; `done.session` is data.)"""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "session":
            owner = node.value
            if isinstance(owner, ast.Attribute | ast.Call) or (
                isinstance(owner, ast.Name) and "repo" in owner.id.lower()
            ):
                lines.append(node.lineno)
    return lines


def test_the_scan_finds_reaches() -> None:
    source = """
async def f(self, done, repository):
    await record(self.repository.session, 1)
    await Things(self.session).by_tag(1)
    await record(ThingRepository(s).session, 2)
    await record(repository.session, 3)
    cookie(done.session)
"""
    assert _session_reaches(source) == [3, 5, 6]


def test_services_and_routers_talk_to_repositories_only() -> None:
    files = sorted([*PACKAGE.glob("*/service.py"), *PACKAGE.glob("*/router.py")])
    assert len(files) > 40
    reaches = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in files
        for line in _session_reaches(path.read_text())
    ]
    assert reaches == []
