"""Schemathesis hooks for `npm run fuzz` (loaded through SCHEMATHESIS_HOOKS=fuzz.hooks).

Random strings almost never make a valid CPF, CNPJ, amount, due date or product id, so without help
every creation would stop at a 422 and the success paths (assignors, operations, stock, payables,
credits) would never run. The schema the fuzzer reads (never the one the api serves) gets custom
formats on those fields, with strategies that draw valid values; negative generation still mutates
them. Tokens are fetched by schemathesis itself (fuzz/schemathesis.toml, `auth.dynamic`).
"""

import datetime
import os

import schemathesis
from hypothesis import strategies as st

PRODUCT_IDS = os.environ["FUZZ_PRODUCT_IDS"].split(",")


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
# Amounts inside the demo product's and policy's ranges, as the contract's money strings.
schemathesis.openapi.format("brl", st.integers(100_00, 40_000_00).map(lambda cents: f"{cents // 100}.{cents % 100:02d}"))
schemathesis.openapi.format("pct", st.integers(150, 600).map(lambda hundredths: f"{hundredths // 100}.{hundredths % 100:02d}"))
schemathesis.openapi.format("dev-product", st.sampled_from(PRODUCT_IDS))

FIELD_FORMATS = {
    "cpf": "cpf",
    "cnpj": "cnpj",
    "document": "br-document",
    "payer_document": "br-document",
    "assignor_document": "br-document",
    "product_id": "dev-product",
}


def _annotate(node):
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if name in FIELD_FORMATS and isinstance(schema, dict) and "string" in _types(schema):
                schema["format"] = FIELD_FORMATS[name]
        for value in node.values():
            _annotate(value)
    elif isinstance(node, list):
        for value in node:
            _annotate(value)


def _types(schema):
    kind = schema.get("type")
    return kind if isinstance(kind, list) else [kind]


@schemathesis.hook
def before_load_schema(context, raw_schema):
    schemas = raw_schema["components"]["schemas"]
    schemas["MoneyInput"] = {"type": "string", "format": "brl", "description": schemas["MoneyInput"].get("description", "")}
    schemas["RateInput"] = {"type": "string", "format": "pct", "description": schemas["RateInput"].get("description", "")}
    _annotate(raw_schema["paths"])
    _annotate(schemas)
