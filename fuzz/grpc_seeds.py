#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_grpc (fuzz/corpus/grpc/): records [selector][length, 2 bytes LE][a
cuzk.v1 request message], as fuzz/fuzz_grpc.cpp reads them. The messages are encoded by hand (protobuf's
wire format: a varint key field_number << 3 | wire_type, then a varint or a length and bytes), so that no
protobuf package is needed. Run from the repository root: python3 fuzz/grpc_seeds.py"""
import os

OUT = "fuzz/corpus/grpc"
WTNS = open("tests/data/tiny/mul.wtns", "rb").read()
SUBMIT, AWAIT, PROVE, CANCEL, STATUS, METRICS, PRELOAD, EVICT = range(8)
STEER, BELLPERSON, WITNESS = 0x08, 0x10, 0x20


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def num(field, value):
    return varint(field << 3) + varint(value)


def text(field, value):
    value = value.encode() if isinstance(value, str) else value
    return varint(field << 3 | 2) + varint(len(value)) + value


def rec(sel, body=b""):
    return bytes([sel, len(body) & 0xFF, len(body) >> 8]) + body


corrupt = bytearray(WTNS)
corrupt[-5] ^= 0x40  # a witness value changed: c = a·b no longer holds
truncated = WTNS[:40]
seeds = {
    "prove-tiny": rec(PROVE | STEER | WITNESS, num(2, 100)),
    "prove-tinybp": rec(PROVE | STEER | BELLPERSON | WITNESS, num(2, 101)),
    "submit-await": rec(SUBMIT | STEER | WITNESS) + rec(AWAIT | STEER, num(2, 150)),
    "submit-cancel-await": rec(SUBMIT | STEER | WITNESS) + rec(CANCEL | STEER) + rec(AWAIT | STEER),
    "request-id": rec(SUBMIT | STEER | WITNESS, text(1, "r1")) + rec(SUBMIT | STEER | WITNESS, text(1, "r1"))
    + rec(SUBMIT | STEER | WITNESS, text(1, "r1") + text(101, WTNS)) + rec(AWAIT | STEER),
    "admin": rec(STATUS) + rec(METRICS) + rec(PRELOAD | STEER) + rec(EVICT | STEER)
    + rec(PRELOAD | STEER | BELLPERSON) + rec(PRELOAD, text(1, "porep-32g")) + rec(PRELOAD, text(1, "wpost-32g"))
    + rec(EVICT, text(1, "nope")),
    "filecoin": rec(SUBMIT, num(2, 1) + text(10, b"{}")) + rec(SUBMIT, num(2, 3) + text(11, b"x"))
    + rec(SUBMIT, num(2, 2) + text(11, b"y")) + rec(SUBMIT, num(2, 4) + text(22, b"r" * 32)),
    "unknown-circuit": rec(SUBMIT, text(100, "nope") + text(101, b"x")) + rec(AWAIT | STEER),
    "oversized-id": rec(SUBMIT | STEER | WITNESS, text(1, "i" * 300)),
    "corrupt-witness": rec(SUBMIT | STEER, text(101, bytes(corrupt))) + rec(SUBMIT | STEER, text(101, truncated))
    + rec(AWAIT | STEER, num(2, 199)) + rec(AWAIT | STEER | 0x10, num(2, 199)),
    "bad-kind": rec(SUBMIT | STEER | WITNESS, num(2, 12345)) + rec(SUBMIT | WITNESS, text(100, "tiny") + num(2, 101)),
}
os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
