#!/usr/bin/env bash
# A proving farm end to end (docs/CLUSTER.md): `cuzk serve` nodes (CPU backends) sharing one throw-away
# PostgreSQL server. One scenario per run, named by the first argument:
#   basic     FARM_JOBS circom jobs (default 100) submitted round-robin to 3 nodes; every job answered
#             by every node with the same proofs, which cuzk verifies (and snarkjs for the first);
#             request_id idempotency and a farm-wide cancel; `client status` lists the 3 nodes; a job
#             of 30 partitions answers gpu_compute_ms <= total_ms although its partitions' GPU times
#             add up to more.
#   failover  kill -9 of a node holding leases: every job completes within about 2 leases, each
#             partition stored once; a SIGSTOPped node whose leases were taken over stores nothing
#             when it wakes; the killed node restarts and claims work again.
#   dbrestart PostgreSQL restarted mid-run: SubmitProof is UNAVAILABLE while it is away, the nodes
#             reconnect, no job is lost; then PostgreSQL crashes (immediate stop) while the nodes
#             prove: they stay up and every job completes with proofs that verify.
#   failures  cluster.max_queued_bytes refuses a submit whose input, with what the farm's jobs not
#             finished hold, is over it; a corrupt witness fails its job once, for good; a second
#             process given a running node's node_id exits 2 and the running one keeps its leases; a
#             partition whose node dies every time (restarting under its node_id, which it takes over)
#             is claimed cluster.max_attempts times, then its job fails saying so.
#   deadline  a low-priority job due soon (within scheduler.deadline_lead_s) is claimed before the queued
#             partitions of a critical job; low-priority jobs without a near deadline are not.
#   porep     the Filecoin kinds at 2 KiB (fake inputs; TESTING-ONLY keys set up once before the 2 nodes
#             start: PoRep ~2 min, SnapDeals ~45 s, the PoSt ones seconds). POREP_SEAL_COMMIT jobs
#             submitted to one node of 2 and proved across them; each proof verifies against its C1 and
#             the chain data, and every node answers the same bytes; a WINNING_POST job through the farm
#             verifies; a SNAP_DEALS_UPDATE and a WINDOW_POST_PARTITION job, each submitted to one node
#             and awaited on both: the same bytes from both, verified by `cuzk snap verify` / `cuzk post
#             verify` against their inputs, the kind in cuzk_jobs; a bad C1 (truncated, or its comm_r
#             changed), a truncated SnapDeals vanilla proof and truncated WindowPoSt vanilla proofs are
#             refused at submit naming the problem, nothing stored; a stored input corrupted in the database (its SHA-256 wrong, or a
#             C1 that no longer parses) fails its job once, for good.
source "$(dirname "$0")/../cli/common.sh"
source "$(dirname "$0")/farm_common.sh"
MODE=${1:?basic, failover, dbrestart, failures, deadline or porep}
W_TINY="$D/tiny/mul.wtns"
W_MIMC="$D/mimc/mimc.wtns"
VK_TINY="$D/tiny/verification_key.json"
VK_MIMC="$D/mimc/mimc_dev_vk.json"

# await_ok NODE JOB [TIMEOUT_MS]: the job completes within TIMEOUT_MS (default 60000; times
# CUZK_TEST_TIMEOUT_SCALE), answered by NODE (proofs into $WORK/ans/JOB.NODE/).
await_ok() {
  mkdir -p "$WORK/ans/$2.$1"
  "$CUZK" client await --addr "${ADDR[$1]}" --out "$WORK/ans/$2.$1" --timeout-ms "$(scaled "${3:-60000}")" "$2" >"$WORK/ans/$2.$1.json" \
    || { cat "$WORK/ans/$2.$1.json"; fail "job $2 on node $1: not completed"; }
}
# stored_once FILE_OF_JOBS: every partition of those jobs has its proof stored once (no two partition_stored
# lines for one partition in all the logs, none beyond the job's partitions) and is done in the database.
stored_once() {
  local dup
  dup=$(cat "$WORK"/node-*.log | sed -n 's/.*partition_stored job=\([^ ]*\) partition=\([0-9]*\).*/\1 \2/p' | sort | uniq -d)
  [ -z "$dup" ] || fail "partitions stored twice: $dup"
  local bad
  bad=$(sql "SELECT count(*) FROM cuzk_partitions WHERE state <> 'done' OR proof IS NULL")
  [ "$bad" -eq 0 ] || fail "$bad partitions not done in the database"
  while read -r j; do
    local want got
    want=$(sql "SELECT n_partitions FROM cuzk_jobs WHERE id = '$j'")
    got=$(cat "$WORK"/node-*.log | grep -c "partition_stored job=$j " || true)
    # At most: a node killed with kill -9 between its store's commit and its log line leaves one fewer
    # (the database says every partition is done, above; a duplicate shows in the uniq -d above).
    [ "$got" -le "$want" ] || fail "job $j: $got partitions stored, expected $want"
  done <"$1"
}
start_pg

