"""json_variant.py IN OUT PATH=VALUE...: IN's JSON with each PATH (dot
separated, numbers index arrays) set to VALUE (JSON text, parsed as Python's
json module reads it, so 1.5, 1e300, -1 and 2**63 keep their spelling:
the value is spliced into the output as written). PATH=! deletes it."""
import json
import sys

source, out, *assignments = sys.argv[1:]
document = json.load(open(source))
spliced = {}
for assignment in assignments:
    path, value = assignment.split("=", 1)
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    parent = document
    for key in keys[:-1]:
        parent = parent[key]
    if value == "!":
        del parent[keys[-1]]
        continue
    # A placeholder, replaced by the value's own text below.
    marker = "@@value%d@@" % len(spliced)
    spliced[marker] = value
    parent[keys[-1]] = marker
text = json.dumps(document)
for marker, value in spliced.items():
    text = text.replace('"%s"' % marker, value)
open(out, "w").write(text + "\n")
