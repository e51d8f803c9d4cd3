#!/usr/bin/env bash
# Runs the bounded demo (embedded Kafka, both jobs on a MiniCluster, the whole sample) RUNS times
# while busy threads saturate every core, and fails on the first run that does not account for
# every record and every window (the demo itself checks: records in = perturbed + dead-lettered,
# every window, group and field present over all of its records; it exits non-zero otherwise).
#
#   mvn -B package -DskipTests && tools/demo/demo-under-load.sh [RUNS] [BUSY_THREADS_PER_CORE]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
per_core=${2:-2}
jar=${OGPM_JAR:-tools/cli/target/ogpm.jar}
out=$(mktemp -d /tmp/ogpm-demo-under-load.XXXXXX)
[ -f "$jar" ] || { echo "no $jar: run mvn -B package -DskipTests first" >&2; exit 2; }

busy=()
for _ in $(seq $(( $(nproc) * per_core ))); do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null || true' EXIT
echo "$(nproc) cores, ${#busy[@]} busy threads; logs in $out"

for run in $(seq "$runs"); do
  start=$(date +%s)
  if ! java -jar "$jar" demo --web-ui-port 0 > "$out/run-$run.out" 2> "$out/run-$run.err"; then
    echo "run $run FAILED after $(( $(date +%s) - start )) s: $(grep '^ogpm:' "$out/run-$run.err" | tail -1)"
    exit 1
  fi
  perturbed=$(sed -n 's/^PerturbJob: \([0-9]*\) records perturbed.*, \([0-9]*\) dead-lettered.*/\1 perturbed, \2 dead-lettered/p' "$out/run-$run.out")
  windows=$(sed -n 's/^AggregateJob: \([0-9]*\) window statistics.*/\1 window statistics/p' "$out/run-$run.out")
  echo "run $run ok in $(( $(date +%s) - start )) s: $perturbed, $windows"
done
echo "all $runs runs accounted for every record and window"
