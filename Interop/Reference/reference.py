#!/usr/bin/env python3
"""The reference side of the differential against Google's protobuf (Python, upb backend).

    reference.py generate --seed S --count N --out FILE
        Writes N random `reference.Root` messages (Proto/reference.proto), one hex string a line.
        Google's protobuf serializes every message; the bytes are then reshaped the ways the wire
        format allows and a writer may use: packed fields split or written unpacked (and unpacked
        ones packed), fields and map entries reordered, varints longer than needed or with bits
        above the 32 of a 32-bit type, unknown fields of every wire type (varint, fixed64,
        length-delimited, a group with content, fixed32) spliced between the known ones at every
        level, and two or three messages concatenated (a merge: the parts set the same scalars and
        messages, different members of the oneof, or its message member, another member, and the
        message member again).

    reference.py check --in FILE [--ours FILE] [--tree FILE]
        Reads our outputs, one hex string a line in the order of FILE (a line starting with `!` is
        an error of ours: its text follows), parses each with Google's protobuf and compares it,
        by message equality, with the parse of the input: `--ours` (the typed path, which drops
        unknown fields) against the input without its unknown fields, `--tree` (decodeTree then
        encode(tree:)) against the input with them. Prints the mismatches, the first of each kind
        with their hex and the differing fields, and exits 1 if there is any.

The Python code of the .proto files is generated at every run into a temporary folder (protoc from
grpcio-tools). Needs `pip install protobuf grpcio-tools`.
"""

import argparse
import collections
import importlib
import math
import os
import random
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, "..", "Proto")

try:
    from google.protobuf import descriptor as _descriptor
    from google.protobuf import message as _message
    from grpc_tools import protoc
except ImportError as error:  # the Swift test shows this text
    sys.stderr.write(
        f"reference.py: {error}. Google's protobuf for Python and protoc are needed: "
        "pip install protobuf grpcio-tools\n"
    )
    sys.exit(3)

FD = _descriptor.FieldDescriptor


def load_messages():
    """Generates reference_pb2 (and interop_pb2, which it imports) into a temporary folder."""
    out = tempfile.mkdtemp(prefix="interop-reference-")
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    args = ["protoc", f"-I{PROTO_DIR}", f"-I{include}", f"--python_out={out}", "interop.proto", "reference.proto"]
    if protoc.main(args) != 0:
        sys.stderr.write(f"reference.py: protoc failed on {PROTO_DIR}/reference.proto\n")
        sys.exit(3)
    sys.path.insert(0, out)
    module = importlib.import_module("reference_pb2")
    shutil.rmtree(out, ignore_errors=True)
    return module


# ---------------------------------------------------------------------------------------------
# The wire format, by hand: what Google's protobuf will not write for us.

MASK64 = (1 << 64) - 1
VARINT_TYPES = {FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_UINT32, FD.TYPE_UINT64, FD.TYPE_SINT32,
                FD.TYPE_SINT64, FD.TYPE_BOOL, FD.TYPE_ENUM}
FIXED32_TYPES = {FD.TYPE_FIXED32, FD.TYPE_SFIXED32, FD.TYPE_FLOAT}
FIXED64_TYPES = {FD.TYPE_FIXED64, FD.TYPE_SFIXED64, FD.TYPE_DOUBLE}


def varint(value):
    value &= MASK64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def read_varint(data, i):
    shift = value = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def tag(number, wire_type):
    return varint(number << 3 | wire_type)


def element_wire_type(field):
    if field.type in VARINT_TYPES:
        return 0
    if field.type in FIXED32_TYPES:
        return 5
    if field.type in FIXED64_TYPES:
        return 1
    return None


def parse_fields(data):
    """The fields of a message as it is on the wire: (number, wire type, whole field, payload)."""
    fields = []
    i = 0
    while i < len(data):
        start = i
        key, i = read_varint(data, i)
        number, wire_type = key >> 3, key & 7
        value_start = i
        if wire_type == 0:
            _, i = read_varint(data, i)
            payload = data[value_start:i]
        elif wire_type == 1:
            i += 8
            payload = data[i - 8:i]
        elif wire_type == 5:
            i += 4
            payload = data[i - 4:i]
        elif wire_type == 2:
            length, i = read_varint(data, i)
            i += length
            payload = data[i - length:i]
        else:
            raise ValueError(f"wire type {wire_type} in a message Google's protobuf wrote")
        fields.append((number, wire_type, data[start:i], payload))
    return fields


