"""The web client in a real browser: Debian's chromium driven by Playwright.

People play whole seeded games by clicking, as a person would: gems in the
supply, cards, decks, the tokens to give back, the payment, the noble, then
Confirm. The tests skip when Playwright or chromium is missing, unless
``SPLENDOR_BROWSER_TESTS=required`` (as ``nox -s server`` sets it). The
screenshots go to ``build/screenshots/``.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from splendor import CARDS_BY_ID, GameRecord, GreedyBot, PlayerView, from_json
from splendor.core.actions import Action, Buy
from splendor.draw.palette import TIER_BACK
from splendor.players.levels import LEVELS
from splendor.server import create_app

REQUIRED = os.environ.get("SPLENDOR_BROWSER_TESTS") == "required"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _skip_or_fail(reason: str) -> None:
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason, allow_module_level=True)


try:
    import uvicorn
    from playwright.sync_api import (
        Browser,
        Page,
        Response,
        ViewportSize,
        expect,
        sync_playwright,
    )
except ImportError as missing:  # pragma: no cover - depends on the environment
    _skip_or_fail(f"the browser tests need the [server] extra and playwright: {missing}")
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the environment
    _skip_or_fail("the browser tests need Debian's chromium (apt-get install chromium)")

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000
#: The deal of the two-person game: it asks for tokens back, a payment and a noble choice.
SEED = 18


class LiveServer:
    """The server on a free port of 127.0.0.1, in a thread, with a fresh database."""

    def __init__(self, db: Path, bot_delay: float, engines: dict[str, str] | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        app = create_app(db, bot_delay=bot_delay, allow_seeds=True, engines=engines)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=65536
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "games.db", bot_delay=0.05)
    yield server
    server.stop()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def message_of(page: Page) -> dict[str, Any]:
    """The latest ``state`` message the page drew."""
    text = page.evaluate("JSON.stringify(window.splendor.message)")
    result: dict[str, Any] = json.loads(text)
    return result


def wait_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "(v) => window.splendor.message && window.splendor.message.version >= v",
        arg=version,
        timeout=TIMEOUT_MS,
    )


class Chooser:
    """Picks each move from the page's legal actions, and counts the choices it clicked.

    Mostly a greedy player; early on it reserves blind, in the middle it
    prefers takes that go over the token limit (so tokens are given back),
    and when a purchase can be paid in several ways it pays with the most gold.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.clicked = {"returns": 0, "payment": 0, "noble": 0, "blind": 0}
        #: The kinds of moves with a card whose last-move line was checked.
        self.described: set[str] = set()

    def choose(self, message: dict[str, Any]) -> dict[str, Any]:
        legal: list[dict[str, Any]] = message["legal"]
        version: int = message["version"]
        if version % 6 < 2 and version < 30:
            for item in legal:
                if item["type"] == "reserve_deck":
                    return item
        if 8 <= version < 40:
            over = [a for a in legal if a["type"] == "take" and a.get("returned")]
            if over:
                return over[version % len(over)]
        seen: PlayerView = from_json(json.dumps(message["view"]), PlayerView)
        actions = [from_json(json.dumps(item), Action) for item in legal]
        chosen = GreedyBot()(seen, actions, random.Random(self.seed * 1000 + version))
        picked = legal[actions.index(chosen)]
        if isinstance(chosen, Buy):
            same = [a for a in legal if a["type"] == "buy" and a["card"] == picked["card"]]
            same = [a for a in same if a.get("noble") == picked.get("noble")]
            picked = max(same, key=lambda a: (a["payment"].get("gold", 0), json.dumps(a)))
        return picked


