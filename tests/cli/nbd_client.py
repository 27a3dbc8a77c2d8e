#!/usr/bin/env python3
"""A minimal NBD client (fixed newstyle handshake, simple replies) for tests/cli/nbd_test.sh: it
sends exactly the requests a test needs, including a write whose data never comes, which no real
client can be made to send. Usage: nbd_client.py SOCKET_PATH (runs the checks, exit status 1 and
a message on the first that fails)."""
import os
import socket
import struct
import sys

NBD_REQUEST_MAGIC = 0x25609513
NBD_SIMPLE_REPLY_MAGIC = 0x67446698
CMD_READ, CMD_WRITE, CMD_DISC, CMD_FLUSH, CMD_TRIM, CMD_WRITE_ZEROES = 0, 1, 2, 3, 4, 6
FLAG_FUA = 1
FLAG_NO_HOLE = 2


def receive(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    return data


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        magic, option_magic, _ = struct.unpack(">QQH", receive(self.sock, 18))
        assert magic == 0x4E42444D41474943 and option_magic == 0x49484156454F5054
        self.sock.sendall(struct.pack(">I", 3))  # fixed newstyle, no zeroes
        self.sock.sendall(struct.pack(">QII", option_magic, 1, 0))  # EXPORT_NAME ""
        self.size, self.flags = struct.unpack(">QH", receive(self.sock, 10))
        self.handle = 0

    def request(self, kind, offset=0, length=0, data=b"", flags=0):
        self.handle += 1
        self.sock.sendall(struct.pack(">IHHQQI", NBD_REQUEST_MAGIC, flags, kind, self.handle,
                                      offset, length) + data)
        magic, error, handle = struct.unpack(">IIQ", receive(self.sock, 16))
        assert magic == NBD_SIMPLE_REPLY_MAGIC and handle == self.handle
        payload = receive(self.sock, length) if kind == CMD_READ and error == 0 else b""
        return error, payload

    def read(self, offset, length):
        error, data = self.request(CMD_READ, offset, length)
        if error:
            raise IOError(f"read at {offset}: error {error}")
        return data

    def write(self, offset, data, flags=0):
        error, _ = self.request(CMD_WRITE, offset, len(data), data, flags)
        if error:
            raise IOError(f"write at {offset}: error {error}")

    def close(self):
        self.sock.sendall(struct.pack(">IHHQQI", NBD_REQUEST_MAGIC, 0, CMD_DISC, 0, 0, 0))
        self.sock.close()


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)
    print("ok: " + message)


def main(path):
    KiB = 1024
    content = bytearray(os.urandom(1024 * KiB))
    c = Client(path)
    check(c.size > 2 * 1024 * KiB, f"the export has the device's size ({c.size} bytes)")
    for offset in range(0, len(content), 64 * KiB):
        c.write(offset, bytes(content[offset:offset + 64 * KiB]))
    check(c.request(CMD_FLUSH)[0] == 0, "a flush succeeds")
    check(c.read(0, len(content)) == content, "1 MiB written in 64 KiB writes reads back")
    check(c.request(CMD_TRIM, 128 * KiB, 64 * KiB)[0] == 0, "a trim succeeds")
    content[128 * KiB:192 * KiB] = bytes(64 * KiB)
    check(c.read(128 * KiB, 64 * KiB) == bytes(64 * KiB), "trimmed whole units read as zeros")
    check(c.request(CMD_WRITE_ZEROES, 300 * KiB, 8 * KiB)[0] == 0, "write-zeroes succeeds")
    content[300 * KiB:308 * KiB] = bytes(8 * KiB)
    check(c.request(CMD_WRITE_ZEROES, 400 * KiB + 512, 1024, flags=FLAG_NO_HOLE)[0] == 0,
          "write-zeroes of two sectors, no hole allowed, succeeds")
    content[400 * KiB + 512:400 * KiB + 1536] = bytes(1024)
    check(c.read(296 * KiB, 16 * KiB) == content[296 * KiB:312 * KiB] and
          c.read(400 * KiB, 4 * KiB) == content[400 * KiB:404 * KiB],
          "zeroed sectors read as zeros (trimmed units and written zeros)")
    fua = os.urandom(4 * KiB)
    c.write(512 * KiB, fua, FLAG_FUA)
    content[512 * KiB:516 * KiB] = fua
    check(c.read(512 * KiB, 4 * KiB) == fua, "a FUA write reads back")
    partial = os.urandom(1024)  # two sectors inside a unit: the FTL merges them
    c.write(700 * KiB + 1024, partial)
    content[700 * KiB + 1024:700 * KiB + 2048] = partial
    check(c.read(700 * KiB, 4 * KiB) == content[700 * KiB:704 * KiB],
          "a write of two sectors inside a unit reads back merged")
    check(c.request(CMD_READ, 1000, 512)[0] == 22, "an unaligned read is refused with EINVAL")
    check(c.request(CMD_FLUSH)[0] == 0, "everything flushed")
    c.close()

    # A client that dies in the middle of sending a write: the header and part of the data.
    dying = Client(path)
    dying.sock.sendall(struct.pack(">IHHQQI", NBD_REQUEST_MAGIC, 0, CMD_WRITE, 1, 0, 1024 * KiB) +
                       os.urandom(100 * KiB))
    dying.sock.close()

    again = Client(path)
    check(again.read(0, len(content)) == content,
          "after a client hung up mid-write, a new client reads everything flushed, unchanged")
    again.close()


if __name__ == "__main__":
    main(sys.argv[1])
