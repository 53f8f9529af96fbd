#!/bin/bash
# Runs a command and samples its memory every 0.2 s from /proc/<pid>/status: elapsed ms, VmRSS,
# RssAnon (heaps, buffers) and RssFile (mapped files: the build store's pages, the code), in MiB.
# Usage: bench/rss-sampler.sh LOG command...   (the command's output goes to LOG.out; prints the peak line)
# E.g.: bench/rss-sampler.sh /tmp/cold.log node bench/run-build.mjs bench/.corpus/100000 bench/.corpus/100000/dist
log=$1
shift
"$@" > "$log.out" 2>&1 &
pid=$!
start=$(date +%s%N)
: > "$log"
while kill -0 "$pid" 2>/dev/null; do
  sample=$(awk '/^(VmRSS|RssAnon|RssFile):/ {printf "%d ", $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
  echo "$(( ($(date +%s%N) - start) / 1000000 )) $sample" >> "$log"
  sleep 0.2
done
wait "$pid"
code=$?
sort -k2 -n "$log" | tail -1
exit $code
