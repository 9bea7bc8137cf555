#!/usr/bin/env bash
# Runs rtrb's own integration tests (tests/*.rs of the crates.io package)
# against hotq-spsc, renamed as `rtrb`, and prints each test's outcome:
# how far hotq-spsc is a drop-in replacement for rtrb, measured.
#
#     spsc/compat/rtrb.sh             # rtrb 0.4.1, scratch crate under target/
#
# Environment:
#   RTRB_VERSION       the rtrb release whose tests run (default 0.4.1)
#   RTRB_COMPAT_DIR    the scratch folder (default target/rtrb-compat)
#   RTRB_COMPAT_EDITS  a sed script applied to the copied tests (default:
#                      none; every edit is a difference a user would hit)
#
# Nothing of rtrb is kept in the repository: cargo fetches the package
# (its ordinary client, into ~/.cargo/registry) and the tests are copied
# into a scratch crate outside the workspace that depends on hotq-spsc by
# path as `rtrb = { package = "hotq-spsc", path = ... }` (with rtrb's own
# dev-dependency `rand`, and a `std` feature on by default as rtrb has, so
# that `#![cfg(feature = "std")]` files are compiled as in rtrb).
#
# A test that does not compile against hotq-spsc is reported as such and
# removed (only whole `#[test]` functions are), and the file is compiled
# again, so that the others still run; an error outside every test (an
# import) stops the whole file. Exit status 0 once every file is measured,
# whatever the outcome; 2 when the set-up fails.
set -euo pipefail

version=${RTRB_VERSION:-0.4.1}
spsc=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$spsc/.." && pwd)
work=${RTRB_COMPAT_DIR:-$root/target/rtrb-compat}
mkdir -p "$work"
work=$(cd "$work" && pwd)

fail() {
    echo "rtrb.sh: $*" >&2
    exit 2
}

# 1. rtrb's source, through cargo.
fetch="$work/fetch"
mkdir -p "$fetch/src"
: >"$fetch/src/lib.rs"
cat >"$fetch/Cargo.toml" <<EOF
[package]
name = "rtrb-fetch"
version = "0.0.0"
edition = "2018"
publish = false

[dependencies]
rtrb = "=$version"

