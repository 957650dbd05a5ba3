"""Schemathesis hooks for `npm run fuzz` (loaded through SCHEMATHESIS_HOOKS=fuzz.hooks).

Random strings almost never make a valid CPF, CNPJ, amount, due date or product id, so without help
every creation would stop at a 422 and the success paths (assignors, operations, stock, payables,
credits) would never run. The schema the fuzzer reads (never the one the api serves) gets custom
formats on those fields, with strategies that draw valid values, and a valid example body per
creation route; negative generation still mutates them. Nothing here narrows what the schema
accepts (a narrower schema would turn valid values into "invalid data the api accepted"). Tokens are fetched by schemathesis itself (fuzz/schemathesis.toml, `auth.dynamic`).
Just before each call, a positive case is made valid under the rules the document cannot state
(`POSITIVE_BODIES`, fuzz/valid_bodies.py, reading stored state through fuzz/api_state.py), so that
every operation is reached with no warning; negative cases go out as generated.
"""

import base64
import datetime
import hashlib
import hmac
import json
import os
import re
import time
import uuid

import schemathesis
from hypothesis import strategies as st

from fuzz import api_state, valid_bodies

PRODUCT_IDS = os.environ["FUZZ_PRODUCT_IDS"].split(",")
POLICY_IDS = os.environ["FUZZ_POLICY_IDS"].split(",")
ASSIGNOR_IDS = os.environ["FUZZ_ASSIGNOR_IDS"].split(",")
ASSIGNOR_DOCUMENT = os.environ["FUZZ_ASSIGNOR_DOCUMENT"]
A1_PFX, A1_PASSWORD = os.environ["FUZZ_A1_PFX"], os.environ["FUZZ_A1_PASSWORD"]
STOCK_ITEM_IDS = os.environ["FUZZ_STOCK_ITEM_IDS"].split(",")
OPERATION_IDS = os.environ["FUZZ_OPERATION_IDS"].split(",")
TITLE_IDS = os.environ["FUZZ_TITLE_IDS"].split(",")
# A title of the prepared assignor (a payable's origin title), and a delivery of the prepared
# subscription (the retry route), both made by scripts/lib/contract-stack.mjs.
ASSIGNOR_TITLE_ID = os.environ["FUZZ_ASSIGNOR_TITLE_ID"]
WEBHOOK_ID = os.environ["FUZZ_WEBHOOK_ID"]
DELIVERY_ID = os.environ["FUZZ_DELIVERY_ID"]
MAX_RECEIVABLES = int(os.environ["FUZZ_MAX_RECEIVABLES"])
CANCELLABLE_OPERATION_IDS = os.environ["FUZZ_CANCELLABLE_OPERATION_IDS"].split(",")
ENROLMENT_TOKENS = os.environ["FUZZ_ENROLMENT_TOKENS"].split(",")
# The routes only an admin may call (staff accounts, role grants, audit checkpoints) want an admin,
# the decisions an approver: one userSession scheme cannot carry both, so the admin's routes, read
# from the document (`ADMIN_OPERATIONS`), get the admin token scripts/lib/fuzz.mjs fetched (valid for
# the run).
ADMIN_TOKEN = os.environ["FUZZ_ADMIN_TOKEN"]
APPROVER_ID = os.environ["FUZZ_USER_ID"]
ADMIN_SCOPE = "backoffice:admin"
ADMIN_OPERATIONS = set()
# Grants of approver the second admin asked for (scripts/lib/contract-stack.mjs): the admin above
# may confirm each, once.
ROLE_GRANT_IDS = os.environ["FUZZ_ROLE_GRANT_IDS"].split(",")
CALLBACK_SECRETS = {
    "/v1/internal/esign/callback": os.environ["FUZZ_ESIGN_CALLBACK_SECRET"],
    "/v1/internal/pix/callback": os.environ["FUZZ_PIX_CALLBACK_SECRET"],
    "/v1/internal/pix-collection/pix": os.environ["FUZZ_PIX_COLLECTION_CALLBACK_SECRET"],
    "/v1/internal/pix-collection/sweep": os.environ["FUZZ_PIX_COLLECTION_CALLBACK_SECRET"],
    "/v1/internal/registrar/callback": os.environ["FUZZ_REGISTRAR_CALLBACK_SECRET"],
}


