#!/usr/bin/env python3
"""Opens N connections that each send half a request and then nothing, checks that a normal
request is still answered, waits, and counts how many of the slow ones the server still holds.

    scripts/slow-clients.py URL [COUNT=1500] [WAIT_SECONDS=15]
"""
import resource
import socket
import sys
import time
import urllib.request
from urllib.parse import urlsplit

url = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
wait = float(sys.argv[3]) if len(sys.argv) > 3 else 15.0
parts = urlsplit(url)
host, port = parts.hostname, parts.port or 80

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))

slow = []
for _ in range(count):
    s = socket.create_connection((host, port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nUser-Agent: slow")
    slow.append(s)
print(f"{len(slow)} connections opened, each with half a request")

started = time.monotonic()
with urllib.request.urlopen(url.rstrip("/") + "/healthz", timeout=10) as response:
    status = response.status
print(f"a normal request meanwhile: {status} in {(time.monotonic() - started) * 1000:.0f} ms")

time.sleep(wait)
held = 0
for s in slow:
    s.setblocking(False)
    try:
        data = s.recv(4096)
        if data:
            # An answer (such as a 408) before the close still counts as held until the close.
            try:
                if s.recv(4096):
                    held += 1
            except BlockingIOError:
                held += 1
            except OSError:
                pass
    except BlockingIOError:
        held += 1
    except OSError:
        pass
    s.close()
print(f"after {wait:.0f} s: {held} of {count} still held")
