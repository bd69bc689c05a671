# Shared by the daemon's end-to-end scripts (tests/service/*_e2e.sh) and the soak (tests/soak/soak.sh),
# sourced after tests/cli/common.sh.
#
# start_daemon PARAM_CACHE: `cuzk serve` on a free loopback port, one GPU worker, PARAM_CACHE as
# srs.param_cache (subgroup checks off: the tests' own keys), its log in $WORK/daemon.log; waits until
# it listens (fails when it exits first, or does not listen within 30 s times CUZK_TEST_TIMEOUT_SCALE) and
# sets DAEMON (its pid) and A (its gRPC address).
# serve_config: the same with the config already written to $WORK/cuzk.toml (daemon.listen on port 0).
# alive WHAT: fails, showing the log, when the daemon has died (after WHAT).
start_daemon() {
  cat >"$WORK/cuzk.toml" <<TOML
[daemon]
listen = "127.0.0.1:0"
[gpus]
gpu_workers_per_device = 1
[srs]
param_cache = "$1"
verify_subgroup = false
TOML
  serve_config
}

serve_config() {
  "$CUZK" serve --config "$WORK/cuzk.toml" >"$WORK/daemon.log" 2>&1 &
  DAEMON=$!
  local end
  end=$(deadline 30)
  until grep -q "cuzk daemon listening" "$WORK/daemon.log"; do
    kill -0 $DAEMON 2>/dev/null || { cat "$WORK/daemon.log"; fail "the daemon exited at start"; }
    before "$end" || { cat "$WORK/daemon.log"; fail "the daemon did not listen within $(scaled 30) s"; }
    sleep 0.1
  done
  local port
  port=$(sed -n 's/.*grpc=[^ ]* (port \([0-9]*\)).*/\1/p' "$WORK/daemon.log")
  [ -n "$port" ] || { cat "$WORK/daemon.log"; fail "no port in the daemon's log"; }
  A="127.0.0.1:$port"
}

alive() { kill -0 $DAEMON 2>/dev/null || { cat "$WORK/daemon.log"; fail "the daemon died after $1"; }; }