case "$MODE" in
basic)
  N=${FARM_JOBS:-100}
  for n in 1 2 3; do start_node $n; done
  echo "== $N jobs round-robin to 3 nodes"
  : >"$WORK/jobs"
  for i in $(seq 0 $((N - 1))); do
    n=$((i % 3 + 1))
    if [ $((i % 5)) -eq 0 ]; then
      echo "mimc $(submit $n mimc "$W_MIMC" --partitions 2)" >>"$WORK/jobs"
    else
      echo "tiny $(submit $n tiny "$W_TINY")" >>"$WORK/jobs"
    fi
  done
  cut -d' ' -f2 "$WORK/jobs" >"$WORK/ids"
  echo "== every job answered by every node; proofs verify"
  first=1
  while read -r c j; do
    for n in 1 2 3; do await_ok $n "$j"; done
    cmp -s "$WORK/ans/$j.1/proof.bin" "$WORK/ans/$j.2/proof.bin" && cmp -s "$WORK/ans/$j.1/proof.bin" "$WORK/ans/$j.3/proof.bin" \
      || fail "job $j: the nodes answer different proofs"
    vk=$VK_TINY
    [ "$c" = mimc ] && vk=$VK_MIMC
    for f in "$WORK/ans/$j.1"/proof_*.json; do
      i=${f##*proof_}
      i=${i%.json}
      "$CUZK" verify "$vk" "$WORK/ans/$j.1/public_$i.json" "$f" >/dev/null || fail "job $j partition $i: cuzk rejects the proof"
      if [ -n "$first" ]; then
        "${SNARKJS[@]}" groth16 verify "$vk" "$WORK/ans/$j.1/public_$i.json" "$f" | grep -q OK || fail "snarkjs rejects job $j"
        first=
      fi
    done
  done <"$WORK/jobs"
  stored_once "$WORK/ids"
  echo "== a job's gpu_compute_ms is the time some partition was on a GPU (<= total_ms), not their sum"
  jg=$(submit 1 mimc "$W_MIMC" --partitions 30)
  await_ok 2 "$jg"
  gpu=$(sed -n 's/.*"gpuComputeMs": "\([0-9]*\)".*/\1/p' "$WORK/ans/$jg.2.json")
  total=$(sed -n 's/.*"totalMs": "\([0-9]*\)".*/\1/p' "$WORK/ans/$jg.2.json")
  sum=$(sql "SELECT floor(sum(gpu_ms)) FROM cuzk_partitions WHERE job_id = '$jg'")
  longest=$(sql "SELECT floor(max(gpu_ms)) FROM cuzk_partitions WHERE job_id = '$jg'")
  echo "   gpu_compute_ms $gpu, total_ms $total; the 30 partitions' GPU times add up to $sum ms (longest $longest)"
  [ -n "$gpu" ] && [ -n "$total" ] || { cat "$WORK/ans/$jg.2.json"; fail "no gpuComputeMs or totalMs"; }
  [ "$sum" -gt "$total" ] || fail "the partitions' GPU phases did not overlap: the check below would prove nothing"
  [ "$gpu" -le "$total" ] || fail "gpu_compute_ms $gpu is more than total_ms $total"
  [ "$gpu" -ge "$longest" ] || fail "gpu_compute_ms $gpu is less than one partition's GPU time ($longest ms)"
  provers=$(sql "SELECT count(DISTINCT split_part(proved_by, '/', 1)) FROM cuzk_partitions")
  echo "   partitions proved by $provers nodes"
  [ "$provers" -ge 2 ] || fail "the work was not shared (proved by $provers node)"
  echo "== request_id: the same job from any node; a different request under it refused"
  r1=$(submit 1 tiny "$W_TINY" --request-id farm-r1)
  r2=$(submit 2 tiny "$W_TINY" --request-id farm-r1)
  [ "$r1" = "$r2" ] || fail "request_id farm-r1: $r1 on node 1, $r2 on node 2"
  expect_exit 2 "a different request under farm-r1" -- "$CUZK" client submit --addr "${ADDR[3]}" --circuit mimc --witness "$W_MIMC" --request-id farm-r1
  expect_err_contains "is taken by job $r1"
  await_ok 3 "$r1"
  pids=()
  for n in 1 2 3; do
    submit $n tiny "$W_TINY" --request-id farm-race >"$WORK/race.$n" &
    pids+=($!)
  done
  wait "${pids[@]}"
  [ "$(sort -u "$WORK"/race.* | wc -l)" -eq 1 ] || { cat "$WORK"/race.*; fail "one request_id sent to 3 nodes at once made several jobs"; }
  echo "== cancel on one node: the job is cancelled on every node; a retry is a new job"
  : >"$WORK/busy"
  for i in 1 2 3; do submit $i mimc "$W_MIMC" --partitions 4 --priority high >>"$WORK/busy"; done
  c=$(submit 1 mimc "$W_MIMC" --partitions 40 --priority low --request-id farm-c1)
  "$CUZK" client cancel --addr "${ADDR[2]}" "$c" | grep -q '"found": true' || fail "cancel: not found"
  "$CUZK" client await --addr "${ADDR[3]}" "$c" >"$WORK/cancelled.json" || true
  grep -q '"status": "CANCELLED"' "$WORK/cancelled.json" || { cat "$WORK/cancelled.json"; fail "job $c is not cancelled on node 3"; }
  c2=$(submit 3 mimc "$W_MIMC" --partitions 40 --priority low --request-id farm-c1)
  [ "$c2" != "$c" ] || fail "a retry after CANCELLED returned the cancelled job"
  "$CUZK" client cancel --addr "${ADDR[3]}" "$c2" | grep -q '"found": true' || fail "cancel of the retry: not found"
  while read -r j; do await_ok 1 "$j"; done <"$WORK/busy"
  echo "== client status lists the 3 nodes, alive"
  "$CUZK" client status --addr "${ADDR[2]}" >"$WORK/status.json"
  [ "$(grep -c '"alive": true' "$WORK/status.json")" -eq 3 ] || { cat "$WORK/status.json"; fail "status: not 3 live nodes"; }
  for n in 1 2 3; do grep -q "\"nodeId\": \"node-$n\"" "$WORK/status.json" || fail "status: node-$n missing"; done
  echo "== client status: the farm's totals, and each node's stored partitions adding up to them"
  # Fields in number order: the 3 nodes' partitionsStored, then the farm's.
  sed -n 's/.*"partitionsStored": "\([0-9]*\)".*/\1/p' "$WORK/status.json" >"$WORK/stored"
  [ "$(wc -l <"$WORK/stored")" -eq 4 ] || { cat "$WORK/status.json"; fail "status: expected 3 nodes' and the farm's partitionsStored"; }
  want=$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'done'")
  [ "$(tail -1 "$WORK/stored")" -eq "$want" ] || fail "status: the farm's partitionsStored is not the $want in the database"
  [ "$(head -3 "$WORK/stored" | awk '{s += $1} END {print s}')" -eq "$want" ] || fail "status: the nodes' partitionsStored do not add up to $want"
  want=$(sql "SELECT count(*) FROM cuzk_jobs WHERE state = 'completed'")
  grep -q "\"jobsCompleted\": \"$want\"" "$WORK/status.json" || { cat "$WORK/status.json"; fail "status: jobsCompleted is not $want"; }
  want=$(sql "SELECT count(*) FROM cuzk_jobs WHERE state = 'cancelled'")
  grep -q "\"jobsCancelled\": \"$want\"" "$WORK/status.json" || fail "status: jobsCancelled is not $want"
  for n in 1 2 3; do alive $n; done
  sed -n 's/.*claim_ms=\([0-9.]*\) store_ms=\([0-9.]*\).*/\1 \2/p' "$WORK"/node-*.log \
    | awk '{print $1 + $2}' | sort -n | awk '{a[NR]=$1} END {print "   claim+store per partition: median " a[int((NR+1)/2)] " ms over " NR}'
  ;;

failover)
  for n in 1 2 3; do start_node $n; done
  echo "== kill -9 of a node holding leases"
  : >"$WORK/ids"
  for i in 1 2; do submit $i mimc "$W_MIMC" --partitions 24 >>"$WORK/ids"; done
  end=$(deadline 10)
  while before "$end"; do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")" -gt 0 ] && break
    sleep 0.05
  done
  held=$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")
  [ "$held" -gt 0 ] || fail "node 2 never held a lease"
  t0=$(date +%s.%N)
  kill_node 2
  echo "   node 2 killed holding $held leases"
  # Its partitions are taken over once its leases expire ($LEASE): within 2 leases (times
  # CUZK_TEST_TIMEOUT_SCALE: on a busy machine the other nodes' claims come later).
  end=$(deadline "$(echo "3 * ${LEASE%s}" | bc)")
  while before "$end"; do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-2@%'")" -eq 0 ] && break
    sleep 0.05
  done
  t=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "   its partitions taken over ${t}s after the kill (lease $LEASE)"
  [ "$(echo "$t < 2 * ${LEASE%s} * $SCALE" | bc)" -eq 1 ] || fail "node 2's partitions were not taken over within 2 leases (times $SCALE)"
  for i in 1 2 3 4; do submit $((i % 2 * 2 + 1)) mimc "$W_MIMC" --partitions 3 >>"$WORK/ids"; done
  while read -r j; do await_ok 1 "$j"; done <"$WORK/ids"
  t=$(echo "$(date +%s.%N) - $t0" | bc)
  echo "   every job completed ${t}s after the kill"
  stored_once "$WORK/ids"
  retried=$(sql "SELECT count(*) FROM cuzk_partitions WHERE attempts > 1")
  [ "$retried" -ge 1 ] || fail "no partition was claimed again after the kill"
  echo "== a stopped node whose leases were taken over stores nothing when it resumes"
  : >"$WORK/ids2"
  for i in 1 2; do submit $((i * 2 - 1)) mimc "$W_MIMC" --partitions 24 >>"$WORK/ids2"; done
  # Stop node 3 while it holds a lease that another node can take: the partition still running under
  # node 3, and no transaction of node 3 (a store, a heartbeat) holding its row, which a claim would skip.
  # Between reading the lease and the SIGSTOP, node 3 may have stored that partition or be mid-store:
  # then it resumes and another of its partitions is picked.
  p=
  end=$(deadline 20)
  while before "$end"; do
    q=$(sql "SELECT job_id || ' ' || idx FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-3@%' LIMIT 1")
    if [ -n "$q" ]; then
      kill -STOP ${NODE_PID[3]}
      set -- $q
      [ -n "$(sql "SELECT idx FROM cuzk_partitions WHERE job_id = '$1' AND idx = $2 AND state = 'running' AND lease_owner LIKE 'node-3@%' FOR UPDATE SKIP LOCKED")" ] \
        && { p=$q; break; }
      kill -CONT ${NODE_PID[3]}
    fi
    sleep 0.05
  done
  [ -n "$p" ] || fail "node 3 never held a lease another node could take over"
  end=$(deadline 10)
  while before "$end"; do
    [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$1' AND idx = $2 AND lease_owner NOT LIKE 'node-3@%'")" -eq 1 ] && break
    sleep 0.05
  done
  [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$1' AND idx = $2 AND lease_owner NOT LIKE 'node-3@%'")" -eq 1 ] \
    || fail "node 1 did not take over partition $2 of $1"
  kill -CONT ${NODE_PID[3]}
  while read -r j; do await_ok 3 "$j"; done <"$WORK/ids2"
  wait_for 5 grep -q "partition_lease_\(lost\|gone\) job=$1 partition=$2 " "$WORK/node-3.log" || true
  grep -q "partition_lease_\(lost\|gone\) job=$1 partition=$2 " "$WORK/node-3.log" || fail "node 3 did not give up partition $2 of $1"
  cat "$WORK/ids" "$WORK/ids2" >"$WORK/all"
  stored_once "$WORK/all"
  echo "== the killed node restarts and claims work"
  start_node 2
  : >"$WORK/ids3"
  for i in $(seq 6); do submit 2 mimc "$W_MIMC" --partitions 3 >>"$WORK/ids3"; done
  while read -r j; do await_ok 2 "$j"; done <"$WORK/ids3"
  n2=$(awk '/farm_worker_started/ {n++} n == 2 && /partition_stored/ {c++} END {print c + 0}' "$WORK/node-2.log")
  [ "$n2" -ge 1 ] || fail "the restarted node 2 proved nothing"
  cat "$WORK/all" "$WORK/ids3" >"$WORK/all2"
  stored_once "$WORK/all2"
  for n in 1 2 3; do alive $n; done
  ;;

dbrestart)
  for n in 1 2 3; do start_node $n; done
  : >"$WORK/ids"
  for i in $(seq 9); do submit $((i % 3 + 1)) mimc "$W_MIMC" --partitions 2 >>"$WORK/ids"; done
  echo "== PostgreSQL stops: SubmitProof is UNAVAILABLE"
  stop_pg
  expect_exit 2 "SubmitProof while the database is down" -- "$CUZK" client submit --addr "${ADDR[2]}" --circuit tiny --witness "$W_TINY"
  expect_err_contains "unavailable"
  sleep 1
  for n in 1 2 3; do alive $n; done
  echo "== PostgreSQL back: the nodes reconnect, no job is lost"
  start_pg
  # UNAVAILABLE means "retry": each node takes work again once it has reconnected (back-off ≤ 2 s).
  for i in $(seq 6); do
    end=$(deadline 10)
    until submit $((i % 3 + 1)) tiny "$W_TINY" >>"$WORK/ids" 2>/dev/null; do before "$end" || break; sleep 0.2; done
  done
  [ "$(wc -l <"$WORK/ids")" -eq 15 ] || fail "the nodes did not take jobs again after the database came back"
  while read -r j; do await_ok $((RANDOM % 3 + 1)) "$j"; done <"$WORK/ids"
  stored_once "$WORK/ids"
  grep -q "farm_store_unavailable" "$WORK"/node-*.log || fail "no node noticed the database going away"
  for n in 1 2 3; do alive $n; done
  echo "== PostgreSQL crashes (pg_ctl -m immediate) while the nodes prove: they stay up, no job is lost"
  # The server closes its sockets without a message: libpq's own error, no SQLSTATE, is a lost
  # connection (a node used to die of it). Not stored_once: with synchronous_commit off a crash may
  # forget proofs stored just before it, and those partitions are proved again.
  : >"$WORK/crash_ids"
  for i in $(seq 3); do submit $((i % 3 + 1)) mimc "$W_MIMC" --partitions 20 >>"$WORK/crash_ids"; done
  sql "CHECKPOINT" >/dev/null  # the submitted jobs are on disk, whatever the load: they survive the crash
  "${PGRUN[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null
  sleep 2
  for n in 1 2 3; do alive $n; done
  start_pg
  while read -r j; do
    await_ok $((RANDOM % 3 + 1)) "$j"
    for i in $(seq 0 19); do
      "$CUZK" verify "$VK_MIMC" "$WORK/ans/$j."*/public_$i.json "$WORK/ans/$j."*/proof_$i.json >/dev/null \
        || fail "job $j partition $i: cuzk rejects the proof"
    done
  done <"$WORK/crash_ids"
  for n in 1 2 3; do alive $n; done
  ;;

failures)
  MAX_ATTEMPTS=2
  echo "== bad [cluster] tables and an unreachable database stop cuzk serve, naming the key"
  printf '[cluster]\nnode_id = "x"\n' >"$WORK/bad1.toml"
  expect_exit 2 "no database" -- "$CUZK" serve --config "$WORK/bad1.toml"
  expect_err_contains "cluster.database: missing"
  printf '[cluster]\ndatabase = "%s"\nlease = "10 s"\n' "$DB" >"$WORK/bad2.toml"
  expect_exit 2 "bad lease" -- "$CUZK" serve --config "$WORK/bad2.toml"
  expect_err_contains "cluster.lease: \"10 s\" is not a duration"
  printf '[cluster]\ndatabase = "%s"\nlease = "2s"\nheartbeat = "1500ms"\n' "$DB" >"$WORK/bad3.toml"
  expect_exit 2 "heartbeat over half the lease" -- "$CUZK" serve --config "$WORK/bad3.toml"
  expect_err_contains "cluster.heartbeat: must be at most half of cluster.lease"
  printf '[daemon]\nlisten = "127.0.0.1:0"\n[cluster]\ndatabase = "postgresql:///cuzk?host=%s/none"\n' "$WORK" >"$WORK/bad4.toml"
  expect_exit 2 "unreachable database" -- "$CUZK" serve --config "$WORK/bad4.toml"
  expect_err_contains "cannot connect to the database (cluster.database)"
  echo "== cluster.max_queued_bytes bounds the input stored for the farm's jobs not finished"
  MAX_QUEUED=64KiB start_node 3
  expect_exit 2 "a job whose witnesses (6 x 11,884 bytes) are over the limit" -- "$CUZK" client submit \
    --addr "${ADDR[3]}" --circuit mimc --witness "$W_MIMC" --partitions 6
  expect_err_contains "the job's input (71304 bytes) does not fit"
  expect_err_contains "bytes allowed for queued input (cluster.max_queued_bytes)"
  # Input another node stored for a job not finished counts (here a job of a circuit no node serves).
  sql "INSERT INTO cuzk_jobs (id, fingerprint, circuit_id, kind, priority, n_partitions, input, input_sha256)
       VALUES ('job-held', '', 'elsewhere', 'X', 2, 1, decode(repeat('00', 60000), 'hex'), sha256(''))"
  expect_exit 2 "a job that fits alone but not with what is held" -- "$CUZK" client submit --addr "${ADDR[3]}" \
    --circuit mimc --witness "$W_MIMC"
  expect_err_contains "the farm's jobs not finished hold 60000 of the 65536 bytes allowed"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs WHERE circuit_id = 'mimc'")" -eq 0 ] || fail "a refused job was stored"
  "$CUZK" client cancel --addr "${ADDR[3]}" job-held | grep -q '"found": true' || fail "cancel job-held: not found"
  j=$(submit 3 mimc "$W_MIMC")
  await_ok 3 "$j"
  kill_node 3
  echo "== a corrupt witness fails once, for good"
  start_node 1
  start_node 2
  head -c 200 "$W_MIMC" >"$WORK/corrupt.wtns"
  j=$(submit 1 mimc "$WORK/corrupt.wtns")
  expect_exit 1 "corrupt witness" -- "$CUZK" client await --addr "${ADDR[2]}" "$j"
  grep -q '"status": "FAILED"' "$WORK/out" || fail "corrupt witness: not FAILED"
  grep -q 'witness' "$WORK/out" || fail "corrupt witness: the error does not say why"
  sleep 1
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 1 ] || fail "the corrupt job was claimed again"
  [ "$(cat "$WORK"/node-*.log | grep -c "partition_claimed job=$j ")" -eq 1 ] || fail "the corrupt job was claimed more than once"
  echo "== a second process given a running node's node_id is refused; the running one keeps its leases"
  # (It was taken in, and its first heartbeat expired the running one's leases: with max_attempts 2 a job
  # of theirs could fail.) The newcomer tries while node 1 holds leases of a 30-partition job.
  jd=$(submit 1 mimc "$W_MIMC" --partitions 30)
  node1_holds() { [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE state = 'running' AND lease_owner LIKE 'node-1@%'")" -gt 0 ]; }
  wait_for 30 node1_holds || fail "node 1 never held a lease of job $jd"
  NODE_ID=node-1 node_config 3
  t0=$(date +%s%3N)
  expect_exit 2 "a second node-1" -- timeout "$(scaled 60)" "$CUZK" serve --config "$WORK/node-3.toml"
  expect_err_contains 'cluster.node_id "node-1" is in use by another running process'
  echo "   refused after $(($(date +%s%3N) - t0)) ms (lease $LEASE, heartbeat $HEARTBEAT)"
  ! grep -q "cuzk daemon listening" "$WORK/err" || fail "the refused node served gRPC before it was refused"
  await_ok 1 "$jd"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$jd' AND state = 'done'")" -eq 30 ] \
    || fail "job $jd: not all 30 partitions are done in the database"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$jd' AND attempts > 1")" -eq 0 ] \
    || fail "partitions of job $jd were claimed again: the newcomer expired node 1's leases"
  [ "$(sql "SELECT incarnation FROM cuzk_nodes WHERE node_id = 'node-1'")" = "$(sed -n 's/.*farm_worker_started node=node-1 owner=\([^ ]*\).*/\1/p' "$WORK/node-1.log" | tail -1)" ] \
    || fail "the refused process changed node 1's row"
  alive 1
  echo "== a partition whose node dies every time: claimed max_attempts (2) times, then the job fails"
  kill_node 1
  kill_node 2
  # The faulty node dies 300 ms after each claim (before proving): it takes the job, dies, restarts,
  # takes it over from its dead incarnation, dies again.
  start_node 1 CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=300
  j=$(submit 1 mimc "$W_MIMC" --priority critical)
  for k in 1 2; do
    rc=0
    timeout "$(scaled 30)" tail --pid=${NODE_PID[1]} -f /dev/null || rc=$?
    [ $rc -eq 0 ] || fail "the faulty node did not die on its claim ($k)"
    [ $k -eq 2 ] && break
    CUZK_FAIL_FARM_EXIT_AFTER_CLAIM=300 "$CUZK" serve --config "$WORK/node-1.toml" >>"$WORK/node-1.log" 2>&1 &
    NODE_PID[1]=$!
  done
  NODE_PID[1]=
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 2 ] || fail "expected 2 claims"
  # Each restart took node-1's id over from its dead incarnation (once that one's last heartbeat was a lease old).
  [ "$(grep -c "farm_node_taken_over node_id=node-1 " "$WORK/node-1.log")" -ge 2 ] \
    || fail "the restarted node-1 did not take its id over from the dead process"
  start_node 2
  expect_exit 1 "the job of the dying node" -- "$CUZK" client await --addr "${ADDR[2]}" --timeout-ms "$(scaled 30000)" "$j"
  grep -q '"status": "FAILED"' "$WORK/out" || { cat "$WORK/out"; fail "not FAILED after 2 attempts"; }
  grep -q 'claimed 2 times' "$WORK/out" || { cat "$WORK/out"; fail "the error does not give the reason"; }
  [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 2 ] || fail "claimed again after max_attempts"
  alive 2
  echo "== finished jobs are pruned after cluster.retention"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -ge 2 ] || fail "expected the finished jobs in the database"
  kill_node 2
  sleep 1.2
  RETENTION=1s start_node 2
  end=$(deadline 5)
  while before "$end"; do [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq 0 ] && break; sleep 0.1; done
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq 0 ] || fail "finished jobs older than the retention were not pruned"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions")" -eq 0 ] || fail "the pruned jobs' partitions are left"
  echo "== SIGTERM stops a farm node cleanly"
  kill -TERM ${NODE_PID[2]}
  rc=0
  wait ${NODE_PID[2]} || rc=$?
  NODE_PID[2]=
  [ $rc -eq 0 ] || fail "the node exited $rc after SIGTERM"
  grep -q "cuzk daemon stopped" "$WORK/node-2.log" || fail "no clean stop in the log"
  ;;
