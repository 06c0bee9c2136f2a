"""A deliberately naive, spec-literal SSE parser used as the test oracle.

It follows the WHATWG "event stream interpretation" steps one line at a time over the whole
decoded text, with the two documented toolwire additions (``close`` flushes an unterminated
last event; ``dispatch_empty``), and shares no code with :mod:`toolwire.framing.sse`.
"""

from __future__ import annotations

import re

from toolwire.framing import SSEEvent

_LINE_END = re.compile(r"\r\n|\r|\n")


def reference_parse(raw: bytes, *, comments: bool = False, dispatch_empty: bool = False) -> list[SSEEvent]:
    """Parse a complete byte stream (then end it) the slow, obvious way."""
    text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_END.split(text)
    if lines[-1] == "":
        lines.pop()  # the stream ended with a line ending: no unterminated last line
    lines.append("")  # end of stream dispatches (toolwire addition)
    out: list[SSEEvent] = []
    data_buffer, event_type, last_id, retry, fields = "", "", None, None, False
    for line in lines:
        if line == "":
            if data_buffer or (dispatch_empty and fields):
                if data_buffer.endswith("\n"):
                    data_buffer = data_buffer[:-1]
                out.append(SSEEvent(event_type or None, data_buffer, last_id, retry))
            data_buffer, event_type, retry, fields = "", "", None, False
            continue
        if line.startswith(":"):
            if comments:
                text_ = line[1:]
                out.append(SSEEvent(None, "", last_id, None, text_[1:] if text_.startswith(" ") else text_))
            continue
        if ":" in line:
            field, value = line.split(":", 1)
            if value.startswith(" "):
                value = value[1:]
        else:
            field, value = line, ""
        if field == "data":
            data_buffer += value + "\n"
        elif field == "event":
            event_type = value
        elif field == "id":
            if "\0" not in value:
                last_id = value
        elif field == "retry":
            if value and all(c in "0123456789" for c in value):
                retry = int(value)
        else:
            continue
        fields = True
    return out