def click_move(page: Page, action: dict[str, Any], chooser: Chooser) -> None:
    """Compose ``action`` by clicking, as a person would, and confirm it."""
    kind = action["type"]
    if kind == "take":
        for gem, n in action["gems"].items():
            for _ in range(n):
                page.click(f"#bank [data-gem={gem}]")
        page.click("[data-act=take]")
    elif kind in ("reserve", "buy"):
        card = action["card"]
        on_board = page.locator(f"#board [data-card='{card}']")
        if on_board.count():
            on_board.click()
        else:
            page.click(f"#players .me [data-card='{card}']")
        page.click(f"[data-act={kind}]")
    elif kind == "reserve_deck":
        chooser.clicked["blind"] += 1
        page.click(f"#board [data-deck='{action['tier']}']")
    else:
        page.click("[data-act=pass]")
    for gem, n in action.get("returned", {}).items():
        if not chooser.clicked["returns"]:
            shot(page, f"composing-returns-{page.viewport_size['width']}")  # type: ignore[index]  # set on every page here
        chooser.clicked["returns"] += 1
        for _ in range(n):
            page.click(f"#composer [data-return={gem}]")
    if page.locator("#composer [data-act=pay]").count():
        if not chooser.clicked["payment"]:
            shot(page, "composing-payment")
        chooser.clicked["payment"] += 1
        gems = ("white", "blue", "green", "red", "black", "gold")
        key = ",".join(str(action["payment"].get(g, 0)) for g in gems)
        page.click(f"#composer [data-pay='{key}']")
    if page.locator("#composer [data-act=noble]").count():
        chooser.clicked["noble"] += 1
        page.click(f"#composer [data-noble-choice='{action['noble']}']")
    page.click("#composer [data-act=confirm]")


def play_to_the_end(pages: dict[int, Page], chooser: Chooser, watch: Page) -> dict[str, Any]:
    """The seats' pages play by clicking until the game is over; the last message."""
    for turn in range(400):
        message = message_of(watch)
        if message["over"]:
            return message
        mover = message["view"]["current_player"]
        version = message["version"]
        if mover in pages:
            page = pages[mover]
            wait_version(page, version)
            mine = message_of(page)
            assert mine["version"] == version
            assert mine["legal"], f"seat {mover} has no legal action at version {version}"
            click_move(page, chooser.choose(mine), chooser)
        wait_version(watch, version + 1)
        last = message_of(watch)["last"]["action"]
        if "card" in last and last["type"] not in chooser.described:
            # The last move names the card and says what it is: a bought card is on no board.
            card = CARDS_BY_ID[last["card"]]
            described = (
                f"card #{card.id} (tier {card.tier} {card.bonus.value}, "
                f"{plural(card.points, 'point')}, cost "
            )
            # The page draws each message as it sets it, and may already show
            # the next move (a bot's, made at once): read the version and the
            # text together, and judge the text while it shows this move.
            shown = watch.evaluate(
                "() => ({version: window.splendor.message.version,"
                " text: document.querySelector('.last-move').textContent})"
            )
            if shown["version"] == version + 1:
                assert described in shown["text"], shown["text"]
                chooser.described.add(last["type"])
        if turn == 6:
            shot(watch, "mid-game-watch")
    raise AssertionError("the game did not end")


def not_found(page: Page) -> list[str]:
    """The addresses the page will have asked for and not found (the icon included)."""
    missing: list[str] = []

    def note(response: Response) -> None:
        if response.status == 404:
            missing.append(response.url)

    page.on("response", note)
    return missing