deadline)
  for n in 1 2; do start_node $n; done
  echo "== a critical job of many partitions queued, then low-priority jobs: one due soon, two not"
  big=$(submit 1 mimc "$W_MIMC" --partitions 150 --priority critical)
  urgent=$(submit 2 tiny "$W_TINY" --priority low --deadline-in 30)
  later=$(submit 1 tiny "$W_TINY" --priority low --deadline-in 86400)
  plain=$(submit 2 tiny "$W_TINY" --priority low)
  [ -n "$(sql "SELECT deadline FROM cuzk_jobs WHERE id = '$urgent'")" ] || fail "the deadline was not stored"
  await_ok 1 "$urgent" 30000
  queued=$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id = '$big' AND state = 'queued'")
  echo "   the job due soon completed with $queued partitions of the critical job still queued"
  [ "$queued" -gt 0 ] || fail "the job due soon was not claimed before the critical job's queued partitions"
  for j in $later $plain; do
    [ "$(sql "SELECT state FROM cuzk_jobs WHERE id = '$j'")" = queued ] || fail "low-priority job $j (no near deadline) ran before the critical job"
  done
  "$CUZK" client cancel --addr "${ADDR[1]}" "$big" | grep -q '"found": true' || fail "cancel: not found"
  await_ok 2 "$later"
  await_ok 1 "$plain"
  for j in $urgent $later $plain; do
    "$CUZK" verify "$VK_TINY" "$WORK/ans/$j."*/public_0.json "$WORK/ans/$j."*/proof_0.json >/dev/null || fail "job $j: cuzk rejects the proof"
  done
  ;;

