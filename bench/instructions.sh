#!/usr/bin/env bash
# Instructions per command (issue 16): valgrind's count, which the machine's load does not move, of two
# lengths of one run, their difference divided by the difference in commands. Run from the tree to measure:
#
#   bench/instructions.sh latency      # the whole server, 1 fight, 8 watchers (bench/cpu_in_process.py)
#   bench/instructions.sh throughput   # the whole server, 16 fights, the GM watching each
#   bench/instructions.sh exec         # Engine.execute alone, in process (bench/publish_loop.py)
#   bench/instructions.sh pub          # execute + FightHub.publish to 8 in-process seats
#   BENCH_PLAYERS=0 BENCH_SPECTATORS=0 bench/instructions.sh latency   # the GM the only watcher
#   bench/instructions.sh client       # a client's _dispatch per live push (bench/client_dispatch.py, recorded pushes)
#
# Runs of one tree differ by 10-70 k (hash seeds, a collection falling in or out): compare medians of
# alternating runs, or set PYTHONHASHSEED=0.
set -euo pipefail
cd "$(dirname "$0")/.."
shape="${1:-latency}"
py="$(python -c 'import sys, os; print(os.path.realpath(sys.executable))')"
case "$shape" in
    latency) script=bench/cpu_in_process.py; a=100; b=400 ;;
    throughput) script=bench/cpu_in_process.py; a=320; b=1280 ;;
    exec|pub) script=bench/publish_loop.py; a=100; b=400 ;;
    client) script=bench/client_dispatch.py; a=500; b=2000
        ls "${TMPDIR:-/tmp}/combat-client-pushes/spectator.jsonl" >/dev/null 2>&1 || PYTHONPATH="$PWD" "$py" "$script" record ;;
    *) echo "usage: $0 latency|throughput|exec|pub|client" >&2; exit 2 ;;
esac
count() {
    PYTHONPATH="$PWD" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$py" "$script" "$shape" "$1" 2>&1 | grep -E 'I +refs' | tr -d ',' | awk '{print $NF}'
}
first="$(count "$a")"
second="$(count "$b")"
echo "$shape: $(( (second - first) / (b - a) )) instructions per $([ "$shape" = client ] && echo push || echo command) (Ir($b) - Ir($a) = $second - $first)"
