"""Probes and one admin call for scripts/stack.sh, in plain Python (standard library only).

The stack script runs before any virtualenv exists, so this speaks the few Kafka protocol
requests it needs itself:

    kafka_probe.py ready PORT        the broker answers ApiVersions (exit 0) or not (1)
    kafka_probe.py sasl PORT USER    SCRAM-SHA-512 login on the SASL listener: 0 ok,
                                     2 the broker refused the credentials, 1 no answer
    kafka_probe.py add-user PORT USER
                                     create or update USER's SCRAM-SHA-512 credential
                                     through the PLAINTEXT listener at PORT (0 ok, 1 failed)

The password comes from the environment variable GROUNDWIRE_STACK_SASL_PASSWORD, never
from the command line.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import socket
import struct
import sys

HOST = "127.0.0.1"
MECHANISM = "SCRAM-SHA-512"
MECHANISM_ID = 2  # SCRAM-SHA-512 in AlterUserScramCredentials
ITERATIONS = 4096  # Kafka's minimum for SCRAM
SASL_AUTHENTICATION_FAILED = 58


class Connection:
    def __init__(self, port: int, timeout: float = 3.0) -> None:
        self.sock = socket.create_connection((HOST, port), timeout=timeout)
        self.correlation = 0

    def close(self) -> None:
        self.sock.close()

    def request(self, api_key: int, version: int, body: bytes, flexible: bool = False) -> bytes:
        """Send one request, return the response body (header stripped)."""
        self.correlation += 1
        client_id = b"groundwire-stack"
        header = struct.pack(">hhih", api_key, version, self.correlation, len(client_id))
        header += client_id + (b"\x00" if flexible else b"")  # v2 header: empty tagged fields
        frame = header + body
        self.sock.sendall(struct.pack(">i", len(frame)) + frame)
        size = struct.unpack(">i", self._read(4))[0]
        data = self._read(size)
        (correlation,) = struct.unpack(">i", data[:4])
        if correlation != self.correlation:
            raise OSError("correlation id mismatch")
        # Flexible responses (except ApiVersions) carry tagged fields after the id.
        return data[5:] if flexible else data[4:]

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise OSError("connection closed by the broker")
            data += chunk
        return data


def _string(value: str) -> bytes:
    raw = value.encode()
    return struct.pack(">h", len(raw)) + raw


def _uvarint(n: int) -> bytes:
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def _compact(raw: bytes) -> bytes:
    return _uvarint(len(raw) + 1) + raw


def ready(port: int) -> int:
    conn = Connection(port, timeout=2.0)
    try:
        body = conn.request(18, 0, b"")  # ApiVersions v0
    finally:
        conn.close()
    return 0 if struct.unpack(">h", body[:2])[0] == 0 else 1


def _salted(password: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)


def _hmac(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha512).digest()


def sasl(port: int, user: str, password: str) -> int:
    conn = Connection(port)
    try:
        body = conn.request(17, 1, _string(MECHANISM))  # SaslHandshake v1
        if struct.unpack(">h", body[:2])[0] != 0:
            print(f"{MECHANISM} is not enabled on port {port}", file=sys.stderr)
            return 1
        nonce = base64.b64encode(secrets.token_bytes(18)).decode()
        first_bare = f"n={user},r={nonce}"
        server_first = _authenticate(conn, f"n,,{first_bare}".encode())
        if server_first is None:
            return 2
        fields = dict(item.split("=", 1) for item in server_first.decode().split(","))
        if not fields["r"].startswith(nonce):
            raise OSError("server nonce does not extend the client nonce")
        salted = _salted(password, base64.b64decode(fields["s"]), int(fields["i"]))
        client_key = _hmac(salted, b"Client Key")
        without_proof = f"c=biws,r={fields['r']}"
        auth_message = f"{first_bare},{server_first.decode()},{without_proof}".encode()
        signature = _hmac(hashlib.sha512(client_key).digest(), auth_message)
        proof = base64.b64encode(bytes(a ^ b for a, b in zip(client_key, signature, strict=True)))
        final = _authenticate(conn, f"{without_proof},p={proof.decode()}".encode())
        return 0 if final is not None and final.startswith(b"v=") else 2
    finally:
        conn.close()


def _authenticate(conn: Connection, token: bytes) -> bytes | None:
    """One SaslAuthenticate v1 round trip; None when the broker refused the login."""
    body = conn.request(36, 1, struct.pack(">i", len(token)) + token)
    (error,) = struct.unpack(">h", body[:2])
    if error == SASL_AUTHENTICATION_FAILED:
        return None
    if error != 0:
        raise OSError(f"SaslAuthenticate error {error}")
    (msg_len,) = struct.unpack(">h", body[2:4])
    offset = 4 + max(msg_len, 0)
    (size,) = struct.unpack(">i", body[offset : offset + 4])
    return body[offset + 4 : offset + 4 + size]


def add_user(port: int, user: str, password: str) -> int:
    salt = secrets.token_bytes(32)
    upsertion = (
        _compact(user.encode())
        + struct.pack(">bi", MECHANISM_ID, ITERATIONS)
        + _compact(salt)
        + _compact(_salted(password, salt, ITERATIONS))
        + b"\x00"
    )
    body = _uvarint(1) + _uvarint(2) + upsertion + b"\x00"  # no deletions, one upsertion
    conn = Connection(port, timeout=10.0)
    try:
        reply = conn.request(51, 0, body, flexible=True)  # AlterUserScramCredentials v0
    finally:
        conn.close()
    # throttle_time_ms, results: compact array of (user, error_code, error_message, tags)
    offset = 4 + 1  # one result: array length byte 2
    name_len = reply[offset] - 1
    offset += 1 + name_len
    (error,) = struct.unpack(">h", reply[offset : offset + 2])
    if error != 0:
        msg_len = reply[offset + 2] - 1
        message = reply[offset + 3 : offset + 3 + max(msg_len, 0)].decode(errors="replace")
        print(f"AlterUserScramCredentials error {error}: {message}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    command, port = argv[0], int(argv[1])
    password = os.environ.get("GROUNDWIRE_STACK_SASL_PASSWORD", "")
    try:
        if command == "ready":
            return ready(port)
        if command == "sasl":
            return sasl(port, argv[2], password)
        if command == "add-user":
            return add_user(port, argv[2], password)
    except (OSError, ValueError, KeyError, struct.error) as exc:
        print(f"{command} 127.0.0.1:{port}: {exc}", file=sys.stderr)
        return 1
    print(f"unknown command {command}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
