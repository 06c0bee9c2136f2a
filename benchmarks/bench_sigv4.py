"""SigV4 signing for the ``bedrock`` provider: toolwire's stdlib signer against botocore's.

Two costs, for the choice recorded in :mod:`toolwire.hop._sigv4`:

- **import**: what each signer adds to a fresh interpreter that already imported
  ``toolwire.client`` (median of 5 runs);
- **per request**: signing one 2 KB Converse body (best of 5 batches of 2000), both giving the same
  ``Authorization`` header (checked here, and in ``tests/client/test_bedrock_client.py``).

Run: ``python -m benchmarks.bench_sigv4``.
"""

from __future__ import annotations

import datetime as dt
import statistics
import subprocess
import sys
import timeit

URL = "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse"
BODY = b'{"messages":[{"role":"user","content":[{"text":"' + b"x" * 2000 + b'"}]}]}'
HEADERS = {"content-type": "application/json"}


def _import_ms(statement: str) -> float:
    """Milliseconds to run ``statement`` in a fresh interpreter that has imported the client."""
    code = (
        f"import toolwire.client, time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(5)
    ]
    return statistics.median(runs) * 1000


def run() -> None:
    """Print the table."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    from toolwire.hop._sigv4 import AwsCredentials, sign_headers

    creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "token")
    ours = AwsCredentials(creds.access_key, creds.secret_key, creds.token)

    def botocore_sign() -> tuple[str, str]:
        request = AWSRequest(method="POST", url=URL, data=BODY, headers=dict(HEADERS))
        SigV4Auth(creds, "bedrock", "us-east-1").add_auth(request)
        return request.headers["Authorization"], request.headers["X-Amz-Date"]

    auth, stamp = botocore_sign()
    moment = dt.datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)

    def toolwire_sign() -> str:
        return sign_headers("POST", URL, HEADERS, BODY, ours, "us-east-1", now=moment)["authorization"]

    assert toolwire_sign() == auth, "signatures differ"
    n = 2000
    boto_us = min(timeit.repeat(botocore_sign, number=n, repeat=5)) / n * 1e6
    ours_us = min(timeit.repeat(toolwire_sign, number=n, repeat=5)) / n * 1e6
    boto_ms = _import_ms("import botocore.auth, botocore.awsrequest, botocore.credentials")
    ours_ms = _import_ms("import toolwire.hop._sigv4")
    print("SigV4 signing (Bedrock, 2 KB body)      import (ms)  per request (us)")
    print(f"botocore SigV4Auth                      {boto_ms:11.1f}  {boto_us:16.1f}")
    print(f"toolwire.hop._sigv4 (stdlib)            {ours_ms:11.1f}  {ours_us:16.1f}")


if __name__ == "__main__":
    run()
