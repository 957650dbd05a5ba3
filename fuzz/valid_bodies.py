"""Generated bodies made valid under the rules a JSON Schema cannot state (pure: no I/O).

Schemathesis sends a positive case expecting the api to accept it. The document states every
field's shape, but some refusals compare two fields of one object (net = gross - deductions, the
requested value at most the NFV, both names of one value carrying one number) or compare a field
with stored state the caller reads first (a clock's time, the items' NFV). Each function here
takes a schema-valid body and returns it, still schema-valid, with those rules met; the values it
keeps are the generated ones wherever the rules allow. Negative cases never pass through here, so
the refusals stay probed.
"""

import datetime
import hashlib
import json
import re
import uuid
from decimal import ROUND_DOWN, Decimal, InvalidOperation

CENT = Decimal("0.01")
# The document's money pattern: at most 16 digits before the point.
MAX_MONEY = Decimal("9999999999999999.99")
NET = ("net_future_value", "net_face_value")
GROSS = ("gross_future_value", "gross_face_value")
REQUESTED = ("requested_net_future_value", "requested_advance_value")
DEDUCTIONS = "gross_future_value_deductions"
PERCENT = "requested_net_future_value_percent"
# Monthly rate and flat discount caps: 2% a month over the longest term a run prices (a due date
# 170 days out plus 365 floating days) and a 10% flat discount stay well under the requested value.
RATE_CAPS = {"monthly_rate_pct": Decimal(2), "discount_pct": Decimal(10)}
RATE_STEP = Decimal("0.0001")
# One advance moves a test clock at most this far (domain/test-clocks.ts).
MAX_ADVANCE = datetime.timedelta(days=730)
# A new clock starts within this of now, either side (domain/test-clocks.ts START_WINDOW_DAYS).
CLOCK_START_WINDOW = datetime.timedelta(days=730)
# domain/nfe-key.ts's shape of a key.
NFE_KEY_SHAPE = re.compile(r"\d{6}[0-9A-Z]{12}\d{26}")
CNPJ_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
# Webhook events are kept this long (a recovery's `since` must be within it).
EVENT_RETENTION = datetime.timedelta(days=30)


def amount(value):
    """A MoneyInput (number or string) as a Decimal; None when absent, null or not a number."""
    if value is None or isinstance(value, bool):
        return None
    try:
        parsed = Decimal(str(value))
    except InvalidOperation:
        return None
    return parsed if parsed.is_finite() else None


def money(value):
    return str(value.quantize(CENT))


def _first(body, names):
    return next((a for a in (amount(body.get(name)) for name in names) if a is not None), None)


def _set_present(body, names, value):
    """Every name of one value the body sent gets the same number (else VOCABULARY_CONFLICT)."""
    for name in names:
        if body.get(name) is not None:
            body[name] = money(value)


