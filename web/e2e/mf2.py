"""A page's microformats as mf2py reads them: the HTML on stdin, the URL it was fetched from (the
base of its relative URLs) as the argument; prints mf2py's version and its parse as JSON, on one
line each. Run by microformats.test.ts with the project's virtual environment's Python."""

import json
import sys
from importlib.metadata import version

import mf2py

print(f"mf2py {version('mf2py')}")
print(json.dumps(mf2py.parse(doc=sys.stdin.read(), url=sys.argv[1]), ensure_ascii=False))
