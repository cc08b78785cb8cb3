"""The reviewers' page in a real headless Chromium (Debian's package) against the real
service and Redis: sign in, see only your own claims with why they are here, approve
with a click, reject with the keyboard and a reason, and hostile claim text stays text.
Screenshots of the queue go to build/test-output/review-*.png."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from groundwire.streams.review.config import ReviewConfig
from groundwire.streams.review.store import NewItem, ReviewStore
from tests.support.browser import chromium, screenshot
from tests.support.names import RUN
from tests.support.redis_server import free_port
from tests.support.review import ReviewProcess, Signer, flagged, record_bytes

pytestmark = pytest.mark.integration

T = "acme"
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture
def page_env(redis_url, tmp_path):
    signer = Signer.new()
    prefix = f"{RUN}:rvpage:{time.time_ns()}"
    port = free_port()
    env = {
        "GROUNDWIRE_REDIS_URL": redis_url,
        "GROUNDWIRE_METRICS_PORT": "0",
        "GROUNDWIRE_WORKER_ID": f"page-{port}",
        "GROUNDWIRE_REVIEW__PORT": str(port),
        "GROUNDWIRE_REVIEW__REDIS_PREFIX": prefix,
        "GROUNDWIRE_REVIEW__AUTH__JWKS": signer.jwks,
    }
    import os

    service = ReviewProcess({**os.environ, **env}, port, tmp_path / "review.log")
    service.start(components="api")
    service.wait_ready()
    driver = chromium(tmp_path / "profile")
    yield signer, prefix, service, driver, redis_url
    driver.quit()
    service.stop()

    async def clean() -> None:
        client = aioredis.Redis.from_url(redis_url)
        async for key in client.scan_iter(match=f"{prefix}:*"):
            await client.delete(key)
        await client.aclose()

    asyncio.run(clean())


def enqueue(redis_url: str, prefix: str, claims: list[tuple[str, str, dict]]) -> None:
    async def put() -> None:
        client = aioredis.Redis.from_url(redis_url)
        store = ReviewStore(client, ReviewConfig(redis_prefix=prefix))
        items = []
        for n, (user, content, kwargs) in enumerate(claims):
            r = flagged(T, user, content, **kwargs)
            ms = int(r.routed_at.timestamp() * 1000) + n
            items.append(NewItem(T, user, r.claim.claim_id, ms, record_bytes(r), f"t:0:{n}"))
        await store.enqueue(items)
        await client.aclose()

    asyncio.run(put())


def sign_in(driver, service: ReviewProcess, token: str) -> None:
    # localhost, not 127.0.0.1: Chromium treats http://localhost as a secure context and
    # keeps the service's Secure, __Host- session cookie there (docs/operations.md).
    driver.get(f"http://localhost:{service.port}/")
    wait = WebDriverWait(driver, 15)
    wait.until(ec.visibility_of_element_located((By.ID, "token"))).send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button").click()
    wait.until(ec.visibility_of_element_located((By.ID, "queue")))


def contents(driver) -> list[str]:
    """Read in one script: the list re-renders every few seconds, so element handles held
    across two calls may go stale."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#items .content'), e => e.textContent)"
    )


def texts(driver, selector: str) -> list[str]:
    script = "return Array.from(document.querySelectorAll(arguments[0]), e => e.textContent)"
    return driver.execute_script(script, selector)


def wait_contents(driver, predicate, timeout: float = 15) -> list[str]:
    WebDriverWait(driver, timeout).until(lambda d: predicate(contents(d)))
    return contents(driver)


def test_sign_in_approve_reject_isolation_and_hostile_text(page_env):
    signer, prefix, service, driver, redis_url = page_env
    turn = "We measured it: the server may time out under load above 500 rps."
    start = turn.index("the server may time out")
    enqueue(
        redis_url,
        prefix,
        [
            (
                "alice",
                "The server may time out under load",
                {
                    "turns": [("t-1", turn)],
                    "spans": [("t-1", start, start + len("the server may time out under load"))],
                },
            ),
            ("alice", "Connections typically finish within 100 ms", {}),
            ("bob", "Bob's secret claim that Alice must never see", {}),
            ("alice", XSS, {}),
        ],
    )
    sign_in(driver, service, signer.token(T, "alice"))
    shown = wait_contents(driver, lambda c: len(c) == 3)
    assert shown == [
        XSS,
        "Connections typically finish within 100 ms",
        "The server may time out under load",
    ], "newest first, only alice's"
    assert not any("Bob" in c for c in shown), "another user's claim is invisible"
    # hostile text is text: visible as typed, no element made from it, no dialog
    assert texts(driver, "#items img") == []
    assert driver.execute_script("return window.__dialogs") == []
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert  # noqa: B018
    # why it is here: reason code, failed checks, the evidence span highlighted in its turn
    assert "technical_hedge" in texts(driver, "#items .reason-code")
    assert "technical_hedge: may" in texts(driver, "#items .checks li")
    marks = texts(driver, "#items mark")
    assert marks == ["the server may time out under load"]
    screenshot(driver, "review-queue")

    # approve the selected (newest) item with the mouse ...
    driver.execute_script("document.querySelector('#items .approve').click()")
    wait_contents(driver, lambda c: XSS not in c and len(c) == 2)
    # ... and reject the next one with the keyboard and a reason
    driver.find_element(By.TAG_NAME, "body").send_keys("r")
    reason = WebDriverWait(driver, 5).until(
        lambda d: next(
            e for e in d.find_elements(By.CSS_SELECTOR, ".reject-reason") if e.is_displayed()
        )
    )
    reason.send_keys("We measured 20 ms, not 100", Keys.ENTER)
    left = wait_contents(driver, lambda c: len(c) == 1)
    assert left == ["The server may time out under load"]
    status = driver.find_element(By.ID, "status").text
    assert status.startswith("Rejected: Connections typically")
    screenshot(driver, "review-queue-after-decisions")
    # the page updates by itself: a claim queued now shows up without a reload
    enqueue(redis_url, prefix, [("alice", "Jobs usually retry three times", {})])
    wait_contents(driver, lambda c: "Jobs usually retry three times" in c, timeout=20)
    assert driver.execute_script("return window.__dialogs") == []

    # bob signs in elsewhere and sees his own claim only
    driver.delete_all_cookies()
    sign_in(driver, service, signer.token(T, "bob"))
    assert wait_contents(driver, lambda c: len(c) == 1) == [
        "Bob's secret claim that Alice must never see"
    ]
    screenshot(driver, "review-queue-bob")


def test_a_bad_token_is_refused_on_the_page(page_env):
    _, _, service, driver, _ = page_env
    driver.get(f"http://localhost:{service.port}/")
    WebDriverWait(driver, 15).until(ec.visibility_of_element_located((By.ID, "token"))).send_keys(
        Signer.new().token(T, "alice")
    )
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button").click()
    WebDriverWait(driver, 10).until(
        lambda d: "Sign-in failed" in d.find_element(By.ID, "sign-in-error").text
    )
    assert not driver.find_element(By.ID, "queue").is_displayed()
    assert driver.get_cookies() == []