def _fraction(seed, *values):
    """A number in [0, 1) drawn from the generated values, so one case always repairs the same way."""
    digest = hashlib.sha256(json.dumps([seed, *values], default=str, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def item_values(item):
    """A receivable, stock item or stock PATCH: net = gross - deductions, gross and deductions
    together, each value's names agreeing."""
    gross_sent = any(item.get(name) is not None for name in GROSS)
    net = _first(item, NET)
    if net is None or net <= 0:
        if not gross_sent:
            return item
        # A PATCH may change the gross alone; the net it implies is sent with it.
        net = _first(item, GROSS) or Decimal("1000")
        net = net if net > 0 else Decimal("1000")
        item[NET[0]] = money(net)
    _set_present(item, NET, net)
    if gross_sent:
        deductions = max(amount(item.get(DEDUCTIONS)) or Decimal(0), Decimal(0))
        if net + deductions > MAX_MONEY:
            deductions = Decimal(0)
        _set_present(item, GROSS, net + deductions)
        item[DEDUCTIONS] = money(deductions)
    return item


def _requested_value(item):
    """The requested value within the NFV, absolute or a percent that leaves at least one cent;
    returns it as the api resolves it."""
    net = _first(item, NET) or Decimal(0)
    value = _first(item, REQUESTED)
    percent = amount(item.get(PERCENT))
    if value is not None:
        if percent is not None:
            item[PERCENT] = None
        resolved = min(max(value, CENT), net)
        _set_present(item, REQUESTED, resolved)
    elif percent is not None:
        if _share(net, percent) < CENT:
            item[PERCENT] = "100"
            percent = Decimal(100)
        resolved = _share(net, percent)
    else:
        resolved = net
        item[REQUESTED[0]] = money(net)
    return resolved


def _share(net, percent):
    return (net * percent / 100).quantize(CENT, rounding=ROUND_DOWN)


def _modest_fees(fees, requested):
    """Fees that leave something to pay out: pricing refuses a receivable whose discount reaches
    its requested value (RECEIVABLE_DISCOUNT_EXCEEDS_BASE), which depends on its days to due and
    the policy, so the rates are brought under caps that keep any due date of the run below it,
    a nominal discount under a tenth of the smallest requested value, and a liquid value wanted
    above zero and at most what is requested."""
    for name, cap in RATE_CAPS.items():
        rate = amount(fees.get(name))
        if rate is not None and rate > cap:
            fees[name] = str((rate % cap).quantize(RATE_STEP, rounding=ROUND_DOWN))
    smallest = min(requested)
    fixed = amount(fees.get("fixed_discount_brl"))
    if fixed is not None and fixed > smallest / 10:
        fees["fixed_discount_brl"] = money((smallest / 10).quantize(CENT, rounding=ROUND_DOWN))
    for name, limit in (("liquid_value_brl", smallest), ("total_liquid_value_brl", sum(requested, Decimal(0)))):
        liquid = amount(fees.get(name))
        if liquid is not None and not Decimal(0) < liquid <= limit:
            fees[name] = money(limit)


def _nfe_issuer(document):
    """The key's issuer field for an assignor document: the CNPJ, or a CPF padded with three zeros."""
    digits = re.sub(r"[^0-9A-Za-z]", "", document or "").upper()
    return "000" + digits if len(digits) == 11 else digits if len(digits) == 14 else None


def _digits(value, width):
    text = value.strip() if isinstance(value, str) else ""
    return int(text) if re.fullmatch(r"\d{1,%d}" % width, text) else None


def nfe(item, assignor_document):
    """An NF-e key (shape, check digit, model 55, the assignor as issuer, a new invoice each time)
    that the item's number, serie and issue date agree with; without a known assignor, no key."""
    if item.get("nfe_key") is None:
        return item
    issuer = _nfe_issuer(assignor_document)
    if issuer is None:
        item["nfe_key"] = None
        return item
    issued = item.get("nfe_issue_date")
    if not (isinstance(issued, str) and re.fullmatch(r"20\d\d-\d\d-\d\d", issued)):
        issued = datetime.date.today().isoformat()
        if item.get("nfe_issue_date") is not None:
            item["nfe_issue_date"] = issued
    serie, number = _digits(item.get("nfe_serie"), 3), _digits(item.get("nfe_number"), 9)
    fresh = uuid.uuid4().int
    if serie is None:
        serie = fresh % 1000
        if item.get("nfe_serie") is not None:
            item["nfe_serie"] = str(serie)
    if number is None:
        number = fresh // 1000 % 10**9
        if item.get("nfe_number") is not None:
            item["nfe_number"] = str(number)
    first43 = f"35{issued[2:4]}{issued[5:7]}{issuer}55{serie:03d}{number:09d}1{fresh // 10**12 % 10**8:08d}"
    item["nfe_key"] = first43 + str(_nfe_check_digit(first43))
    return item


def nfe_key(key, assignor_document):
    """A generated key made valid: its own characters with model 55 and the check digit that fits
    them; a fresh key of the assignor's when it lacks the document's shape."""
    if not (isinstance(key, str) and NFE_KEY_SHAPE.fullmatch(key)):
        return nfe({"nfe_key": ""}, assignor_document)["nfe_key"]
    first43 = key[:20] + "55" + key[22:43]
    return first43 + str(_nfe_check_digit(first43))


def _check_digit(chars, weights):
    """Modulo 11, characters valued as ASCII - 48, which keeps digits as they are and lets an
    alphanumeric CNPJ through (domain/documents.ts, domain/nfe-key.ts)."""
    rest = sum((ord(char) - 48) * weight for char, weight in zip(chars, weights)) % 11
    return 0 if rest < 2 else 11 - rest


def _nfe_check_digit(first43):
    """Weights 2..9 from the right."""
    return _check_digit(reversed(first43), [2 + index % 8 for index in range(len(first43))])


def cnpj(value):
    """A CNPJ as sent, kept when its check digits hold; else its first twelve characters with the
    check digits that fit them (one changed when all twelve are one digit, which no CNPJ is)."""
    stripped = re.sub(r"[.\-/\s]", "", value).upper() if isinstance(value, str) else ""
    base = stripped[:12] if re.fullmatch(r"[0-9A-Z]{12}", stripped[:12]) else "114447770001"
    if re.fullmatch(r"(\d)\1{11}", base):
        base = base[:-1] + ("1" if base[-1] != "1" else "2")
    first = _check_digit(base, CNPJ_WEIGHTS)
    whole = f"{base}{first}{_check_digit(f'{base}{first}', [6, *CNPJ_WEIGHTS])}"
    return value if whole == stripped else whole


def stock_patch(body, stored):
    """A PATCH is judged with the stored item: a net alone stays within the stored gross, and an
    NF-e number, serie or issue date sent without a key must agree with the stored key (they are
    left out then). A new key would be judged against the item's assignor, which the body does
    not name: none is sent."""
    item_values(body)
    if body.get("nfe_key") is not None:
        body["nfe_key"] = None
    if stored is None:
        return body
    gross = amount(stored.get("gross_future_value"))
    net = _first(body, NET)
    if gross is not None and net is not None and net > gross and all(body.get(name) is None for name in GROSS):
        _set_present(body, NET, gross)
    if stored.get("nfe_key"):
        for name in ("nfe_number", "nfe_serie", "nfe_issue_date"):
            if body.get(name) is not None:
                body[name] = None
    return body


def _unique_external_ids(items):
    """One operation holds each external_id once (a uniqueness JSON Schema cannot state)."""
    seen = set()
    for index, item in enumerate(items):
        external_id = item.get("external_id")
        if isinstance(external_id, str) and external_id in seen:
            suffix = f"-{index}"
            item["external_id"] = external_id[: 120 - len(suffix)] + suffix
        seen.add(item.get("external_id"))


def _distinct_receivables(items):
    """One request holds each receivable once: without an NF-e key, one of a payer and due date is
    told apart by its number (NF-e number, else `identifier`, domain/receivable-identity.ts). A
    later item of the same payer and due date goes without one, and so without an identity."""
    seen = set()
    for item in items:
        if item.get("nfe_key") is not None:
            continue
        payer = re.sub(r"[.\-/\s]", "", str(item.get("payer_document"))).upper()
        if (payer, item.get("due_date")) in seen:
            for name in ("nfe_number", "nfe_serie", "identifier"):
                if item.get(name) is not None:
                    item[name] = None
        seen.add((payer, item.get("due_date")))


def assignor_document(body):
    """The document of the assignor a body names: by document, or by its registration fields."""
    if isinstance(body.get("assignor_document"), str):
        return body["assignor_document"]
    return body.get({"F": "cpf", "J": "cnpj"}.get(body.get("type"), ""))


def receivables(body, assignor, most):
    """Simulation and direct creation: at most the policy's `most` receivables, each one's values,
    fees and NF-e, unique external ids, and the operation's fees within what is requested."""
    if isinstance(body.get("receivables"), list):
        del body["receivables"][most:]
    items = [item for item in body.get("receivables") or [] if isinstance(item, dict)]
    _unique_external_ids(items)
    requested = []
    for item in items:
        # No generated text is an NF-e signed under a root the api trusts: a positive body sends no XML.
        item.pop("nfe_xml", None)
        requested.append(_requested_value(nfe(item_values(item), assignor)))
        _modest_fees(item, requested[-1:])
    _distinct_receivables(items)
    if isinstance(body.get("fees"), dict) and requested:
        _modest_fees(body["fees"], requested)
    return body


def stock_items(body):
    items = [item for item in body.get("items") or [] if isinstance(item, dict)]
    _unique_external_ids(items)
    for item in items:
        nfe(item_values(item), assignor_document(body))
    _distinct_receivables(items)
    return body


def anticipation(body, total_nfv):
    """The stock path anticipates every selected item in full: the requested value is their sum.
    No generated text is an NF-e signed under a root the api trusts: a positive body sends no XML."""
    body.pop("nfe_xmls", None)
    if total_nfv is None or total_nfv <= 0:
        return body
    if all(body.get(name) is None for name in REQUESTED):
        body[REQUESTED[0]] = money(total_nfv)
    _set_present(body, REQUESTED, total_nfv)
    if isinstance(body.get("fees"), dict):
        _modest_fees(body["fees"], [total_nfv])
    return body


def due_dates_from(body, clock_time):
    """Each receivable's due date moved from today to the clock's date, the same days ahead."""
    today, start = datetime.date.today(), clock_time.date()
    for item in body.get("receivables") or []:
        try:
            due = datetime.date.fromisoformat(item["due_date"])
            item["due_date"] = (start + (due - today)).isoformat()
        except (TypeError, KeyError, ValueError, OverflowError):
            continue
    return body


def _instant(moment):
    return moment.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def advance(body, clock_time):
    """A clock moves forward, by at most 730 days: somewhere in (its time, its time + 730 days]."""
    step = datetime.timedelta(seconds=1) + (MAX_ADVANCE - datetime.timedelta(seconds=1)) * _fraction("advance", body.get("frozen_time"))
    # A date-time has a four-digit year: a clock near the end of 9999 advances to its last second.
    last = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.timezone.utc)
    body["frozen_time"] = _instant(clock_time + step if last - clock_time > step else last)
    return body


def clock_start(body, now):
    """A new clock's time, when sent, within two years of now either side (a day of margin)."""
    if body.get("frozen_time") is not None:
        reach = CLOCK_START_WINDOW - datetime.timedelta(days=1)
        body["frozen_time"] = _instant(now - reach + 2 * reach * _fraction("start", body.get("frozen_time")))
    return body


def recover_window(body, now, created_at=None):
    """A recovery window inside the events kept and the endpoint's life: `since` within the last
    30 days (a minute of margin) and not before the endpoint's `created_at`, before `until` when
    one is sent."""
    latest = now - datetime.timedelta(seconds=1)
    earliest = now - EVENT_RETENTION + datetime.timedelta(minutes=1)
    if created_at is not None:
        earliest = min(max(earliest, created_at), latest)
    since = latest - (latest - earliest) * _fraction("since", body.get("since"))
    body["since"] = _instant(since)
    if body.get("until") is not None:
        body["until"] = _instant(since + (now - since) * (0.5 + _fraction("until", body.get("until"))))
    return body
