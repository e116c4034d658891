"""What the server serves of the web client: the icon, the pages' links, the styles' classes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from splendor.server import create_app
from splendor.server.app import STATIC


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.db", bot_delay=0)) as test_client:
        yield test_client


def test_favicon_ico_is_the_svg_icon(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.content == (STATIC / "favicon.svg").read_bytes()
    assert ET.fromstring(icon.text).tag == "{http://www.w3.org/2000/svg}svg"
    linked = client.get("/static/favicon.svg")
    assert linked.status_code == 200
    assert linked.content == icon.content


@pytest.mark.parametrize("path", ["/", "/t/some-table"])
def test_every_page_links_the_icon_and_the_palette(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page.text)
    assert sheets == ["/static/palette.css", "/static/style.css"]
    for href in [*sheets, "/static/app.js"]:
        assert client.get(href).status_code == 200, href


def rule(css: str, selector: str) -> str:
    """The declarations of the rule for exactly ``selector`` (empty if there is none)."""
    found = re.search(rf"(?m)^{re.escape(selector)} \{{([^}}]*)\}}", css)
    return found.group(1) if found else ""


def test_only_the_seat_to_move_is_highlighted(client: TestClient) -> None:
    css = client.get("/static/style.css").text
    assert "outline" in rule(css, ".player.to-move")
    # The last mover is marked by a tag in its heading, not by a second highlight.
    assert rule(css, ".player.moved-last") == ""
    assert ".player.moved-last" not in css
    script = client.get("/static/app.js").text
    assert '"tag last-tag"' in script


def test_a_seat_can_be_taken_in_the_tab_that_opened_the_table(client: TestClient) -> None:
    script = client.get("/static/app.js").text
    take = re.search(r'el\("a", \{ href: seat\.link, "data-take-seat"[^}]*\}', script)
    assert take is not None
    assert "target" not in take.group(0)
    share = re.search(r'el\("a", \{ href: seat\.link, "data-seat-link"[^}]*\}', script)
    assert share is not None
    assert 'target: "_blank"' in share.group(0)


def test_the_cards_show_their_ids_and_the_last_move_says_what_the_card_is(
    client: TestClient,
) -> None:
    script = client.get("/static/app.js").text
    assert 'el("span", { class: "card-id" }, `#${id}`)' in script
    assert "cardText(action.card)" in script
