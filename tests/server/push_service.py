"""A push service of the tests' own (issue 41 item 4): an HTTP server that receives what blot
sends a browser's subscription, as Chrome's or Firefox's push service would. It checks each
request's VAPID signature (RFC 8292) against the key the server publishes, and decrypts its
aes128gcm payload (RFC 8291) with the private key of the subscription the test made, as the
browser would: so a test reads exactly what reached the push service and nothing else."""

from __future__ import annotations

import base64
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

#: A card in blot's notation (7S, 10H, QD, AC …): never in a notification.
CARD = re.compile(r"(?<![0-9A-Za-z])(7|8|9|10|J|Q|K|A|6)[SHDC♠♥♦♣](?![0-9A-Za-z])")


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One request that reached the push service: its path, headers (lower case), the VAPID
    claims and key, and the plaintext."""

    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    key: str
    plaintext: bytes

    @property
    def message(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.plaintext)
        return result


@dataclass
class PushService:
    """Serves on 127.0.0.1 at :attr:`origin`; each :meth:`subscription` is a browser's."""

    status: int = 201
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.receive(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, name: str = "browser") -> dict[str, Any]:
        """A new browser's subscription (``PushSubscription.toJSON()``): this service's endpoint
        and the browser's own ECDH key and auth secret."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        self._keys[f"/push/{name}"] = (private, auth)
        public = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/push/{name}", "keys": {"p256dh": b64(public), "auth": b64(auth)}}

    def receive(self, path: str, headers: dict[str, str], body: bytes) -> None:
        import http_ece

        claims, key = verify_vapid(headers.get("authorization", ""))
        private, auth = self._keys[path]
        assert headers.get("content-encoding") == "aes128gcm", headers
        plaintext = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        self.received.append(Received(path, headers, claims, key, plaintext))

    def wait(self, count: int, seconds: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + seconds
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"{len(self.received)} of {count} push messages came"
            time.sleep(0.02)
        return self.received


def verify_vapid(authorization: str) -> tuple[dict[str, Any], str]:
    """The claims of a ``vapid t=JWT, k=KEY`` header once its ES256 signature is checked with the
    key it names (the caller compares that key with the server's); answers (claims, key)."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(p.strip().split("=", 1) for p in rest.split(","))
    token, key = parts["t"], parts["k"]
    head, payload, signature = token.split(".")
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    public.verify(der, f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64(head))["alg"] == "ES256"
    return json.loads(unb64(payload)), key
