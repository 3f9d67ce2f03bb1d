"""Sending one Web Push message (RFC 8030, 8291, 8292) through the kept library ``pywebpush``:
the payload encrypted for the browser's keys (aes128gcm) and signed with the server's VAPID key.
It blocks (an HTTP request), so the server runs it in threads of its own
(:class:`blot.server.push.Push`), never on the event loop."""

from __future__ import annotations

import base64
import logging
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("blot.server")

#: The push services of today's browsers (Chrome, Firefox, Safari, Edge): a subscription's
#: endpoint must be ``https://`` at one of these hosts (or below them), so that the server posts
#: to no other address a client names.
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "web.push.apple.com",
    "notify.windows.com",
)
#: Seconds a push service keeps a message for a browser that is offline (a turn is stale after).
TTL = 600
#: Seconds one request to a push service may take.
TIMEOUT = 10.0


def allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether the server sends to ``endpoint``: ``https://`` at a host of ``services`` (or a
    host under one); an entry written ``http://host:port`` allows that origin as it is (tests)."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        origin = f"{parts.scheme}://{parts.netloc}".lower()
    except ValueError:
        return False
    for service in services:
        if service.startswith("http://"):
            if origin == service.lower().rstrip("/"):
                return True
        elif parts.scheme == "https" and (host == service or host.endswith("." + service)):
            return True
    return False


def new_keys() -> tuple[str, str]:
    """A new VAPID key pair on P-256: the private key's 32 bytes and the public point
    (uncompressed, the page's ``applicationServerKey``), each base64url without padding."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64(private), _b64(public)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def send(target: dict[str, Any], data: str, private_key: str, contact: str) -> int:
    """Post ``data`` to one subscription; answers the push service's HTTP status (0: it could
    not be reached). Blocking: run it in a thread."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    keys = {"p256dh": target["p256dh"], "auth": target["auth"]}
    subscription = {"endpoint": target["endpoint"], "keys": keys}
    try:
        response = webpush(
            subscription,
            data=data,
            vapid_private_key=Vapid.from_raw(private_key.encode()),
            vapid_claims={"sub": contact},
            ttl=TTL,
            timeout=TIMEOUT,
        )
    except WebPushException as e:
        status = getattr(e.response, "status_code", 0)
        return int(status or 0)
    except Exception as e:  # unreachable, a bad key: one line in the log, the game goes on
        log.warning("web push to %s failed: %s", urlsplit(target["endpoint"]).hostname, e)
        return 0
    return int(getattr(response, "status_code", 0) or 0)