def packed_elements(field, payload):
    """The elements of a packed field, each as its bytes on the wire."""
    wire_type = element_wire_type(field)
    elements = []
    i = 0
    while i < len(payload):
        start = i
        if wire_type == 0:
            _, i = read_varint(payload, i)
        else:
            i += 4 if wire_type == 5 else 8
        elements.append(payload[start:i])
    return elements


def length_delimited(number, payload):
    return tag(number, 2) + varint(len(payload)) + payload


class Reshaper:
    """Reshapes the bytes of a message the ways a writer may, and splices unknown fields in."""

    def __init__(self, rng, stats):
        self.rng = rng
        self.stats = stats

    # Unknown fields: a field number the message does not declare, a value of every wire type.

    def unknown_number(self, message):
        while True:
            r = self.rng.random()
            if r < 0.5:
                number = self.rng.randint(1, 60)
            elif r < 0.85:
                number = self.rng.randint(61, 5000)
            else:
                number = self.rng.randint(5001, (1 << 29) - 1)
            if message is None or number not in message.fields_by_number:
                return number

    def unknown_field(self, message, depth=0, wire_type=None):
        number = self.unknown_number(message)
        if wire_type is None:
            wire_type = self.rng.choice([0, 1, 2, 3, 5] if depth < 2 else [0, 1, 2, 5])
        self.stats[f"unknown wire type {wire_type}"] += 1
        rng = self.rng
        if wire_type == 0:
            value = rng.choice([0, 1, 127, 128, MASK64, rng.getrandbits(64) >> rng.randint(0, 63)])
            return tag(number, 0) + varint(value)
        if wire_type == 1:
            return tag(number, 1) + rng.randbytes(8)
        if wire_type == 5:
            return tag(number, 5) + rng.randbytes(4)
        if wire_type == 2:
            if rng.random() < 0.3:  # bytes that frame as a message (of unknown fields)
                payload = b"".join(self.unknown_field(None, depth + 1) for _ in range(rng.randint(1, 2)))
            else:
                payload = rng.randbytes(rng.choice([0, 1, rng.randint(2, 24)]))
            return length_delimited(number, payload)
        # A group: start tag, fields (any numbers, groups inside), the end tag of the same number.
        content = b"".join(self.unknown_field(None, depth + 1) for _ in range(rng.choice([1, 1, 2])))
        return tag(number, 3) + content + tag(number, 4)

    # Known fields: packed and unpacked forms, order.

    def repack(self, field, payload):
        """A packed field, written again: as is, unpacked, in two packed runs, or half and half."""
        elements = packed_elements(field, payload)
        wire_type = element_wire_type(field)
        number = field.number
        r = self.rng.random()
        if r < 0.45 or not elements:
            return [length_delimited(number, payload)]
        if r < 0.7:
            self.stats["packed written unpacked"] += 1
            return [tag(number, wire_type) + e for e in elements]
        cut = self.rng.randint(0, len(elements))
        if r < 0.85:
            self.stats["packed written in two runs"] += 1
            return [length_delimited(number, b"".join(elements[:cut])),
                    length_delimited(number, b"".join(elements[cut:]))]
        self.stats["packed written half unpacked"] += 1
        return [length_delimited(number, b"".join(elements[:cut]))] + [
            tag(number, wire_type) + e for e in elements[cut:]]

    def odd_varint(self, field, value):
        """A varint as parsers must read it but protobuf does not write it: with bits above the
        32 of a 32-bit type (int32, uint32, sint32, enum: the parser truncates; bool: any bit is
        true), or longer than needed (padded with 0x80 groups, ten bytes at most)."""
        if field.type in (FD.TYPE_INT32, FD.TYPE_UINT32, FD.TYPE_SINT32, FD.TYPE_ENUM, FD.TYPE_BOOL) \
                and self.rng.random() < 0.5:
            self.stats["varint with bits above 32"] += 1
            value = (value & 0xFFFFFFFF) | (self.rng.getrandbits(32) << 32)
            return varint(value)
        self.stats["varint longer than needed"] += 1
        minimal = varint(value)
        extra = self.rng.randint(1, 10 - len(minimal)) if len(minimal) < 10 else 0
        if not extra:
            return minimal
        return minimal[:-1] + bytes([minimal[-1] | 0x80]) + b"\x80" * (extra - 1) + b"\x00"

    def pack_runs(self, message, pieces):
        """Unpacked elements of a repeated number field ([packed = false]), packed in runs."""
        out = []
        i = 0
        while i < len(pieces):
            number, wire_type, raw, payload, known = pieces[i]
            field = message.fields_by_number.get(number) if known else None
            if field is None or not field.is_repeated or wire_type == 2 or element_wire_type(field) != wire_type:
                out.append(pieces[i])
                i += 1
                continue
            j = i
            while j < len(pieces) and pieces[j][0] == number and pieces[j][1] == wire_type and pieces[j][4]:
                j += 1
            if self.rng.random() < 0.4:
                self.stats["unpacked written packed"] += 1
                body = b"".join(p[3] for p in pieces[i:j])
                whole = length_delimited(number, body)
                out.append((number, 2, whole, body, True))
            else:
                out.extend(pieces[i:j])
            i = j
        return out

    def reorder(self, message, pieces):
        """Shuffles the fields, keeping the order of those whose order means something: the
        occurrences of one field number, and the members of one oneof (the last one wins)."""
        def group(piece):
            field = message.fields_by_number.get(piece[0]) if piece[4] else None
            if field is not None and field.containing_oneof is not None:
                return ("oneof", field.containing_oneof.name)
            return ("number", piece[0])

        queues = collections.OrderedDict()
        for piece in pieces:
            queues.setdefault(group(piece), collections.deque()).append(piece)
        order = [key for key, queue in queues.items() for _ in queue]
        self.rng.shuffle(order)
        self.stats["fields reordered"] += 1
        return [queues[key].popleft() for key in order]

    def shuffle_map_entries(self, message, pieces):
        """Map entries in any order (the messages are serialized deterministically: keys sorted)."""
        slots = collections.defaultdict(list)
        for i, piece in enumerate(pieces):
            field = message.fields_by_number.get(piece[0])
            if field is not None and field.message_type is not None and field.message_type.GetOptions().map_entry:
                slots[piece[0]].append(i)
        for indices in slots.values():
            if len(indices) > 1 and self.rng.random() < 0.7:
                entries = [pieces[i] for i in indices]
                self.rng.shuffle(entries)
                for i, entry in zip(indices, entries):
                    pieces[i] = entry

    def reshape(self, message, data, depth=0):
        pieces = []
        for number, wire_type, raw, payload in parse_fields(data):
            field = message.fields_by_number.get(number)
            if field is not None and wire_type == 2 and field.message_type is not None:
                inner = self.reshape(field.message_type, payload, depth + 1)
                pieces.append((number, 2, length_delimited(number, inner), inner, True))
            elif field is not None and wire_type == 2 and field.is_repeated and element_wire_type(field) is not None:
                for whole in self.repack(field, payload):
                    pieces.append((number, None, whole, None, False))  # kept as they are from here
            elif field is not None and wire_type == 0 and element_wire_type(field) == 0 and self.rng.random() < 0.08:
                value = self.odd_varint(field, read_varint(payload, 0)[0])
                pieces.append((number, 0, tag(number, 0) + value, value, True))
            else:
                pieces.append((number, wire_type, raw, payload, True))
        pieces = self.pack_runs(message, pieces)
        self.shuffle_map_entries(message, pieces)
        if len(pieces) > 1 and self.rng.random() < 0.15:
            pieces = self.reorder(message, pieces)
        out = [p[2] for p in pieces]
        # Unknown fields between the known ones, at every level but inside map entries: there the
        # spec is silent, and upb moves the whole entry to the unknown fields of the message that
        # has the map (upb pull request #544), where Go's parser and ours skip them.
        entry = message.GetOptions().map_entry
        if not entry and self.rng.random() < (0.15 if depth else 0.6):
            for _ in range(self.rng.choice([1, 1, 1, 2, 4] if depth else [1, 2, 3, 5])):
                out.insert(self.rng.randint(0, len(out)), self.unknown_field(message))
        return b"".join(out)