porep)
  STEM=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
  echo "== 2 KiB fake C1s and their key (setup --porep, once)"
  for s in 1 2 3; do "$CUZK" -q porep fake-c1 --sector-size 2KiB --seed $s "$WORK/c1-$s.json"; done
  PARAM_CACHE=$WORK/pc
  test_keys "$PARAM_CACHE" setup --porep 2KiB --seed 1
  test_keys "$PARAM_CACHE" post setup --registered-proof 0 --seed 1
  WIN=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e
  "$CUZK" -q post fake --registered-proof 0 --seed 3 "$WORK/win"
  echo "== a 2 KiB fake SnapDeals update and a WindowPoSt partition, and their keys (before the nodes start)"
  SNAP=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
  WDP=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0
  "$CUZK" -q snap fake --sector-size 2KiB --seed 3 "$WORK/snap.json"
  "$CUZK" -q post fake --registered-proof 10 --seed 4 "$WORK/wdp"
  test_keys "$PARAM_CACHE" snap setup --sector-size 2KiB --seed 9
  test_keys "$PARAM_CACHE" post setup --registered-proof 10 --seed 1
  # Two nodes (each loads the 1.1 GB key; the key was just made here, so no subgroup checks).
  VERIFY_SUBGROUP=false
  for n in 1 2; do start_node $n; done
  for n in 1 2; do
    for c in porep=porep-2k snap=snap-2k wpost-2k; do
      grep -q "$c" "$WORK/node-$n.log" || { cat "$WORK/node-$n.log"; fail "node $n did not register ${c#*=}"; }
    done
  done
  echo "== 6 PoRep jobs submitted to node 1, proved across the farm"
  : >"$WORK/jobs"
  for i in 1 2 3 4 5 6; do
    s=$(((i - 1) % 3 + 1))
    echo "$s $("$CUZK" client submit --addr "${ADDR[1]}" --porep "$WORK/c1-$s.json" --registered-proof 5 --sector-size 2048)" >>"$WORK/jobs"
  done
  while read -r s j; do
    for n in 2 1; do await_ok $n "$j" 300000; done
    cmp -s "$WORK/ans/$j.2/proof.bin" "$WORK/ans/$j.1/proof.bin" || fail "job $j: nodes 1 and 2 answer different proofs"
    [ "$(stat -c %s "$WORK/ans/$j.2/proof.bin")" -eq 192 ] || fail "job $j: expected 1 x 192 bytes"
    "$CUZK" porep verify --c1 "$WORK/c1-$s.json" --vk "$PARAM_CACHE/$STEM.vk" "$WORK/ans/$j.2/proof.bin" >/dev/null \
      || fail "job $j: the farm's proof does not verify against its C1"
    "$CUZK" porep verify --seal "$WORK/c1-$s.seal.json" --vk "$PARAM_CACHE/$STEM.vk" "$WORK/ans/$j.2/proof.bin" >/dev/null \
      || fail "job $j: the farm's proof does not verify against the chain data"
  done <"$WORK/jobs"
  cut -d' ' -f2 "$WORK/jobs" >"$WORK/ids"
  stored_once "$WORK/ids"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs WHERE input IS NOT NULL")" -eq 0 ] || fail "finished jobs keep their inputs"
  provers=$(sql "SELECT count(DISTINCT split_part(proved_by, '/', 1)) FROM cuzk_partitions WHERE kind = 'POREP_SEAL_COMMIT'")
  echo "   PoRep partitions proved by $provers nodes"
  [ "$provers" -ge 2 ] || fail "the PoRep work was not shared (proved by $provers node)"
  grep -h "farm_input_expanded" "$WORK"/node-*.log | head -1
  echo "== a WINNING_POST job through the farm"
  j=$("$CUZK" client submit --addr "${ADDR[2]}" --post "$WORK/win/request.json")
  await_ok 1 "$j" 300000
  "$CUZK" post verify --request "$WORK/win/request.json" --vk "$PARAM_CACHE/$WIN.vk" "$WORK/ans/$j.1/proof.bin" >/dev/null \
    || fail "the farm's WinningPoSt proof does not verify"
  [ "$(sql "SELECT kind FROM cuzk_jobs WHERE id = '$j'")" = WINNING_POST ] || fail "job $j is not a WINNING_POST job in the database"
  echo "== a SNAP_DEALS_UPDATE and a WINDOW_POST_PARTITION job, each submitted to one node and awaited on both"
  # farm_kind KIND FROM TO CLIENT_ARGS… "|" VERIFY_ARGS…: a job submitted to node FROM with `client submit
  # CLIENT_ARGS…`, awaited on node TO, then on FROM: both answer the same 192 bytes (2 KiB: one partition),
  # which `cuzk VERIFY_ARGS… proof.bin` accepts, and cuzk_jobs.kind is KIND.
  farm_kind() {
    local kind=$1 from=$2 to=$3 sub=() ver=() j
    shift 3
    while [ "$1" != "|" ]; do sub+=("$1"); shift; done
    shift
    ver=("$@")
    j=$("$CUZK" client submit --addr "${ADDR[$from]}" "${sub[@]}") || fail "$kind: submit to node $from"
    await_ok $to "$j" 300000
    await_ok $from "$j" 300000
    cmp -s "$WORK/ans/$j.$to/proof.bin" "$WORK/ans/$j.$from/proof.bin" || fail "$kind job $j: nodes 1 and 2 answer different proofs"
    [ "$(stat -c %s "$WORK/ans/$j.$to/proof.bin")" -eq 192 ] || fail "$kind job $j: expected 1 x 192 bytes"
    "$CUZK" "${ver[@]}" "$WORK/ans/$j.$to/proof.bin" >/dev/null || fail "$kind job $j: the farm's proof does not verify"
    [ "$(sql "SELECT kind FROM cuzk_jobs WHERE id = '$j'")" = "$kind" ] || fail "job $j is not a $kind job in the database"
    echo "$j" >>"$WORK/ids_fc"
    echo "   $kind job $j: proved by $(sql "SELECT proved_by FROM cuzk_partitions WHERE job_id = '$j'"), verified"
  }
  : >"$WORK/ids_fc"
  farm_kind SNAP_DEALS_UPDATE 1 2 --snap "$WORK/snap.json" --update "$WORK/snap.update.json" \
    "|" snap verify --update "$WORK/snap.update.json" --vk "$PARAM_CACHE/$SNAP.vk"
  farm_kind WINDOW_POST_PARTITION 2 1 --post "$WORK/wdp/request.json" \
    "|" post verify --request "$WORK/wdp/request.json" --vk "$PARAM_CACHE/$WDP.vk"
  stored_once "$WORK/ids_fc"
  echo "== a truncated SnapDeals vanilla proof and truncated WindowPoSt vanilla proofs are refused at submit (nothing stored)"
  before=$(sql "SELECT count(*) FROM cuzk_jobs")
  before_p=$(sql "SELECT count(*) FROM cuzk_partitions")
  # The SnapDeals partition proof (base64 in snap.json) cut to its first 700 bytes.
  printf '["%s"]' "$(sed 's/^\["\([^"]*\)".*/\1/' "$WORK/snap.json" | base64 -d | head -c 700 | base64 -w0)" >"$WORK/snap-cut.json"
  expect_exit 2 "truncated SnapDeals vanilla proof" -- "$CUZK" client submit --addr "${ADDR[1]}" --snap "$WORK/snap-cut.json" \
    --update "$WORK/snap.update.json"
  expect_err_contains "vanilla_proofs[0]"
  expect_err_contains "truncated"
  cp -r "$WORK/wdp" "$WORK/wdp-cut"
  for v in "$WORK"/wdp-cut/sector-*.bin; do head -c 700 "$v" >"$v.cut" && mv "$v.cut" "$v"; done
  expect_exit 2 "truncated WindowPoSt vanilla proofs" -- "$CUZK" client submit --addr "${ADDR[2]}" --post "$WORK/wdp-cut/request.json"
  expect_err_contains "vanilla_proofs[0]: byte"
  expect_err_contains "truncated"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq "$before" ] || fail "a refused job was stored"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions")" -eq "$before_p" ] || fail "a refused job's partitions were stored"
  echo "== bad C1s (truncated, comm_r changed) are refused at submit (nothing stored)"
  before=$(sql "SELECT count(*) FROM cuzk_jobs")
  head -c 3000 "$WORK/c1-1.json" >"$WORK/truncated.json"
  expect_exit 2 "truncated C1" -- "$CUZK" client submit --addr "${ADDR[2]}" --porep "$WORK/truncated.json"
  expect_err_contains "vanilla_proof:"
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c["comm_r"][0] ^= 1; json.dump(c, open(sys.argv[2], "w"))' \
    "$WORK/c1-1.json" "$WORK/commr.json"
  expect_exit 2 "a C1 whose comm_r is not Poseidon(comm_c, comm_r_last)" -- "$CUZK" client submit --addr "${ADDR[1]}" --porep "$WORK/commr.json"
  expect_err_contains "vanilla_proof: comm_r"
  [ "$(sql "SELECT count(*) FROM cuzk_jobs")" -eq "$before" ] || fail "a refused job was stored"
  echo "== inputs corrupted in the database fail their jobs once, for good"
  # A critical job keeps every slot busy while the two PoRep jobs' stored inputs are corrupted.
  big=$(submit 1 mimc "$W_MIMC" --partitions 300 --priority critical)
  bad_sha=$("$CUZK" client submit --addr "${ADDR[2]}" --porep "$WORK/c1-1.json")
  bad_c1=$("$CUZK" client submit --addr "${ADDR[1]}" --porep "$WORK/c1-2.json")
  sql "UPDATE cuzk_jobs SET input = set_byte(input, length(input) / 2, get_byte(input, length(input) / 2) # 1) WHERE id = '$bad_sha'"
  sql "UPDATE cuzk_jobs SET input = set_byte(input, length(input) / 2, 35) WHERE id = '$bad_c1'"
  sql "UPDATE cuzk_jobs SET input_sha256 = sha256(input) WHERE id = '$bad_c1'"
  [ "$(sql "SELECT count(*) FROM cuzk_partitions WHERE job_id IN ('$bad_sha', '$bad_c1') AND attempts = 0")" -eq 2 ] \
    || fail "a PoRep job was claimed before its input was corrupted (the critical job did not hold the slots)"
  "$CUZK" client cancel --addr "${ADDR[1]}" "$big" | grep -q '"found": true' || fail "cancel: not found"
  expect_exit 1 "a stored input whose SHA-256 is wrong" -- "$CUZK" client await --addr "${ADDR[1]}" --timeout-ms "$(scaled 60000)" "$bad_sha"
  grep -q '"status": "FAILED"' "$WORK/out" || { cat "$WORK/out"; fail "corrupt row: not FAILED"; }
  grep -q "does not match its SHA-256" "$WORK/out" || { cat "$WORK/out"; fail "corrupt row: the error does not say why"; }
  expect_exit 1 "a stored C1 that does not parse" -- "$CUZK" client await --addr "${ADDR[2]}" --timeout-ms "$(scaled 60000)" "$bad_c1"
  grep -q '"status": "FAILED"' "$WORK/out" || { cat "$WORK/out"; fail "corrupt C1: not FAILED"; }
  grep -q "the job's stored input: vanilla_proof" "$WORK/out" || { cat "$WORK/out"; fail "corrupt C1: the error does not say why"; }
  sleep 1
  for j in $bad_sha $bad_c1; do
    [ "$(sql "SELECT attempts FROM cuzk_partitions WHERE job_id = '$j'")" -eq 1 ] || fail "the corrupt job $j was claimed again"
    [ "$(cat "$WORK"/node-*.log | grep -c "partition_claimed job=$j ")" -eq 1 ] || fail "the corrupt job $j was claimed more than once"
  done
  for n in 1 2; do alive $n; done
  ;;
*) fail "unknown scenario $MODE" ;;
esac
echo "farm $MODE: all passed"