def _check_digit(digits, weights):
    rest = sum(d * w for d, w in zip(digits, weights)) % 11
    return 0 if rest < 2 else 11 - rest


@st.composite
def cpf(draw):
    base = draw(st.lists(st.integers(0, 9), min_size=9, max_size=9).filter(lambda ds: len(set(ds)) > 1))
    base.append(_check_digit(base, range(10, 1, -1)))
    base.append(_check_digit(base, range(11, 1, -1)))
    return "".join(map(str, base))


@st.composite
def cnpj(draw):
    base = draw(st.lists(st.integers(0, 9), min_size=12, max_size=12).filter(lambda ds: len(set(ds)) > 1))
    base.append(_check_digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    base.append(_check_digit(base, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    return "".join(map(str, base))


def _future_date(days):
    return (datetime.date.today() + datetime.timedelta(days=days)).isoformat()


schemathesis.openapi.format("cpf", cpf())
schemathesis.openapi.format("cnpj", cnpj())
schemathesis.openapi.format("br-document", st.one_of(cpf(), cnpj()))
# Due dates inside the demo product's term (1 to 180 days); list filters accept any date.
schemathesis.openapi.format("date", st.integers(5, 170).map(_future_date))
schemathesis.openapi.format("dev-product", st.sampled_from(PRODUCT_IDS))
schemathesis.openapi.format("dev-policy", st.sampled_from(POLICY_IDS))
# An assignor scripts/lib/fuzz.mjs registered first, so payables and credits find one.
schemathesis.openapi.format("dev-assignor", st.sampled_from(ASSIGNOR_IDS))
# UUIDs, as the contract recommends: every write is a new request that reaches its route, rather
# than an idempotent replay or a 409 for a key reused with another body.
schemathesis.openapi.format("idempotency-key", st.uuids().map(str))
# The operation and title scripts/lib/fuzz.mjs created first, for their `{id}` routes in every phase
# (the stateful phase follows the document's links to the ones it creates itself).
schemathesis.openapi.format("dev-operation", st.sampled_from(OPERATION_IDS))
schemathesis.openapi.format("dev-title", st.sampled_from(TITLE_IDS))
# Cancelling ends an operation's contract, so cancellation gets operations of its own and the
# signers route keeps finding the contract of the others.
schemathesis.openapi.format("dev-cancellable-operation", st.sampled_from(CANCELLABLE_OPERATION_IDS))
schemathesis.openapi.format("dev-stock-item", st.sampled_from(STOCK_ITEM_IDS))
schemathesis.openapi.format("dev-assignor-document", st.just(ASSIGNOR_DOCUMENT))
# Invitations scripts/lib/fuzz.mjs made, one enrolment each (later draws of a spent one are 404s).
schemathesis.openapi.format("dev-enrolment-token", st.sampled_from(ENROLMENT_TOKENS))
PATH_ID_FORMATS = (
    ("/v1/operations/{id}/cancel", "dev-cancellable-operation"),
    ("/v1/backoffice/operations/{id}/cancel", "dev-cancellable-operation"),
    ("/v1/operations/{id}", "dev-operation"),
    ("/v1/backoffice/operations/{id}", "dev-operation"),
    ("/v1/titles/{id}", "dev-title"),
    ("/v1/backoffice/titles/{id}", "dev-title"),
    ("/v1/sandbox/titles/{id}", "dev-title"),
    ("/v1/stock/{item_id}", "dev-stock-item"),
)


def _annotate_path_ids(paths):
    for path, item in paths.items():
        fmt = next((f for prefix, f in PATH_ID_FORMATS if path.startswith(prefix)), None)
        if fmt is None:
            continue
        for operation in item.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter.get("in") == "path" and parameter.get("name") in ("id", "item_id"):
                    parameter["schema"] = {**parameter["schema"], "format": fmt}

FIELD_FORMATS = {
    "cpf": "cpf",
    "cnpj": "cnpj",
    "document": "br-document",
    "payer_document": "br-document",
    "assignor_document": "br-document",
    "holder_document": "cnpj",
    "product_id": "dev-product",
    "policy_id": "dev-policy",
    "assignor_id": "dev-assignor",
}


def _annotate(node):
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if name in FIELD_FORMATS and isinstance(schema, dict) and "string" in _types(schema):
                schema["format"] = FIELD_FORMATS[name]
        for value in node.values():
            _annotate(value)
        _split_nullable_format(node)
    elif isinstance(node, list):
        for value in node:
            _annotate(value)


def _split_nullable_format(schema):
    """`{type: [string, null], format: f}` as `anyOf: [{type: string, format: f}, {type: null}]`.

    The same schema, but schemathesis' coverage phase sends "" as a valid value of the first form
    (a server refusing "" for a uuid or a date-time is then reported as rejecting valid data).
    """
    types = schema.get("type")
    if not (isinstance(types, list) and "format" in schema and set(types) == {"string", "null"}):
        return
    string = {key: schema.pop(key) for key in list(schema) if key not in ("description", "title")}
    string["type"] = "string"
    schema["anyOf"] = [string, {"type": "null"}]


def _admin_operations(paths):
    """(METHOD, path) of each operation every security requirement of which asks for the admin scope."""
    for path, item in paths.items():
        for method, operation in item.items():
            security = operation.get("security") if isinstance(operation, dict) else None
            if security and all(ADMIN_SCOPE in scopes for requirement in security for scopes in requirement.values()):
                ADMIN_OPERATIONS.add((method.upper(), path))


def _body(paths, path, method):
    return paths[path][method]["requestBody"]["content"]["application/json"]["schema"]


def _set_format(schema, fmt):
    """On the string form of a nullable field already split by `_split_nullable_format`, or on the field."""
    strings = [member for member in schema.get("anyOf", []) if member.get("type") == "string"]
    for target in strings or [schema]:
        target["format"] = fmt


def _annotate_existing_data(paths, schemas):
    """Fields that name data which must already exist: stock registered by document names the
    prepared assignor (a random valid CPF is an assignor_not_found), anticipation names prepared
    stock items, enrolment a pending invitation."""
    stock = _body(paths, "/v1/stock", "post")
    for schema in [stock["properties"]["assignor_document"], *[branch["properties"]["assignor_document"] for branch in stock["allOf"][0]["anyOf"] if "assignor_document" in branch.get("properties", {})]]:
        _set_format(schema, "dev-assignor-document")
    schemas["StockAnticipationInput"]["properties"]["stock_item_ids"]["items"]["format"] = "dev-stock-item"
    _body(paths, "/v1/auth/enrol", "post")["properties"]["enrolment_token"]["format"] = "dev-enrolment-token"


def _restore_number_grids(node):
    """The document states JSON numbers' decimals as `x-number-grid` (a list of `multipleOf` and
    `maximum`), since float-dividing validators misread `multipleOf: 0.01`; schemathesis reads
    `multipleOf` as the exact decimal, so for it the grid becomes the `anyOf` it stands for."""
    if isinstance(node, dict):
        grid = node.get("x-number-grid")
        if grid:
            node["anyOf"] = [dict(entry) for entry in grid]
        for value in node.values():
            _restore_number_grids(value)
    elif isinstance(node, list):
        for value in node:
            _restore_number_grids(value)


def _types(schema):
    kind = schema.get("type")
    return kind if isinstance(kind, list) else [kind]


def _receivable(external_id, requested=True):
    receivable = {
        "external_id": external_id, "payer_name": "Pagador Exemplo Ltda", "payer_document": "11222333000181",
        "due_date": _future_date(30), "net_future_value": "10000.00",
    }
    if requested:
        receivable["requested_net_future_value"] = "10000.00"
    return receivable


def _examples():
    """One valid body per creation route, for the examples phase: the success paths run every time,
    and the stateful phase starts from what they created."""
    company = {"name": "Comercial Fuzz Ltda", "type": "J", "cnpj": "11444777000161", "email": "finance@fuzz.example"}
    return {
        ("/v1/simulate", "post"): {"receivables": [_receivable("FUZZ-SIM-1")]},
        ("/v1/operations/direct", "post"): {**company, "bank": {}, "receivables": [_receivable("FUZZ-OP-1")]},
        ("/v1/assignors", "post"): {"name": "Cedente Fuzz", "type": "F", "cpf": "39053344705", "email": "cedente@fuzz.example"},
        ("/v1/stock", "post"): {"assignor_document": ASSIGNOR_DOCUMENT, "items": [_receivable("FUZZ-STOCK-1", requested=False)]},
        ("/v1/stock/simulate-anticipation", "post"): {"stock_item_ids": STOCK_ITEM_IDS, "requested_net_future_value": "10000.00"},
        ("/v1/stock/request-anticipation", "post"): {"stock_item_ids": STOCK_ITEM_IDS, "requested_net_future_value": "10000.00", "bank": {}},
        ("/v1/assignor-payables", "post"): {"assignor_id": ASSIGNOR_IDS[0], "amount_brl": "300.00", "due_date": _future_date(20), "reason": "fuzz debt"},
        ("/v1/discount-credits", "post"): {"assignor_id": ASSIGNOR_IDS[0], "amount_brl": "100.00", "reason": "fuzz credit", "external_id": "FUZZ-CREDIT-1"},
        ("/v1/webhooks", "post"): {"url": "https://127.0.0.1:9/fuzz-hook", "events": ["operation.created"]},
    }


@schemathesis.hook
def before_load_schema(context, raw_schema):
    schemas = raw_schema["components"]["schemas"]
    parameters = raw_schema["components"]["parameters"]
    for name in ("IdempotencyKey", "IdempotencyKeyRequired"):
        parameters[name]["schema"] = {**parameters[name]["schema"], "format": "idempotency-key"}
    # Schemathesis' ignored_auth check can strip only apiKey and http credentials; as bearer schemes
    # (which is what these OAuth2 tokens are on the wire) it checks that each route refuses a call
    # without the token or with a wrong one.
    for name in ("clientCredentials", "userSession"):
        raw_schema["components"]["securitySchemes"][name] = {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    _admin_operations(raw_schema["paths"])
    _annotate(raw_schema["paths"])
    _annotate_path_ids(raw_schema["paths"])
    _annotate_existing_data(raw_schema["paths"], schemas)
    _annotate(schemas)
    _restore_number_grids(schemas)
    for (path, method), body in _examples().items():
        media = raw_schema["paths"][path][method]["requestBody"]["content"]["application/json"]
        media["examples"] = {"valid": {"value": body}}


# Refusals that are not the document's fault. positive_data_acceptance (ST202) reports every
# schema-valid request the api refuses; a refusal with its own structured code is a business rule
# the contract documents and a schema cannot state: arithmetic between fields
# (VALUE_DECOMPOSITION_MISMATCH), stored state (discount_credit_exceeds_open_debt, limits, stock
# item states), or where a webhook host resolves (url_*). `validation_error` and
# `idempotency_key_invalid` are refusals of shape, which the document must describe: those stay.
SHAPE_CODES = {"validation_error", "idempotency_key_invalid"}


# Comparisons between two amounts of one object (an NFV above its gross, a liquid value above the
# requested value, a percent of the NFV under one cent) and an external_id repeated across the items
# of one list: JSON Schema cannot state an order between two fields' values, nor uniqueness of one
# property across items, so a generated body may break one while matching the document.
CROSS_FIELD = re.compile(r"cannot exceed|is less than one cent|must be unique within the operation")


def _only_cross_field(response):
    try:
        errors = response.json()["detail"]["errors"]
    except (ValueError, AttributeError, KeyError, TypeError):
        return False
    return bool(errors) and all(CROSS_FIELD.search(str(error.get("msg", ""))) for error in errors)


def _refusal_code(response):
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return None
    return detail.get("code") if isinstance(detail, dict) else detail


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if failure.code != "ST202" or response is None or not 400 <= response.status_code < 500:
        return True
    # Accepted false positive: a stateful link fed a path parameter from a response field that was
    # null (an assignor payable's operation_id), and schemathesis sent it as the text "None".
    if any(value is None for value in (case.path_parameters or {}).values()):
        return False
    # Accepted false positive: a cross-field comparison of amounts the document cannot state (above).
    if _only_cross_field(response):
        return False
    code = _refusal_code(response)
    return code is None or code in SHAPE_CODES


def _bytes_sent(body):
    """The body as schemathesis' requests transport sends JSON (requests' own json.dumps)."""
    if isinstance(body, bytes):
        return body
    return json.dumps(body, allow_nan=False).encode("utf-8")


def _with_live_clock(body):
    """A generated `test_clock_id` names no clock: a positive case names a live one of the run, and
    its due dates count from the clock's time as the generated ones did from today."""
    if body.get("test_clock_id") is not None:
        clock = api_state.live_clock(body["test_clock_id"])
        body["test_clock_id"] = clock and clock[0]
        if clock is not None:
            valid_bodies.due_dates_from(body, clock[1])
    return body


# Stock items keep the due dates they were registered with, in real time: an anticipation on a
# clock years away would price them beyond their value.
NEAR_NOW = datetime.timedelta(days=30)


def _advance(case, body):
    clock_time = api_state.clock_time(case.path_parameters.get("id"))
    return body if clock_time is None else valid_bodies.advance(body, clock_time)


def _anticipation(case, body):
    ids = body.get("stock_item_ids")
    total = api_state.stock_total(ids) if isinstance(ids, list) and ids else None
    if body.get("test_clock_id") is not None:
        clock = api_state.live_clock(body["test_clock_id"], within=NEAR_NOW)
        body["test_clock_id"] = clock and clock[0]
    return valid_bodies.anticipation(body, total)


def _credit(case, body):
    credit = valid_bodies.amount(body.get("amount_brl"))
    if credit is not None and isinstance(body.get("assignor_id"), str):
        api_state.ensure_open_debt(body["assignor_id"], credit)
    return body


def _payable(case, body):
    """An origin title is one of the payable's assignor: the prepared assignor's title. (A custom
    format on the field would hide its uuid format from the coverage phase, which then sends
    "AAA" as valid.)"""
    if body.get("origin_title_id") is not None:
        body["assignor_id"], body["origin_title_id"] = ASSIGNOR_IDS[0], ASSIGNOR_TITLE_ID
    return body


def _token_request(case, body):
    """The demo client's own credentials in the body (a generated pair is never a registered
    client; HTTP Basic, the other way, is left out, as both at once are refused) and a subset of
    its scopes."""
    if case.headers:
        case.headers.pop("Authorization", None)
    body.update(api_state.CREDENTIALS)
    granted = api_state.client_scopes()
    if isinstance(body.get("scopes"), list):
        body["scopes"] = [scope for scope in body["scopes"] if scope in granted] or granted[:1]
    if isinstance(body.get("scope"), str):
        body["scope"] = " ".join(scope for scope in body["scope"].split(" ") if scope in granted) or granted[0]
    return body


def _recover(case, body):
    created_at = api_state.webhook_created_at(case.path_parameters.get("webhook_id"))
    return valid_bodies.recover_window(body, datetime.datetime.now(datetime.timezone.utc), created_at)


def _receivables(case, body, assignor):
    return valid_bodies.receivables(_with_live_clock(body), assignor, MAX_RECEIVABLES)


# Per operation, how a positive case's body is made valid under the rules the document cannot
# state (fuzz/valid_bodies.py), reading the stored state they depend on just before the call.
POSITIVE_BODIES = {
    # A simulation without an assignor compares no issuer: any valid one will do.
    ("POST", "/v1/simulate"): lambda case, body: _receivables(case, body, body.get("assignor_document") or ASSIGNOR_DOCUMENT),
    ("POST", "/v1/operations/direct"): lambda case, body: _receivables(case, body, valid_bodies.assignor_document(body)),
    ("POST", "/v1/stock"): lambda case, body: valid_bodies.stock_items(body),
    ("PATCH", "/v1/stock/{item_id}"): lambda case, body: valid_bodies.stock_patch(body, api_state.stock_item(case.path_parameters.get("item_id"))),
    ("POST", "/v1/stock/simulate-anticipation"): _anticipation,
    ("POST", "/v1/stock/request-anticipation"): _anticipation,
    ("POST", "/v1/assignor-payables"): _payable,
    ("POST", "/v1/discount-credits"): _credit,
    ("POST", "/v1/webhooks/{webhook_id}/recover"): _recover,
    ("POST", "/v1/test-clocks"): lambda case, body: valid_bodies.clock_start(body, datetime.datetime.now(datetime.timezone.utc)),
    ("POST", "/v1/test-clocks/{id}/advance"): _advance,
    ("POST", "/v1/backoffice/test-clocks/{id}/advance"): _advance,
    ("POST", "/v1/auth/token"): _token_request,
    # A valid key (check digit, model 55) and CNPJ; a generated outage would leave the escriturador down for the rest of the run.
    ("POST", "/v1/sandbox/registrar/transfers"): lambda case, body: {**valid_bodies.nfe(body, ASSIGNOR_DOCUMENT), "holder_document": valid_bodies.cnpj(body.get("holder_document"))},
    ("POST", "/v1/sandbox/registrar/outage"): lambda case, body: {**body, "seconds": 0},
    ("PUT", "/v1/assignors/{id}/nfe-certificate"): lambda case, body: {"pfx": A1_PFX, "password": A1_PASSWORD},
    # A cent on the first installment of a key whose duplicatas were issued just before (_valid_request).
    ("POST", "/v1/sandbox/registrar/settlements"): lambda case, body: {"nfe_key": valid_bodies.nfe_key(body.get("nfe_key"), ASSIGNOR_DOCUMENT), "installment": None, "amount": "0.01"},
}
CERTIFICATE_READS = {("GET", "/v1/assignors/{id}/nfe-certificate"), ("DELETE", "/v1/assignors/{id}/nfe-certificate")}
SETTLEMENT = ("POST", "/v1/sandbox/registrar/settlements")


def _pending_grant(case):
    """The next grant no call confirmed yet; the last stays, confirmed (409), once all are."""
    return {"id": ROLE_GRANT_IDS.pop(0) if len(ROLE_GRANT_IDS) > 1 else ROLE_GRANT_IDS[0]}


# Per operation, the path parameters a positive case needs that the document cannot state: data
# that must exist, or a key's check digit.
POSITIVE_PATHS = {
    # A delivery exists only once an event was delivered, and only under its subscription.
    ("POST", "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry"): lambda case: {"webhook_id": WEBHOOK_ID, "delivery_id": DELIVERY_ID},
    ("POST", "/v1/backoffice/role-grants/{id}/confirm"): _pending_grant,
    ("POST", "/v1/sandbox/nfe/{nfe_key}"): lambda case: {"nfe_key": valid_bodies.nfe_key((case.path_parameters or {}).get("nfe_key"), ASSIGNOR_DOCUMENT)},
    # The throw-away certificate is the prepared assignor's: another assignor (an id the run drew
    # from an earlier answer) is refused as certificate_not_assignors.
    **{(method, "/v1/assignors/{id}/nfe-certificate"): lambda case: {"id": ASSIGNOR_IDS[0]} for method in ("PUT", "GET", "DELETE")},
}
DELETE_WEBHOOK = ("DELETE", "/v1/webhooks/{webhook_id}")
SENT_IDEMPOTENCY_KEYS = set()


def _fresh_idempotency_key(case):
    """The coverage and examples phases send one Idempotency-Key on every write: after the first,
    a positive case would be a replay or a 409 for a key reused, never reaching its route. A key
    this run already sent is replaced by a new one, as a client does for a new request."""
    headers = case.headers or {}
    key = headers.get("Idempotency-Key")
    if isinstance(key, str) and key in SENT_IDEMPOTENCY_KEYS:
        headers["Idempotency-Key"] = str(uuid.uuid4())
    SENT_IDEMPOTENCY_KEYS.add(headers.get("Idempotency-Key"))


def _spare_prepared_webhook(case):
    """Every phase draws webhook ids from earlier answers, the prepared subscription's among them:
    a deletion of it deletes a new one instead, so that the retry route keeps its delivery."""
    if (case.operation.method.upper(), case.operation.path) == DELETE_WEBHOOK and (case.path_parameters or {}).get("webhook_id") == WEBHOOK_ID:
        case.path_parameters = {**case.path_parameters, "webhook_id": api_state.spare_webhook()}


def _without_nul_keys(value):
    """The api refuses a NUL in any key of a body as it does in any string (`allow-x00 = false` in
    fuzz/schemathesis.toml), but schemathesis applies that setting to values only, not to the keys it
    draws for an object's additional properties: a positive case keeps every other key."""
    if isinstance(value, dict):
        return {key: _without_nul_keys(item) for key, item in value.items() if "\x00" not in key}
    if isinstance(value, list):
        return [_without_nul_keys(item) for item in value]
    return value


def _valid_request(case):
    if case.meta is None or case.meta.generation.mode != "positive":
        return
    _fresh_idempotency_key(case)
    if isinstance(case.body, (dict, list)):
        case.body = _without_nul_keys(case.body)
    operation = (case.operation.method.upper(), case.operation.path)
    path = POSITIVE_PATHS.get(operation)
    if path is not None:
        case.path_parameters = {**(case.path_parameters or {}), **path(case)}
    repair = POSITIVE_BODIES.get(operation)
    if repair is not None and isinstance(case.body, dict):
        case.body = repair(case, case.body)
    # Stored state the case needs: a certificate to read or remove, duplicatas for the payer to pay.
    # Not in the stateful phase, whose chains store and remove certificates themselves and check
    # that a removed one stays gone.
    if operation in CERTIFICATE_READS and case.meta.phase.name != "stateful":
        api_state.stored_certificate(case.path_parameters.get("id"), A1_PFX, A1_PASSWORD)
    if operation == SETTLEMENT and isinstance(case.body, dict):
        api_state.issued_duplicatas(case.body["nfe_key"], valid_bodies.cnpj(None))


@schemathesis.hook
def before_call(context, case, **kwargs):
    """Makes a positive case's body valid under the rules between fields and stored state, then
    signs a provider callback as the provider does (domain/provider-signature.ts), over the bytes
    sent, when the call carries the placeholder credentials; a call stripped of them stays unsigned."""
    _staff_admin(case)
    _spare_prepared_webhook(case)
    _valid_request(case)
    secret = CALLBACK_SECRETS.get(case.operation.path)
    headers = case.headers or {}
    # Only the placeholders of fuzz/schemathesis.toml, both of them: a check that sends a wrong or a
    # missing credential must reach the api as it sent it.
    placeholders = headers.get("X-Provider-Signature") == "v1=placeholder" and headers.get("X-Provider-Timestamp") == "0"
    if secret is None or not placeholders:
        return
    try:
        body = _bytes_sent(case.body) if case.body is not None and not _is_not_set(case.body) else b""
    except (TypeError, ValueError):
        return
    timestamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    headers["X-Provider-Timestamp"] = timestamp
    headers["X-Provider-Signature"] = f"v1={digest}"
    case.headers = headers


def _staff_admin(case):
    """The approver's token becomes the admin's on the admin's routes; a missing or wrong token
    (the auth checks) reaches the api as it was sent."""
    if (case.operation.method.upper(), case.operation.path) not in ADMIN_OPERATIONS or not case.headers:
        return
    scheme, _, token = str(case.headers.get("Authorization", "")).partition(" ")
    try:
        payload = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    except (IndexError, ValueError):
        return
    if scheme == "Bearer" and isinstance(payload, dict) and payload.get("sub") == APPROVER_ID:
        case.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"


def _is_not_set(value):
    return type(value).__name__ == "NotSet"