# ---------------------------------------------------------------------------------------------
# Random messages, filled through the descriptors.

ALPHABET = ["a", "b", "Z", "0", " ", "é", "ß", "中", "😀", "\u0000", "\n", "\u007f", "\u0080", "\uffff"]


class Filler:
    def __init__(self, rng, stats):
        self.rng = rng
        self.stats = stats

    def integer(self, bits, signed):
        rng = self.rng
        r = rng.randrange(8)
        if r == 0:
            return 0
        if r == 1:
            return (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        if r == 2:
            return -(1 << (bits - 1)) if signed else 0
        if r == 3:
            return rng.randrange(300)
        if r == 4:
            return -rng.randrange(1, 300) if signed else 1
        value = rng.getrandbits(bits) >> rng.randrange(bits)
        if signed and value >= 1 << (bits - 1):
            value -= 1 << bits
        if signed and rng.random() < 0.3:
            value = -value if value != -(1 << (bits - 1)) else value
        return value

    def floating(self, double):
        rng = self.rng
        r = rng.randrange(7)
        if r == 0:
            return 0.0
        if r == 1:
            return -0.0
        if r == 2:
            return rng.choice([math.inf, -math.inf, math.nan, 1.5, -2.25,
                               sys.float_info.max if double else 3.4028234663852886e38,
                               5e-324 if double else 1.401298464324817e-45])
        if double:
            return struct.unpack("<d", rng.randbytes(8))[0]
        return struct.unpack("<f", rng.randbytes(4))[0]

    def text(self):
        rng = self.rng
        length = 0 if rng.random() < 0.3 else rng.randrange(1, 14)
        chars = []
        for _ in range(length):
            if rng.random() < 0.8:
                chars.append(rng.choice(ALPHABET))
            else:
                code = rng.randrange(0x110000)
                chars.append(chr(code) if not 0xD800 <= code < 0xE000 else "?")
        return "".join(chars)

    def blob(self):
        return self.rng.randbytes(0 if self.rng.random() < 0.3 else self.rng.randrange(1, 18))

    def scalar(self, field):
        t = field.type
        if t in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
            return self.integer(32, True)
        if t in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
            return self.integer(64, True)
        if t in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
            return self.integer(32, False)
        if t in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
            return self.integer(64, False)
        if t == FD.TYPE_BOOL:
            return self.rng.random() < 0.5
        if t == FD.TYPE_FLOAT:
            return self.floating(False)
        if t == FD.TYPE_DOUBLE:
            return self.floating(True)
        if t == FD.TYPE_STRING:
            return self.text()
        if t == FD.TYPE_BYTES:
            return self.blob()
        if t == FD.TYPE_ENUM:
            # Only the declared values: the Swift mirror is a Swift enum, which cannot hold the
            # others (proto3's enums are open; ProtobufDecoder throws, as documented).
            return self.rng.choice(field.enum_type.values).number
        raise ValueError(f"no scalar for {field.full_name}")

    def count(self):
        r = self.rng.random()
        return 0 if r < 0.4 else self.rng.randrange(1, 4) if r < 0.95 else self.rng.randrange(4, 20)

    def fill(self, message, density, depth=0, choose=None):
        """Sets each field of `message` with probability `density`; at most one member per oneof
        (`choose` forces the member of the oneof `choice`)."""
        rng = self.rng
        descriptor = message.DESCRIPTOR
        members = {}
        for oneof in descriptor.oneofs:
            if len(oneof.fields) == 1 and oneof.name == "_" + oneof.fields[0].name:
                continue  # the synthetic oneof of an `optional` field
            if choose is not None and oneof.name == "choice":
                members[oneof.name] = choose
            elif rng.random() < density:
                members[oneof.name] = rng.choice(oneof.fields).name
            else:
                members[oneof.name] = None
        for field in descriptor.fields:
            oneof = field.containing_oneof
            if oneof is not None and oneof.name in members:
                if members[oneof.name] != field.name:
                    continue
            elif rng.random() >= density:
                continue
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                self.fill_map(getattr(message, field.name), field.message_type, density, depth)
            elif field.message_type is not None and field.is_repeated:
                limit = 0 if field.message_type is descriptor and depth >= 2 else self.count()
                if field.message_type is descriptor:  # children: a few, and not too deep
                    limit = min(limit, 2) if rng.random() < 0.3 else 0
                for _ in range(limit):
                    self.fill(getattr(message, field.name).add(), density, depth + 1)
            elif field.is_repeated:
                getattr(message, field.name).extend(self.scalar(field) for _ in range(self.count()))
            elif field.message_type is not None:
                sub = getattr(message, field.name)
                sub.SetInParent()
                self.fill(sub, density, depth + 1)
            else:
                setattr(message, field.name, self.scalar(field))

    def fill_map(self, target, entry, density, depth):
        key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
        for _ in range(self.count()):
            key = self.scalar(key_field)
            if value_field.message_type is not None:
                self.fill(target[key], density, depth + 1)
            else:
                target[key] = self.scalar(value_field)


def generate(args):
    pb = load_messages()
    rng = random.Random(args.seed)
    stats = collections.Counter()
    filler, reshaper = Filler(rng, stats), Reshaper(rng, stats)
    root = pb.Root.DESCRIPTOR
    members = [f.name for f in root.oneofs_by_name["choice"].fields]

    def one(choose=None, overlap=False):
        message = pb.Root()
        filler.fill(message, rng.choice([0.05, 0.15, 0.3, 0.6]), choose=choose)
        if overlap:  # the same scalars and messages in each half of a concatenation
            message.opt_i32 = filler.integer(32, True)
            message.scalars.i64 = filler.integer(64, True)
            message.scalars.text = filler.text()
            message.inner.a = filler.integer(32, True)
            message.wrap.inner.b = filler.text()
            message.mid = filler.integer(32, True)
        stats["messages written by protobuf"] += 1
        # Deterministic: upb writes map entries in the order of a hash table seeded per process.
        return reshaper.reshape(root, message.SerializeToString(deterministic=True))

    lines = []
    for _ in range(args.count):
        r = rng.random()
        if r < 0.6:
            data = one()
        else:
            kind = rng.randrange(5)
            if kind == 0:  # each half sets a different member of the oneof
                first, second = rng.sample(members, 2)
                parts = [one(first), one(second)]
                stats["concatenated: different oneof members"] += 1
            elif kind == 1:  # both set the message member: merged
                parts = [one("choice_inner"), one("choice_inner")]
                stats["concatenated: oneof message member twice"] += 1
            elif kind == 2:  # the same scalars and messages in both
                parts = [one(overlap=True), one(overlap=True)]
                stats["concatenated: same fields in both"] += 1
            elif kind == 3:  # the message member, another member, the message member: not merged
                other = rng.choice([m for m in members if m != "choice_inner"])
                parts = [one("choice_inner"), one(other), one("choice_inner")]
                stats["concatenated: message member, other member, message member"] += 1
            else:
                parts = [one() for _ in range(rng.choice([2, 2, 3]))]
                stats["concatenated: independent"] += 1
            data = b"".join(parts)
        lines.append(data.hex())
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    summary = ", ".join(f"{v} {k}" for k, v in sorted(stats.items()))
    print(f"generate: seed {args.seed}, {args.count} inputs ({summary})")


# ---------------------------------------------------------------------------------------------
# The check.

def read_lines(path):
    with open(path) as f:
        text = f.read()
    if not text.endswith("\n"):
        raise SystemExit(f"reference.py: {path} does not end with a new line")
    return text.split("\n")[:-1]


def unknowns(message):
    """The unknown fields of `message`, by field number (their order within a number kept)."""
    from google.protobuf.unknown_fields import UnknownFieldSet

    def normalize(fields):
        out = []
        for f in fields:
            data = f.data
            if f.wire_type == 3:
                data = normalize(data)
            out.append((f.field_number, f.wire_type, data))
        return sorted(out, key=lambda x: x[0])

    return normalize(UnknownFieldSet(message))


def show(field, value):
    if field is not None and field.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
        bits = struct.pack("<f" if field.type == FD.TYPE_FLOAT else "<d", value).hex()
        return f"{value!r} (0x{bits})"
    if isinstance(value, _message.Message):
        return "{" + str(value).replace("\n", " ").strip() + "}"
    return repr(value)


def same(field, a, b):
    if field.type == FD.TYPE_FLOAT:
        return struct.pack("<f", a) == struct.pack("<f", b)
    if field.type == FD.TYPE_DOUBLE:
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def diff(expected, got, path, out):
    """The fields where `got` differs from `expected`: (path, expected, got)."""
    for field in expected.DESCRIPTOR.fields:
        p = f"{path}.{field.name}" if path else field.name
        e, g = getattr(expected, field.name), getattr(got, field.name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            for key in sorted(set(e) | set(g), key=repr):
                kp = f"{p}[{key!r}]"
                if key not in g:
                    out.append((kp, show(value_field, e[key]), "missing"))
                elif key not in e:
                    out.append((kp, "missing", show(value_field, g[key])))
                elif value_field.message_type is not None:
                    diff(e[key], g[key], kp, out)
                elif not same(value_field, e[key], g[key]):
                    out.append((kp, show(value_field, e[key]), show(value_field, g[key])))
        elif field.is_repeated:
            if len(e) != len(g):
                out.append((f"{p} (count)", str(len(e)), str(len(g))))
            for i, (x, y) in enumerate(zip(e, g)):
                if field.message_type is not None:
                    diff(x, y, f"{p}[{i}]", out)
                elif not same(field, x, y):
                    out.append((f"{p}[{i}]", show(field, x), show(field, y)))
        elif field.has_presence and expected.HasField(field.name) != got.HasField(field.name):
            has = expected.HasField(field.name)
            out.append((p, show(field, e) if has else "not set", "not set" if has else show(field, g)))
        elif field.message_type is not None:
            if expected.HasField(field.name):
                diff(e, g, p, out)
        elif not same(field, e, g):
            out.append((p, show(field, e), show(field, g)))
    ue, ug = unknowns(expected), unknowns(got)
    if ue != ug:
        out.append((f"{path or '(top)'} unknown fields", repr(ue), repr(ug)))


def signature(differences):
    """The kind of a mismatch: the differing paths without indices and map keys."""
    import re
    return tuple(sorted({re.sub(r"\[[^\]]*\]", "[]", p) for p, _, _ in differences}))


def check(args):
    pb = load_messages()
    inputs = read_lines(args.inp)
    outputs = [(name, path) for name, path in (("typed", args.ours), ("tree", args.tree)) if path]
    if not outputs:
        raise SystemExit("reference.py check: give --ours and/or --tree")
    ours = {}
    for name, path in outputs:
        ours[name] = read_lines(path)
        if len(ours[name]) != len(inputs):
            raise SystemExit(f"reference.py: {path} has {len(ours[name])} lines, {args.inp} {len(inputs)}")
    failures = 0
    report = []
    for name, _ in outputs:
        mismatches = []
        kinds = collections.Counter()
        for line, (source, result) in enumerate(zip(inputs, ours[name]), start=1):
            expected = pb.Root()
            expected.ParseFromString(bytes.fromhex(source))
            if name == "typed":
                expected.DiscardUnknownFields()
            if result.startswith("!"):
                differences = [("(decoding or encoding)", "a message", "error: " + result[1:])]
            else:
                got = pb.Root()
                try:
                    got.ParseFromString(bytes.fromhex(result))
                except Exception as error:  # DecodeError, or hex that is not
                    differences = [("(our output)", "a message", f"unparsable: {error}")]
                else:
                    if got == expected:
                        continue
                    differences = []
                    diff(expected, got, "", differences)
                    if not differences:
                        differences = [("(message equality)", "equal", "not equal, no field differs")]
            kinds[signature(differences)] += 1
            mismatches.append((line, source, result, differences))
        failures += len(mismatches)
        what = "known fields" if name == "typed" else "all fields, unknown ones included"
        report.append(f"{name} path: {len(inputs) - len(mismatches)} of {len(inputs)} equal the reference's "
                      f"parse of the input ({what})")
        if not mismatches:
            continue
        report.append(f"{name} path: {len(mismatches)} mismatches of {len(kinds)} kinds:")
        for kind, count in kinds.most_common(args.kinds):
            report.append(f"  {count:6}  {', '.join(kind)}")
        if len(kinds) > args.kinds:
            report.append(f"  ... and {len(kinds) - args.kinds} more kinds")
        shown = set()
        examples = 0
        for index, (line, source, result, differences) in enumerate(mismatches):
            kind = signature(differences)
            if index >= args.first and kind in shown:
                continue
            if examples >= args.first + 12:
                break
            shown.add(kind)
            examples += 1
            report.append(f"  {name} mismatch, input line {line}:")
            report.append(f"    input: {source}")
            report.append(f"    ours:  {result}")
            for p, e, g in differences[:args.fields]:
                report.append(f"    {p}: reference {e}, ours {g}")
            if len(differences) > args.fields:
                report.append(f"    ... {len(differences) - args.fields} more fields differ")
    print("\n".join(report))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    g = modes.add_parser("generate", help="write random messages, one hex string a line")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--out", required=True)
    c = modes.add_parser("check", help="compare our outputs with the reference's parse of the inputs")
    c.add_argument("--in", dest="inp", required=True)
    c.add_argument("--ours", help="the typed path's outputs (compared without unknown fields)")
    c.add_argument("--tree", help="the tree path's outputs (compared with unknown fields)")
    c.add_argument("--first", type=int, default=3, help="mismatches shown in full before one per kind")
    c.add_argument("--kinds", type=int, default=20, help="kinds of mismatch listed with their counts")
    c.add_argument("--fields", type=int, default=8, help="differing fields shown per mismatch")
    args = parser.parse_args()
    if args.mode == "generate":
        generate(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
