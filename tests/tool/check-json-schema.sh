#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every key the tool prints with --json is in doc/guide.md's schema: the
# ```schema ID blocks there are parsed (so the guide is the source), every
# --json command (info, histo, histo --dump all, histo --retained, top, top
# --lines, top --files, path, suspects, waste, diff of heap dumps) runs on fixtures of every kind in
# tests/data (hprof, gperftools, classic, tracexml, jfr), and each key path of its output
# ("counts.strings", "objects[].class_object") must be one its block lists.
# A command that refuses a file (a heap command on a CPU profile) is left
# out; each block must have been checked on some output.
# Usage: check-json-schema.sh PROFDATA SOURCE_ROOT PYTHON
set -euo pipefail
tool=$1 root=$2 python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$root/tests/data
fixtures=("$data"/hprof/jdk17-minimal.hprof "$data"/hprof/jdk17-types.hprof.gz
          "$data"/hprof/synthetic/agent-1.0.1-id4.hprof "$data"/gperftools/cpu-100hz.prof
          "$data"/gperftools/api-start-stop.prof "$data"/classic/openj9-64.txt
          "$data"/classic/jdk17-minimal.txt.gz "$data"/jfr/synthetic/tiny.jfr)
if "$tool" formats | grep -q '^tracexml '; then
  fixtures+=("$data"/tracexml/every-element.xml "$data"/tracexml/fragments.xml)
else
  echo "tracexml: not in this build, its fixtures left out"
fi
n=0
run() { # SCHEMA-ID FILE ARGS...: keep the output when the command accepts the file
  local id=$1 f=$2; shift 2
  n=$((n + 1))
  if "$tool" "$@" --json --quiet >"$work/$n.json" 2>"$work/$n.err"; then
    printf '%s\t%s\t%s\n' "$id" "$work/$n.json" "profdata $* --json" >>"$work/runs"
  else
    echo "refused: profdata $* --json: $(head -n1 "$work/$n.err")"
  fi
}
: >"$work/runs"
for f in "${fixtures[@]}"; do
  run info "$f" info "$f"
  run histo "$f" histo "$f" --limit 5
  run histo "$f" histo "$f" --dump all --limit 5
  run histo-retained "$f" histo "$f" --retained --limit 5
  # top: a heap dump's objects, or a profile's functions (schema top-heap or top-samples)
  run top "$f" top "$f" -n 40
  if [ -s "$work/$n.json" ] && grep -q '^{"objects"' "$work/$n.json"; then
    # the path to each of the biggest objects: class objects, instances, array elements
    for id in $("$python" -c 'import json,sys; print(" ".join(str(o["id"]) for o in json.load(open(sys.argv[1]))["objects"]))' "$work/$n.json"); do
      run path "$f" path "$f" "$id"
    done
  fi
  run top "$f" top "$f" --lines -n 5
  run top "$f" top "$f" --files -n 5
  run suspects "$f" suspects "$f" --threshold 5
  run waste "$f" waste "$f" --limit 3
done
# planted leaks: an object suspect (a class object) and a class suspect
run suspects "$data/hprof/jdk17-leaks.hprof.gz" suspects "$data/hprof/jdk17-leaks.hprof.gz"
# planted waste: every list has rows, owners too
run waste "$data/hprof/jdk17-waste.hprof.gz" waste "$data/hprof/jdk17-waste.hprof.gz"
# two dumps of one process before and after a planted growth
run heap-diff "$data/hprof/jdk17-growth-2.hprof.gz" diff "$data/hprof/jdk17-growth-1.hprof.gz" \
  "$data/hprof/jdk17-growth-2.hprof.gz"

"$python" - "$root/doc/guide.md" "$work/runs" <<'PY'
import json, re, sys

def schema_paths(text):
    """Key paths of a schema block: "a.b", "a[].b"; NAME stands for any key (*)."""
    text = "\n".join(line.split("//")[0] for line in text.splitlines())
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,|]|[^\s{}\[\]:,|"]+', text)
    paths, stack, pending = set(), [], []   # stack: (kind, path); pending: keys before ':'
    i = 0
    while i < len(tokens):
        t = tokens[i]
        in_object = stack and stack[-1][0] == "{"
        if in_object and t not in "{}[]:,|" and i + 1 < len(tokens) and tokens[i + 1] in (":", "|"):
            key = json.loads(t) if t.startswith('"') else "*"
            pending.append(stack[-1][1] + ("." if stack[-1][1] else "") + key)
            if tokens[i + 1] == ":":
                paths.update(pending)
            i += 2
            continue
        if t in "{[":
            base = pending[:] if pending else [stack[-1][1] if stack else ""]
            for b in base:
                stack.append((t, b + ("[]" if t == "[" else "")))
            # several keys sharing one value: the rest of the block is walked once per key
            if len(base) > 1:
                return paths | set().union(*(schema_paths_from(tokens[i:], b) for b in base))
            pending = []
        elif t in "}]":
            stack.pop()
        elif t == ",":
            pending = []
        i += 1
    return paths

def schema_paths_from(tokens, base):
    """The paths of the value that starts tokens, under base (for "a" | "b": ...)."""
    depth, end = 0, 0
    for end, t in enumerate(tokens):
        depth += t in "{[" and 1 or t in "}]" and -1 or 0
        if depth == 0:
            break
    inner = " ".join(tokens[: end + 1])
    return {base + p[len("X"):] for p in schema_paths('{"X": ' + inner + "}")} | {base}

def output_paths(value, base=""):
    if isinstance(value, dict):
        for k, v in value.items():
            # a key that is data may hold dots (a JFR event type's name): not a path's steps
            p = base + ("." if base else "") + k.replace(".", "_")
            yield p
            yield from output_paths(v, p)
    elif isinstance(value, list):
        for v in value:
            yield from output_paths(v, base + "[]")

guide, runs = sys.argv[1], sys.argv[2]
blocks = dict(re.findall(r"^```schema (\S+)\n(.*?)^```$", open(guide).read(), re.S | re.M))
schemas = {k: schema_paths(v) for k, v in blocks.items()}
for k, v in schemas.items():
    assert v, f"doc/guide.md: the schema block {k} has no keys"
def documented(path, paths):
    return any(re.fullmatch(re.escape(s).replace(r"\*", r"[^.\[]+"), path) for s in paths)
failures, checked, seen = [], {k: 0 for k in schemas}, {}
for line in open(runs):
    sid, out, cmd = line.rstrip("\n").split("\t")
    value = json.load(open(out))
    if sid == "top":
        sid = "top-heap" if "objects" in value else "top-samples"
    if sid not in schemas:
        failures.append(f"doc/guide.md has no ```schema {sid} block ({cmd})")
        continue
    checked[sid] += 1
    for p in set(output_paths(value)):
        seen.setdefault(sid, set()).add(p)
        if not documented(p, schemas[sid]):
            failures.append(f"{cmd}: key {p} is not in doc/guide.md's schema {sid}")
for sid, count in checked.items():
    print(f"{sid}: {count} outputs, {len(seen.get(sid, ()))} key paths, all in doc/guide.md" if count else
          f"{sid}: no output checked")
    if not count:
        failures.append(f"schema {sid}: no command printed it on any fixture")
for f in sorted(set(failures)):
    print("FAIL:", f)
sys.exit(1 if failures else 0)
PY