[workspace]
EOF
cargo fetch --quiet --manifest-path "$fetch/Cargo.toml" || fail "cargo could not fetch rtrb $version"
manifest=$(cargo metadata --quiet --format-version 1 --manifest-path "$fetch/Cargo.toml" |
    python3 -c 'import json, sys
d = json.load(sys.stdin)
print(next(p["manifest_path"] for p in d["packages"] if p["name"] == "rtrb"))') ||
    fail "rtrb $version not found in cargo metadata"
rtrb=$(dirname "$manifest")
rand=$(sed -n '/^\[dev-dependencies.rand\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$manifest")
[ -n "$rand" ] || fail "no rand dev-dependency in $manifest"

# 2. The scratch crate: rtrb's tests, hotq-spsc as `rtrb`.
crate="$work/crate"
rm -rf "$crate/tests" "$crate/src"
mkdir -p "$crate/tests" "$crate/src"
: >"$crate/src/lib.rs"
cat >"$crate/Cargo.toml" <<EOF
[package]
name = "rtrb-compat"
version = "0.0.0"
edition = "2018"
publish = false

[features]
default = ["std"]
std = []

[dev-dependencies]
rtrb = { package = "hotq-spsc", path = "$spsc" }
rand = "$rand"

[lints.rust]
unexpected_cfgs = "allow"
static_mut_refs = "allow"

[workspace]
EOF
cp "$rtrb"/tests/*.rs "$crate/tests/"
if [ -n "${RTRB_COMPAT_EDITS:-}" ]; then
    echo "edits applied to rtrb's tests: $RTRB_COMPAT_EDITS"
    sed -i -e "$RTRB_COMPAT_EDITS" "$crate"/tests/*.rs
fi

echo "rtrb $version's tests ($rtrb/tests) against hotq-spsc ($spsc)"

# 3. Each file: compile (dropping the tests that do not), run, report.
export CARGO_TARGET_DIR="$work/target" RUST_BACKTRACE=0
results="$work/results.txt"
: >"$results"
for file in "$crate"/tests/*.rs; do
    name=$(basename "$file" .rs)
    python3 - "$file" "$name" "$crate" "$results" <<'PY'
import re, subprocess, sys

path, name, crate, results = sys.argv[1:]

def tests_in(lines):
    """(name, first line, last line) of each top-level #[test] fn, 0-based."""
    found, i = [], 0
    while i < len(lines):
        if lines[i].startswith("#[test]"):
            start = i
            while start > 0 and lines[start - 1].startswith("#["):
                start -= 1
            j = i
            while not lines[j].startswith("fn "):
                j += 1
            fn = re.match(r"fn (\w+)", lines[j]).group(1)
            end = j
            while lines[end].rstrip() != "}":
                end += 1
            found.append((fn, start, end))
            i = end
        i += 1
    return found

with open(path) as f:
    lines = f.read().split("\n")
all_tests = [t[0] for t in tests_in(lines)]
outcome = {}

def cargo(*args):
    return subprocess.run(["cargo", *args, "--test", name, "--manifest-path",
                           crate + "/Cargo.toml"], capture_output=True, text=True)

for _ in range(len(all_tests) + 1):
    build = cargo("test", "--no-run", "--quiet", "--message-format=short")
    if build.returncode == 0:
        break
    errors = [(int(m.group(1)), m.group(2)) for m in re.finditer(
        r"^tests/" + re.escape(name) + r"\.rs:(\d+):\d+: (error.*)$", build.stderr, re.M)]
    if not errors:
        sys.exit("cannot build tests/%s.rs:\n%s" % (name, build.stderr[-3000:]))
    spans = tests_in(lines)
    doomed = {}
    for line, msg in errors:
        owner = [t for t in spans if t[1] <= line - 1 <= t[2]]
        if not owner:
            for fn, _, _ in spans:
                outcome[fn] = "COMPILE  (file: line %d: %s)" % (line, msg)
            spans = []
            doomed = None
            break
        doomed.setdefault(owner[0], msg)
    if doomed is None:
        break
    for (fn, start, end), msg in sorted(doomed.items(), key=lambda d: -d[0][1]):
        outcome[fn] = "COMPILE  (%s)" % msg
        del lines[start:end + 1]
    with open(path, "w") as f:
        f.write("\n".join(lines))

if any(v.startswith("COMPILE  (file") for v in outcome.values()):
    pass
else:
    run = cargo("test")
    out = run.stdout + run.stderr
    for fn, status in re.findall(r"^test (\w+)(?: - should panic)? \.\.\. (ok|FAILED|ignored)", out, re.M):
        if status == "ok":
            outcome[fn] = "pass"
        else:
            why = re.search(r"---- %s stdout ----\n(?:.*\n)*?(.*panicked at .*\n(?:.*\n){0,3})" % fn, out)
            detail = ""
            if why:
                said = []
                for l in why.group(1).splitlines()[1:]:
                    if not l.strip() or l.startswith(("note:", "----", "stack backtrace")):
                        break
                    said.append(l.strip())
                detail = " ".join(said)[:160]
            if not detail:
                m = re.search(r"---- %s stdout ----\n(?:.*\n)*?note: (test did not panic.*|panic did not contain.*)" % fn, out)
                detail = m.group(1) if m else status
            outcome[fn] = "FAIL     (%s)" % detail
    # A harness that aborted (a test that aborts the process) reports no
    # line for the rest.
    for fn in all_tests:
        outcome.setdefault(fn, "FAIL     (no result: the test binary exited with %d)" % run.returncode)

with open(results, "a") as f:
    for fn in all_tests:
        print("%-12s %-48s %s" % (name, fn, outcome[fn]))
        f.write("%s\t%s\t%s\n" % (name, fn, outcome[fn].split()[0]))
PY
done

total=$(wc -l <"$results")
compiled=$(grep -vc $'\tCOMPILE' "$results" || true)
passed=$(grep -c $'\tpass' "$results" || true)
echo "rtrb $version against hotq-spsc: $compiled of $total tests compile, $passed of $total pass"
