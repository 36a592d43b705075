#!/usr/bin/env bash
# A cold build of the server with one Cargo profile, measured: wall and CPU time, the binary's
# size, and cargo's own timings page (which crate took how long), in a target folder of its own
# so that nothing already built is reused.
#
#   bench/build-time.sh release            # what `make run` builds
#   bench/build-time.sh dist               # what `make dist` builds
#   bench/build-time.sh release --config 'profile.release.lto="thin"'   # an experiment
#
# The site (`web/dist`) must be built first (`make web`): the binary embeds it. Run it on a quiet
# machine: anything else running makes the times longer.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:?which profile: release or dist}
shift
out=${BUILD_TIME_DIR:-/tmp/portfolio-build-time}/$profile-$(date +%s)
mkdir -p "$out"
export CARGO_TARGET_DIR=$out/target
start=$(date +%s.%N)
/usr/bin/time -f '%e %U %S' -o "$out/time" \
  cargo build --locked --profile "$profile" --timings "$@" >"$out/build.log" 2>&1 || {
  tail -20 "$out/build.log"
  exit 1
}
end=$(date +%s.%N)
read -r wall user sys <"$out/time"
binary=$CARGO_TARGET_DIR/$profile/portfolio
size=$(stat -c %s "$binary")
cp "$CARGO_TARGET_DIR"/cargo-timings/cargo-timing.html "$out/" 2>/dev/null || true
printf 'profile %s %s\n' "$profile" "$*"
printf '  wall %.0f s, CPU %.0f s user + %.0f s system, on %s cores\n' "$wall" "$user" "$sys" "$(nproc)"
printf '  binary %s bytes (%.1f MB)\n' "$size" "$(echo "$size / 1000000" | bc -l)"
printf '  timings: %s\n' "$out/cargo-timing.html"
# The ten slowest units, from the timings page's data.
node -e '
  const html = require("fs").readFileSync(process.argv[1], "utf8");
  const data = JSON.parse(html.match(/const UNIT_DATA = (\[.*?\]);/s)[1]);
  const units = data.sort((a, b) => b.duration - a.duration).slice(0, 10);
  for (const u of units) console.log(`  ${u.duration.toFixed(1).padStart(6)} s  ${u.name} ${u.version}${u.target}`);
' "$out/cargo-timing.html" 2>/dev/null || true
echo "  (elapsed $(echo "$end - $start" | bc) s)"
