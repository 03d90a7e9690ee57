"""An OTLP/gRPC receiver standing in for Jaeger in the deploy tier, run in the taumesh image itself.

    python -m tests.deploy.otlp_sink OUT_FILE [PORT]

Jaeger's image cannot be pulled where no registry is reachable, so the deploy tier's compose overlay runs this in
its place (same service name, same port 4317): every span the five services export is kept, and the whole set is
written to ``OUT_FILE`` as JSON lines (one :class:`~tests.telemetry.receiver.ReceivedSpan` a line) whenever new
spans came in, by an atomic rename, so the test on the host reads a complete file at any moment.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sys
import threading
from pathlib import Path

from tests.telemetry.receiver import OtlpReceiver

WRITE_EVERY = 0.5
"""Seconds between looks for new spans."""


def write_spans(receiver: OtlpReceiver, out: Path) -> int:
    """Every span so far to ``out`` (whole file, replaced atomically); returns how many."""
    spans = receiver.spans()
    partial = out.with_name(out.name + ".partial")
    with partial.open("w", encoding="utf-8") as file:
        for span in spans:
            file.write(json.dumps(dataclasses.asdict(span), default=str) + "\n")
    os.replace(partial, out)
    return len(spans)


def main(argv: list[str]) -> None:
    out = Path(argv[0])
    port = int(argv[1]) if len(argv) > 1 else 4317
    receiver = OtlpReceiver(host="0.0.0.0", port=port)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"OTLP receiver on :{receiver.port}, spans to {out}", flush=True)
    written = -1
    while not stop.wait(WRITE_EVERY):
        if receiver.span_count() != written:
            written = write_spans(receiver, out)
    write_spans(receiver, out)
    receiver.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
