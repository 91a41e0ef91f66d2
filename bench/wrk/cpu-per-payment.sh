#!/bin/bash
# CPU time of the gateway per payment, and throughput, under Debian's wrk (apt-get install wrk):
#   bash bench/wrk/cpu-per-payment.sh [seconds] [connections]
# Starts `gateway serve` on a fresh data dir pinned to CPU 0, warms up 3 s, then runs wrk pinned to
# CPU 1 and reads the server's utime+stime from /proc before and after. CPU per request is far
# steadier than req/s on a shared machine, so A/B comparisons of a change use it.
# GWARGS="--cpu-prof --cpu-prof-dir DIR" profiles the server.
set -euo pipefail
secs=${1:-8}
conns=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$(mktemp -d /tmp/tillgate-wrk-XXXXXX)
port=18600
trap 'kill -0 $pid 2>/dev/null && kill $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
cd "$root"
merchant=$(node bin/gateway.js merchant create --data-dir "$dir" --name Bench --json)
AUTH="Basic $(node -e 'const j = JSON.parse(process.argv[1]); console.log(Buffer.from(`${j.api_key}:${j.api_password}`).toString("base64"))' "$merchant")"
export AUTH
# shellcheck disable=SC2086
taskset -c 0 node ${GWARGS:-} bin/gateway.js serve --data-dir "$dir" --port $port > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
taskset -c 1 wrk -t1 -c"$conns" -d3s -s "$here/payment.lua" "http://127.0.0.1:$port" > /dev/null
before=$(awk '{print $14 + $15}' /proc/$pid/stat)
out=$(taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" -s "$here/payment.lua" "http://127.0.0.1:$port")
after=$(awk '{print $14 + $15}' /proc/$pid/stat)
requests=$(echo "$out" | grep -oE '[0-9]+ requests in' | grep -oE '^[0-9]+')
ticks=$(getconf CLK_TCK)
echo "$out" | grep RESULT | tr '\n' ' '
echo "cpu_us_per_payment=$(( (after - before) * 1000000 / ticks / requests ))"
# One SIGTERM, then wait: a second one cuts the shutdown short (and a --cpu-prof profile with it).
kill -TERM $pid
wait $pid 2>/dev/null || true
