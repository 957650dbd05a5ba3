"""What the api has stored, read (and, for a credit's debt, made) by the hooks just before a
positive case whose validity depends on it. Calls go out with the demo client's own token, so the
case's credentials (which a check may have stripped) play no part."""

import datetime
import os
import uuid
from decimal import Decimal

import requests

from fuzz.valid_bodies import amount, money

API_URL = os.environ["FUZZ_API_URL"]
CREDENTIALS = {"client_id": os.environ["FUZZ_CLIENT_ID"], "client_secret": os.environ["FUZZ_CLIENT_SECRET"]}
_session = {"token": None, "scopes": []}


def _token():
    if _session["token"] is None:
        answer = requests.post(f"{API_URL}/v1/auth/token", json=CREDENTIALS, timeout=30).json()
        _session["token"], _session["scopes"] = answer["access_token"], answer.get("scopes", [])
    return _session["token"]


def _call(method, path, **kwargs):
    """One call, signed in again once should the token have expired."""
    for _ in range(2):
        headers = {"Authorization": f"Bearer {_token()}", **kwargs.pop("headers", {})}
        response = requests.request(method, f"{API_URL}{path}", headers=headers, timeout=30, **kwargs)
        if response.status_code != 401:
            return response
        _session["token"] = None
    return response


def client_scopes():
    _token()
    return list(_session["scopes"])


def clock_time(clock_id):
    """The test clock's time; None when the id names no clock of the demo originator."""
    response = _call("GET", f"/v1/test-clocks/{clock_id}")
    if response.status_code != 200:
        return None
    return datetime.datetime.fromisoformat(response.json()["frozen_time"].replace("Z", "+00:00"))


def live_clock(clock_id, within=None):
    """`(id, time)` of `clock_id` when it names a clock of the demo originator, else of one that
    does (with `within`, one whose time is at most that far from now); None without any."""
    time = clock_time(clock_id) if clock_id is not None else None
    now = datetime.datetime.now(datetime.timezone.utc)
    if time is not None and (within is None or abs(time - now) <= within):
        return clock_id, time
    clocks = _call("GET", "/v1/test-clocks", params={"limit": 200})
    for clock in clocks.json().get("items", []) if clocks.status_code == 200 else []:
        time = datetime.datetime.fromisoformat(clock["frozen_time"].replace("Z", "+00:00"))
        if within is None or abs(time - now) <= within:
            return clock["id"], time
    return None


def webhook_created_at(webhook_id):
    """When the demo originator's endpoint `webhook_id` was created; None when it names none."""
    offset = 0
    while True:
        page = _call("GET", "/v1/webhooks", params={"limit": 100, "offset": offset})
        items = page.json().get("items", []) if page.status_code == 200 else []
        for hook in items:
            if hook["id"] == webhook_id:
                return datetime.datetime.fromisoformat(hook["created_at"].replace("Z", "+00:00"))
        if len(items) < 100:
            return None
        offset += 100


def spare_webhook():
    """The id of a new subscription of the demo originator, there to be deleted."""
    response = _call("POST", "/v1/webhooks", headers={"Idempotency-Key": str(uuid.uuid4())}, json={
        "url": "https://127.0.0.1:9/fuzz-spare-hook", "events": ["operation.created"],
    })
    return response.json()["id"]


def stock_item(item_id):
    """The stored stock item; None when the id names none of the demo originator's."""
    response = _call("GET", f"/v1/stock/{item_id}")
    return response.json() if response.status_code == 200 else None


def stock_total(item_ids):
    """The sum of the items' NFV; None when one of them cannot be read."""
    total = Decimal(0)
    for item_id in item_ids:
        item = stock_item(item_id)
        value = amount(item.get("net_future_value")) if item else None
        if value is None:
            return None
        total += value
    return total


def _open_debt(assignor_id):
    debt, offset = Decimal(0), 0
    while True:
        page = _call("GET", "/v1/assignor-payables", params={"assignor_id": assignor_id, "limit": 100, "offset": offset}).json()
        items = page.get("items", [])
        debt += sum((amount(item.get("remaining")) or Decimal(0) for item in items), Decimal(0))
        offset += len(items)
        if not items or offset >= page.get("total", 0):
            return debt


def ensure_open_debt(assignor_id, credit):
    """Opens a payable for what the assignor's open debt lacks to cover `credit`."""
    shortfall = credit - _open_debt(assignor_id)
    if shortfall <= 0:
        return
    due = (datetime.date.today() + datetime.timedelta(days=30)).isoformat()
    _call("POST", "/v1/assignor-payables", headers={"Idempotency-Key": str(uuid.uuid4())}, json={
        "assignor_id": assignor_id, "amount_brl": money(shortfall), "due_date": due, "reason": "fuzz: the debt a discount credit settles",
    })


def stored_certificate(assignor_id, pfx, password):
    """The assignor's delegated certificate stored again, so that reading or removing it finds one."""
    _call("PUT", f"/v1/assignors/{assignor_id}/nfe-certificate", headers={"Idempotency-Key": str(uuid.uuid4())}, json={"pfx": pfx, "password": password})


def issued_duplicatas(nfe_key, holder_document):
    """The key's duplicatas issued at the sandbox escriturador (taken by another financier), so a payer can pay one."""
    _call("POST", "/v1/sandbox/registrar/transfers", headers={"Idempotency-Key": str(uuid.uuid4())}, json={"nfe_key": nfe_key, "holder_document": holder_document})
