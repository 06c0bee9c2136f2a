"""The pure parts of an HTTP hop: no sockets, no server, no event loop.

An :class:`~toolwire.translate.Exchange` is one hop; this package holds what it needs besides
translation: the client's HTTP request as data (:class:`InboundRequest`), the upstream call it
describes (:class:`UpstreamCall`, built with the request builders the client uses), error
translation, and the stream relay (:class:`StreamRelay`: bytes in, the client's bytes out).

Example:
    >>> ex = Exchange("gemini", "anthropic")                                    # doctest: +SKIP
    >>> call = ex.request_http(InboundRequest("POST", path, query, headers, body))
    >>> reply = http.request(call.method, call.url(base), headers=call.headers | auth, content=call.body)
    >>> client_bytes = ex.translate_stream(reply.iter_bytes())
"""

from toolwire.hop._call import (
    HOP_OPTIONS,
    ClientCall,
    InboundRequest,
    UpstreamCall,
    read_inbound,
    upstream_call,
)
from toolwire.hop._errors import decode_http_error, translate_error
from toolwire.hop._relay import KEEPALIVES, StreamRelay, relay_stream

__all__ = [
    "HOP_OPTIONS",
    "KEEPALIVES",
    "ClientCall",
    "InboundRequest",
    "StreamRelay",
    "UpstreamCall",
    "decode_http_error",
    "read_inbound",
    "relay_stream",
    "translate_error",
    "upstream_call",
]
