"""End to end: a claim the real pipeline flags reaches its owner's queue, is approved in
the web page (headless Chromium), lands on `approved` exactly once as a reviewed record,
and becomes a memory: the same claim published again is blocked as its duplicate."""

from __future__ import annotations

import orjson
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from tests.integration.review.test_review_faults import read_all, review_env
from tests.support.browser import chromium, screenshot
from tests.support.pipeline_harness import Pipeline
from tests.support.redis_server import free_port
from tests.support.review import ReviewProcess, Signer

pytestmark = pytest.mark.integration

T = "acme-e2e"
CONTENT = "The billing export may time out under heavy load on Mondays"


def claim(claim_id: str) -> bytes:
    return orjson.dumps(
        {
            "claim_id": claim_id,
            "tenant_id": T,
            "user_id": "alice",
            "content": CONTENT,
            "memory_type": "fact",
            "source": "ai_synthesis",
        }
    )


def test_flagged_claim_is_approved_in_the_page_once_and_becomes_a_memory(
    bootstrap_servers, redis_url, unique_prefix, tmp_path
):
    p = Pipeline(bootstrap_servers, redis_url, unique_prefix, partitions=2, log_dir=tmp_path)
    p.create_topics()
    signer = Signer.new()
    port = free_port()
    service = ReviewProcess(review_env(p, signer, port), port, tmp_path / "review.log")
    driver = None
    try:
        p.start_worker()
        service.start()
        service.wait_ready()
        p.produce([claim("e2e-1")], key_of=lambda _: T.encode())

        driver = chromium(tmp_path / "profile")
        driver.get(f"http://localhost:{port}/")
        wait = WebDriverWait(driver, 90)
        wait.until(ec.visibility_of_element_located((By.ID, "token"))).send_keys(
            signer.token(T, "alice")
        )
        driver.find_element(By.CSS_SELECTOR, "#sign-in-form button").click()
        script = (
            "return Array.from(document.querySelectorAll('#items .content'), e => e.textContent)"
        )
        wait.until(lambda d: d.execute_script(script) == [CONTENT])  # refreshes by itself
        screenshot(driver, "review-e2e-pending")
        driver.execute_script("document.querySelector('#items .approve').click()")
        wait.until(lambda d: d.execute_script(script) == [])
        screenshot(driver, "review-e2e-approved")

        t = p.settings.topics
        approved = [
            doc for topic, doc in read_all(p, [t.approved]) if doc["claim"]["claim_id"] == "e2e-1"
        ]
        assert len(approved) == 1, approved
        assert approved[0]["review"]["decision"] == "approve"
        assert approved[0]["review"]["reviewer"] == "alice"
        assert approved[0]["validation"]["tier"] == "flag_review"

        p.produce([claim("e2e-2")], key_of=lambda _: T.encode())
        blocked: list[dict] = []
        for _ in range(30):
            blocked = [
                doc
                for topic, doc in read_all(p, [t.blocked], quiet_s=1.0)
                if doc["claim"]["claim_id"] == "e2e-2"
            ]
            if blocked:
                break
        assert len(blocked) == 1, "the identical claim must be blocked"
        assert blocked[0]["validation"]["reason_code"] == "duplicate"
        assert blocked[0]["duplicate_of"] == "e2e-1"
        # and approved still holds the first claim exactly once
        again = [d for _, d in read_all(p, [t.approved]) if d["claim"]["claim_id"] == "e2e-1"]
        assert len(again) == 1
    finally:
        if driver is not None:
            driver.quit()
        service.stop()
        p.close()
