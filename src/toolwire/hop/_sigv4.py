"""AWS Signature Version 4 for Bedrock requests, on the standard library (no I/O).

Why not botocore's ``SigV4Auth``: measured on this machine (``benchmarks`` numbers in the
README's Bedrock section) it costs about 8x more per request than this module and needs
botocore imported (most of a second); the signature is the same, byte for byte
(``tests/client/test_bedrock_client.py`` checks it against ``SigV4Auth``). botocore is still
used, lazily, for the parts of the credential chain beyond the environment (:mod:`._aws`).

The canonical request follows the SigV4 rules for services other than S3: the path is
URI-encoded once more (Bedrock model ids in the path are already percent-encoded), header
values are trimmed and their inner whitespace collapsed, every header given is signed.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

__all__ = ["AwsCredentials", "sign_headers"]

ALGORITHM = "AWS4-HMAC-SHA256"


@dataclass(frozen=True, slots=True)
class AwsCredentials:
    """An access key pair (and session token); the secret never shows in ``repr``."""

    access_key: str
    secret_key: str = field(repr=False)
    token: str | None = field(default=None, repr=False)


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def _canonical_query(query: str) -> str:
    pairs = sorted(
        tuple(item.split("=", 1)) if "=" in item else (item, "") for item in query.split("&") if item
    )
    return "&".join(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}" for k, v in pairs)


def sign_headers(
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: bytes,
    credentials: AwsCredentials,
    region: str,
    service: str = "bedrock",
    now: _dt.datetime | None = None,
) -> dict[str, str]:
    """The headers that authenticate one request: ``authorization``, ``x-amz-date`` and, for
    temporary credentials, ``x-amz-security-token`` (add them to ``headers`` as they are)."""
    parts = urlsplit(url)
    moment = now or _dt.datetime.now(_dt.UTC)
    stamp = moment.strftime("%Y%m%dT%H%M%SZ")
    signed = {k.lower(): " ".join(v.split()) for k, v in headers.items()}
    signed["host"] = parts.netloc
    signed["x-amz-date"] = stamp
    added = {"x-amz-date": stamp}
    if credentials.token:
        signed["x-amz-security-token"] = added["x-amz-security-token"] = credentials.token
    names = sorted(signed)
    canonical = "\n".join(
        [
            method.upper(),
            quote(parts.path or "/", safe="/~"),
            _canonical_query(parts.query),
            *(f"{name}:{signed[name]}" for name in names),
            "",
            ";".join(names),
            hashlib.sha256(body).hexdigest(),
        ]
    )
    scope = f"{stamp[:8]}/{region}/{service}/aws4_request"
    to_sign = f"{ALGORITHM}\n{stamp}\n{scope}\n{hashlib.sha256(canonical.encode()).hexdigest()}"
    key = _hmac(("AWS4" + credentials.secret_key).encode(), stamp[:8])
    for step in (region, service, "aws4_request"):
        key = _hmac(key, step)
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    added["authorization"] = (
        f"{ALGORITHM} Credential={credentials.access_key}/{scope}, "
        f"SignedHeaders={';'.join(names)}, Signature={signature}"
    )
    return added
