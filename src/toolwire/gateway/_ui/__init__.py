"""The gateway's trace viewer: the ``/ui`` pages (server-rendered HTML, one CSS and one JS file).

Pure page builders (``_list``, ``_detail``, ``_timeline``, ``_pages``, ``_html``), the JSON path to
text span mapper (``_jsonspan``), the key check (``_auth``) and the ASGI shell (``_app``) the
gateway mounts at ``/ui``.
"""

from toolwire.gateway._ui._app import TraceSource, TraceUI
from toolwire.gateway._ui._source import StoreTraces

__all__ = ["StoreTraces", "TraceSource", "TraceUI"]
