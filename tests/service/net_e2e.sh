#!/usr/bin/env bash
# `cuzk serve`'s connections end to end (issue 36):
# N1: under `ulimit -n 256`, 300 silent TCP connections held open and then closed never stop the gRPC port
#     (gRPC 1.51's own listener stopped for good after "Failed accept4: Too many open files"): the daemon
#     keeps below its descriptor limit, closes the silent connections after limits.handshake_timeout_s,
#     and GetStatus answers while they are held and after they are closed.
# N6: two daemons started at the same instant on one unix socket: exactly one listens, the other exits 2
#     naming the lock file (8 tries; before, both stayed up in 2 of 8).
NO_ORACLE=1
source "$(dirname "$0")/../cli/common.sh"
DAEMON=
FLOOD=
trap '[ -n "$DAEMON" ] && kill -9 $DAEMON 2>/dev/null; [ -n "$FLOOD" ] && kill -9 $FLOOD 2>/dev/null; rm -rf "$WORK"' EXIT

# status ADDR SECONDS: GetStatus answers within SECONDS (retried while the daemon refuses connections).
status() {
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    timeout 5 "$CUZK" client status --addr "$1" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}
# fds PID: descriptors the process has open.
fds() { ls /proc/$1/fd | wc -l; }

echo "== N1: 300 silent connections under ulimit -n 256 do not stop the gRPC port"
cat >"$WORK/n1.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_threads = 1
[synthesis]
threads = 1
[limits]
handshake_timeout_s = 2
TOML
(ulimit -n 256 && exec "$CUZK" serve --config "$WORK/n1.toml") >"$WORK/n1.log" 2>&1 &
DAEMON=$!
for _ in $(seq 100); do
  grep -q "cuzk daemon listening" "$WORK/n1.log" && break
  kill -0 $DAEMON 2>/dev/null || { cat "$WORK/n1.log"; fail "the daemon exited at start"; }
  sleep 0.1
done
PORT=$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/n1.log")
A="127.0.0.1:$PORT"
grep -q "max_connections=128 fd_limit=256" "$WORK/n1.log" || { cat "$WORK/n1.log"; fail "expected 128 connections at fd limit 256"; }
status "$A" 5 || fail "no GetStatus before the flood"
# The flood: 300 connections that send nothing, held until $WORK/release exists, then closed.
python3 - "$PORT" "$WORK" >"$WORK/flood.log" 2>&1 <<'PY' &
import os, socket, sys, time
port, work = int(sys.argv[1]), sys.argv[2]
socks = []
for _ in range(300):
    try:
        socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    except OSError as e:
        print("connect:", e)
print("opened", len(socks), flush=True)
open(os.path.join(work, "opened"), "w").close()
while not os.path.exists(os.path.join(work, "release")):
    time.sleep(0.05)
for s in socks:
    s.close()
print("closed", flush=True)
PY
FLOOD=$!
for _ in $(seq 200); do [ -e "$WORK/opened" ] && break; sleep 0.05; done
[ -e "$WORK/opened" ] || { cat "$WORK/flood.log"; fail "the flood did not connect"; }
N=$(fds $DAEMON)
[ "$N" -lt 200 ] || fail "the daemon holds $N descriptors during the flood (limit 256)"
grep -q "connections are open (limits.max_connections)" "$WORK/n1.log" || { cat "$WORK/n1.log"; fail "no cap warning"; }
# The silent connections are closed after 2 s: calls are served while the flood still holds its sockets.
status "$A" 10 || { cat "$WORK/n1.log"; fail "no GetStatus within 10 s while the flood holds its connections"; }
touch "$WORK/release"
wait $FLOOD
FLOOD=
status "$A" 5 || { cat "$WORK/n1.log"; fail "no GetStatus within 5 s after the flood closed its connections"; }
# A second flood, closed at once: the port still answers.
python3 -c "
import socket
s = [socket.create_connection(('127.0.0.1', $PORT)) for _ in range(300)]
[c.close() for c in s]"
status "$A" 5 || { cat "$WORK/n1.log"; fail "no GetStatus within 5 s after a second flood"; }
if grep -q "Failed accept4" "$WORK/n1.log"; then cat "$WORK/n1.log"; fail "gRPC's own listener accepted"; fi
kill -TERM $DAEMON
wait $DAEMON || fail "the daemon exited $? after SIGTERM"
DAEMON=

echo "== N6: two daemons started at once on one unix socket: exactly one listens"
SOCK="$WORK/cuzk.sock"
printf '[daemon]\nlisten = "unix://%s"\n[gpus]\ngpu_threads = 1\n[synthesis]\nthreads = 1\n' "$SOCK" >"$WORK/n6.toml"
for try in $(seq 8); do
  "$CUZK" serve --config "$WORK/n6.toml" >"$WORK/a.log" 2>&1 &
  P1=$!
  "$CUZK" serve --config "$WORK/n6.toml" >"$WORK/b.log" 2>&1 &
  P2=$!
  # One of them exits 2 ...
  LOSER= WINNER=
  for _ in $(seq 100); do
    if ! kill -0 $P1 2>/dev/null; then LOSER=$P1 WINNER=$P2 LOG="$WORK/a.log"; break; fi
    if ! kill -0 $P2 2>/dev/null; then LOSER=$P2 WINNER=$P1 LOG="$WORK/b.log"; break; fi
    sleep 0.1
  done
  DAEMON="$P1 $P2"
  [ -n "$LOSER" ] || { cat "$WORK/a.log" "$WORK/b.log"; fail "try $try: both daemons are up after 10 s"; }
  rc=0
  wait $LOSER || rc=$?
  [ $rc -eq 2 ] || { cat "$LOG"; fail "try $try: the second daemon exited $rc, expected 2"; }
  grep -q "daemon.listen: cannot listen on unix://$SOCK: another daemon holds $SOCK.lock" "$LOG" \
    || { cat "$LOG"; fail "try $try: the second daemon does not name the lock"; }
  # ... and the other serves on the socket.
  DAEMON=$WINNER
  status "unix://$SOCK" 10 || fail "try $try: the daemon that won does not answer"
  kill -TERM $WINNER
  wait $WINNER || fail "try $try: the daemon exited $? after SIGTERM"
  DAEMON=
  [ ! -e "$SOCK" ] || fail "try $try: the socket file is left after a clean stop"
done
echo "net e2e: all passed"