def highlighted(page: Page) -> list[str]:
    """The seats whose player panel stands out: an outline, or another shadow than a plain one."""
    found: list[str] = page.evaluate(
        """() => {
            const players = document.getElementById('players');
            const plain = document.createElement('section');
            plain.className = 'player panel';
            players.append(plain);
            const usual = getComputedStyle(plain).boxShadow;
            plain.remove();
            return [...players.querySelectorAll('.player')]
                .filter((p) => getComputedStyle(p).outlineStyle !== 'none'
                    || getComputedStyle(p).boxShadow !== usual)
                .map((p) => p.dataset.seat);
        }"""
    )
    return found


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def rgb(colour: str) -> str:
    """``#3f7d4e`` as the browser's computed styles write it: ``rgb(63, 125, 78)``."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def test_two_people_open_a_table_in_the_lobby_and_play_a_whole_game(
    browser: Browser, live: LiveServer
) -> None:
    laptop = browser.new_context(viewport=LAPTOP)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    lobby = laptop.new_page()
    missing = not_found(lobby)
    lobby.goto(f"{live.url}/?seed={SEED}")
    lobby.select_option("select[name=kind1]", "person")
    lobby.fill("input[name=name0]", "Ada")
    lobby.fill("input[name=name1]", "Bo")
    lobby.click("button[type=submit]")
    links = [lobby.get_attribute(f"[data-seat-link='{seat}']", "href") for seat in (0, 1)]
    spectator = lobby.get_attribute("[data-spectator-link]", "href")
    assert all(links)
    assert spectator
    shot(lobby, "lobby")
    # The links to send open in a new tab; the one who opened the table takes a seat here.
    for seat in (0, 1):
        take = lobby.locator(f"[data-take-seat='{seat}']")
        assert take.get_attribute("href") == links[seat]
        assert take.get_attribute("target") is None
        assert lobby.get_attribute(f"[data-seat-link='{seat}']", "target") == "_blank"
    lobby.click("[data-take-seat='0']")
    lobby.wait_for_url(str(links[0]))
    assert laptop.pages == [lobby]
    ada = lobby

    bo = phone.new_page()
    watch = browser.new_page(viewport=LAPTOP)
    bo.goto(str(links[1]))
    watch.goto(str(spectator))
    for page in (ada, bo, watch):
        wait_version(page, 0)
    expect(ada.locator("#status")).to_have_text("Your turn")
    expect(bo.locator("#status")).to_have_text("Ada to move")
    expect(watch.locator("#composer")).to_be_hidden()
    # The icon is found (the page links it; browsers also ask for /favicon.ico).
    assert ada.evaluate("document.querySelector('link[rel=icon]').href").endswith("/favicon.svg")
    assert ada.request.get(f"{live.url}/favicon.ico").status == 200
    assert missing == []
    # The decks' backs have the colours of the SVG pictures, tier by tier.
    for tier, colour in TIER_BACK.items():
        back = ada.locator(f"#board [data-deck='{tier}']")
        assert rgb(colour) in back.evaluate("(node) => getComputedStyle(node).backgroundImage")
    # Every face-up card shows its id, as the moves name it.
    for card in ada.locator("#board [data-card]").all():
        expect(card.locator(".card-id")).to_have_text(f"#{card.get_attribute('data-card')}")

    chooser = Chooser(seed=SEED)
    first = chooser.choose(message_of(ada))
    click_move(ada, first, chooser)
    wait_version(bo, 1)
    # Live: Bo's page shows Ada's move without reloading, with the last move marked.
    expect(bo.locator(".last-move")).to_contain_text("Ada ")
    expect(bo.locator("#players [data-seat='0']")).to_have_class("player panel moved-last")
    expect(bo.locator("#players [data-seat='0'] .last-tag")).to_have_text("last move")
    expect(bo.locator("#status")).to_have_text("Your turn")
    # One highlight: the seat to move (Bo), not the last mover too.
    assert highlighted(bo) == ["1"]
    assert highlighted(watch) == ["1"]
    shot(ada, "laptop-early")
    shot(bo, "phone-early")

    final = play_to_the_end({0: ada, 1: bo}, chooser, watch)
    for page in (ada, bo, watch):
        wait_version(page, final["version"])
        expect(page.locator("#status")).to_have_text("Game over")
        expect(page.locator("#result")).to_be_visible()
    winners = [final["seats"][s]["name"] for s in final["result"]["winners"]]
    expect(watch.locator("#result h2")).to_contain_text(winners[0])
    for seat, name in enumerate(("Ada", "Bo")):
        points = final["result"]["points"][seat]
        expect(watch.locator("#result")).to_contain_text(f"{name}: {plural(points, 'point')}")
    assert "buy" in chooser.described
    shot(ada, "laptop-game-over")
    shot(bo, "phone-game-over")
    # This seed's game has every kind of choice to click through.
    assert all(chooser.clicked[kind] > 0 for kind in chooser.clicked), chooser.clicked
    # The record downloads from the game-over panel and replays to the same result.
    with watch.expect_download() as download:
        watch.click("#result a")
    record = from_json(Path(download.value.path()).read_text(), GameRecord)
    assert list(record.final_state().winners) == final["result"]["winners"]
    assert len(record.actions) == final["version"]
    laptop.close()
    phone.close()


def test_a_person_plays_a_bot_and_a_dropped_connection_comes_back(
    browser: Browser, live: LiveServer
) -> None:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(live.url + "/")
    created = page.evaluate(
        """async () => (await fetch('/api/tables', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seed: 5, seats: [{kind: 'person', name: 'Cy'},
                                                   {kind: 'bot', bot: 'greedy'}]})})).json()"""
    )
    page.goto(created["seats"][0]["link"])
    wait_version(page, 0)
    chooser = Chooser(seed=5)
    for _ in range(3):
        message = message_of(page)
        click_move(page, chooser.choose(message), chooser)
        wait_version(page, message["version"] + 2)  # the bot answers
    before = message_of(page)
    # Drop the connection: the page reconnects by itself and shows the same view.
    page.evaluate("window.splendor.socket.close()")
    expect(page.locator("#connection")).to_have_text("● live", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => window.splendor.socket.readyState === 1 && window.splendor.message",
        timeout=TIMEOUT_MS,
    )
    after = message_of(page)
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    watch = browser.new_page(viewport=PHONE)
    watch.goto(created["spectator"])
    wait_version(watch, before["version"])
    final = play_to_the_end({0: page}, chooser, watch)
    expect(page.locator("#status")).to_have_text("Game over")
    expect(page.locator("#result")).to_contain_text("Cy:")
    assert final["result"]["winners"]
    shot(watch, "phone-bot-game-over")


def test_the_lobby_offers_the_operators_engines_and_one_plays(
    browser: Browser, tmp_path: Path
) -> None:
    engine = f"engine:{shlex.quote(sys.executable)} -m splendor engine greedy"
    server = LiveServer(tmp_path / "games.db", bot_delay=0.05, engines={"mine": engine})
    try:
        page = browser.new_page(viewport=LAPTOP)
        page.goto(f"{server.url}/?seed=7")
        expect(page.locator("select[name=kind0] option[value='bot:mine']")).to_have_text(
            "mine (engine)"
        )
        page.select_option("select[name=kind0]", "bot:mine")
        page.select_option("select[name=kind1]", "person")
        page.click("button[type=submit]")
        page.click("[data-take-seat='1']")
        wait_version(page, 1)  # the engine, started by the server, moved first
        message = message_of(page)
        assert message["seats"][0]["bot"] == "mine"
        expect(page.locator("#status")).to_have_text("Your turn")
    finally:
        server.stop()


def test_the_lobby_offers_the_levels_and_one_plays(browser: Browser, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", bot_delay=0.05)
    try:
        page = browser.new_page(viewport=LAPTOP)
        page.goto(f"{server.url}/?seed=7")
        options = page.locator("select[name=kind0] option[value^='bot:level:']")
        expect(options).to_have_count(len(LEVELS))
        expect(options.first).to_have_text(f"Level 1: {LEVELS[0].name}")
        page.select_option("select[name=kind0]", "bot:level:3")
        page.select_option("select[name=kind1]", "person")
        page.click("button[type=submit]")
        page.click("[data-take-seat='1']")
        wait_version(page, 1)  # level 3's bot moved first
        message = message_of(page)
        assert message["seats"][0]["bot"] == "level:3"
        expect(page.locator("#status")).to_have_text("Your turn")
    finally:
        server.stop()
