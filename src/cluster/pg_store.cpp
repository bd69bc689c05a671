#include "cluster/pg_store.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <thread>

#include "ff/bytes.hpp"
#include "formats/proof_zcash.hpp"
#include "hash/sha256.hpp"

namespace cuzk::cluster {
namespace {

using engine::Clock;
using engine::StoreUnavailable;

/// An SQL statement the server refused (not a lost connection): its SQLSTATE and message.
class SqlError : public Error {
 public:
  SqlError(std::string state, const std::string& msg)
      : Error(ErrorCode::kInternal, msg), state(std::move(state)) {}
  std::string state;
};

/// The versioned migrations: entry v-1 takes the schema from version v-1 to v (one transaction each).
const char* const kMigrations[] = {
    // 1: jobs, partitions (inputs, leases, results), nodes.
    R"SQL(
CREATE TABLE cuzk_jobs (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  request_id text,
  fingerprint bytea NOT NULL,
  circuit_id text NOT NULL,
  kind text NOT NULL,
  priority int NOT NULL,
  n_partitions int NOT NULL,
  done int NOT NULL DEFAULT 0,
  state text NOT NULL DEFAULT 'queued',
  error text NOT NULL DEFAULT '',
  submitted_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz);
CREATE UNIQUE INDEX cuzk_jobs_request ON cuzk_jobs (request_id)
  WHERE request_id IS NOT NULL AND state NOT IN ('failed', 'cancelled');
CREATE INDEX cuzk_jobs_finished ON cuzk_jobs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX cuzk_jobs_active ON cuzk_jobs (kind) WHERE state IN ('queued', 'running');
CREATE TABLE cuzk_partitions (
  job_id text NOT NULL REFERENCES cuzk_jobs (id) ON DELETE CASCADE,
  idx int NOT NULL,
  priority int NOT NULL,
  job_seq bigint NOT NULL,
  circuit_id text NOT NULL,
  kind text NOT NULL,
  state text NOT NULL DEFAULT 'queued',
  input bytea,
  input_sha256 bytea NOT NULL,
  lease_owner text,
  lease_epoch bigint NOT NULL DEFAULT 0,
  lease_expires timestamptz,
  attempts int NOT NULL DEFAULT 0,
  proof bytea,
  public_inputs bytea,
  proved_by text,
  synth_ms double precision,
  gpu_ms double precision,
  total_ms double precision,
  PRIMARY KEY (job_id, idx));
CREATE INDEX cuzk_partitions_claim ON cuzk_partitions (priority DESC, job_seq, idx)
  WHERE state IN ('queued', 'running');
CREATE INDEX cuzk_partitions_owner ON cuzk_partitions (lease_owner) WHERE state = 'running';
CREATE TABLE cuzk_nodes (
  node_id text PRIMARY KEY,
  incarnation text NOT NULL,
  address text NOT NULL,
  gpus int NOT NULL,
  resident text[] NOT NULL,
  running int NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_heartbeat timestamptz NOT NULL DEFAULT now());
)SQL",
    // 2: one input per job (the Filecoin kinds: every partition is made from it), deadlines and the
    // index of the claims of near-deadline partitions (in deadline order).
    R"SQL(
ALTER TABLE cuzk_jobs ADD COLUMN input bytea, ADD COLUMN input_sha256 bytea, ADD COLUMN deadline timestamptz;
ALTER TABLE cuzk_partitions ALTER COLUMN input_sha256 DROP NOT NULL, ADD COLUMN deadline timestamptz;
CREATE INDEX cuzk_partitions_urgent ON cuzk_partitions (deadline, job_seq, idx)
  WHERE state IN ('queued', 'running') AND deadline IS NOT NULL;
)SQL",
    // 3: when each partition's GPU phase (the backend's start() call) began and ended, in the database's
    // time: a job's GPU time is the union of its partitions' spans (they overlap across slots and nodes).
    R"SQL(
ALTER TABLE cuzk_partitions ADD COLUMN gpu_start timestamptz, ADD COLUMN gpu_end timestamptz;
)SQL",
};
static_assert(std::size(kMigrations) == kSchemaVersion);

/// PostgreSQL advisory locks (transaction scope) of the migrations and of the queued-bytes check of submits.
constexpr int64_t kMigrationLock = 1668641387, kQueuedBytesLock = 1668641388;

/// Statement parameters: text, bytea (binary) or NULL.
struct Params {
  std::vector<std::string> values;
  std::vector<int> binary;
  std::vector<bool> null;
  Params& text(std::string v) {
    values.push_back(std::move(v));
    binary.push_back(0);
    null.push_back(false);
    return *this;
  }
  Params& num(int64_t v) { return text(std::to_string(v)); }
  Params& real(double v) { return text(std::to_string(v)); }
  Params& bytes(const void* p, size_t n) {
    values.emplace_back(static_cast<const char*>(p), n);
    binary.push_back(1);
    null.push_back(false);
    return *this;
  }
  Params& bytes(const std::string& s) { return bytes(s.data(), s.size()); }
  Params& none() {
    values.emplace_back();
    binary.push_back(0);
    null.push_back(true);
    return *this;
  }
};

/// A statement's rows (text format).
class Rows {
 public:
  explicit Rows(PGresult* r) : r_(r, &PQclear) {}
  int size() const { return PQntuples(r_.get()); }
  bool null(int row, int col) const { return PQgetisnull(r_.get(), row, col); }
  std::string str(int row, int col) const { return PQgetvalue(r_.get(), row, col); }
  int64_t i64(int row, int col) const { return null(row, col) ? 0 : std::stoll(str(row, col)); }
  double real(int row, int col) const { return null(row, col) ? 0 : std::stod(str(row, col)); }
  std::vector<uint8_t> bytea(int row, int col) const {
    if (null(row, col)) return {};
    size_t n = 0;
    unsigned char* p =
        PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_.get(), row, col)), &n);
    if (!p) throw Error(ErrorCode::kInternal, "PQunescapeBytea: out of memory");
    std::vector<uint8_t> out(p, p + n);
    PQfreemem(p);
    return out;
  }

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> r_;
};

/// A JSON array of strings (how lists travel as statement parameters).
std::string json_list(const std::vector<std::string>& v) { return nlohmann::json(v).dump(); }

const char* state_name(engine::JobState s) { return engine::to_string(s); }

engine::JobState parse_state(const std::string& s) {
  for (engine::JobState st :
       {engine::JobState::kQueued, engine::JobState::kRunning, engine::JobState::kCompleted,
        engine::JobState::kFailed, engine::JobState::kCancelled})
    if (s == state_name(st)) return st;
  throw Error(ErrorCode::kInternal, "cuzk_jobs: unknown state \"" + s + "\"");
}

}  // namespace

struct PgStore::Impl {
  explicit Impl(PgStoreOptions o) : opt(std::move(o)) {}
  PgStoreOptions opt;

  // ---- connections ------------------------------------------------------------------------------
  /// Connections a node opens at most (besides its LISTEN one): claimers, heartbeat and gRPC calls share
  /// them, each for one statement or transaction. PostgreSQL's max_connections must cover 17 per node.
  static constexpr unsigned kMaxOpen = 16;
  std::mutex pool_mu;
  std::condition_variable pool_cv;
  unsigned open = 0;  ///< connections open now (idle or in use)
  std::vector<PGconn*> idle;
  Clock::time_point next_try{};
  uint64_t backoff_ms = 50;

  void log(engine::LogLevel l, std::string ev, std::vector<std::pair<std::string, std::string>> f) const {
    if (opt.log) opt.log(engine::LogEvent{l, std::move(ev), std::move(f)});
  }

  /// A connection from the pool (a new one when none is idle, unless the last attempt failed less than
  /// the back-off ago).
  PGconn* get() {
    {
      std::unique_lock lk(pool_mu);
      if (!pool_cv.wait_for(lk, std::chrono::seconds(10), [&] { return !idle.empty() || open < kMaxOpen; }))
        throw StoreUnavailable("all " + std::to_string(kMaxOpen) +
                               " connections to the database are busy (waited 10 s)");
      if (!idle.empty()) {
        PGconn* c = idle.back();
        idle.pop_back();
        return c;
      }
      if (Clock::now() < next_try)
        throw StoreUnavailable("the database is unreachable (the next connection attempt is due in " +
                               std::to_string((long)engine::ms_between(Clock::now(), next_try)) + " ms)");
      open++;
    }
    PGconn* c = PQconnectdb(opt.database.c_str());
    if (PQstatus(c) != CONNECTION_OK) {
      std::string msg = PQerrorMessage(c);
      PQfinish(c);
      while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
      std::lock_guard lk(pool_mu);
      open--;
      pool_cv.notify_one();
      next_try = Clock::now() + std::chrono::milliseconds(backoff_ms);
      backoff_ms = std::min<uint64_t>(backoff_ms * 2, 2000);
      throw StoreUnavailable("cannot connect to the database (cluster.database): " + msg);
    }
    PQsetNoticeProcessor(
        c, [](void*, const char*) {}, nullptr);  // "already exists, skipping" and the like
    std::lock_guard lk(pool_mu);
    backoff_ms = 50;
    return c;
  }
  void put(PGconn* c, bool broken) {
    std::lock_guard lk(pool_mu);
    if (broken) {  // the server went away: the idle connections are dead too
      for (PGconn* i : idle) PQfinish(i);
      open -= (unsigned)idle.size();
      idle.clear();
    }
    if (!broken && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) == PQTRANS_IDLE) {
      idle.push_back(c);
    } else {
      PQfinish(c);
      open--;
    }
    pool_cv.notify_all();
  }

  /// One connection held for a statement or a transaction.
  struct Conn {
    Impl& m;
    PGconn* c;
    bool broken = false;
    explicit Conn(Impl& i) : m(i), c(i.get()) {}
    ~Conn() { m.put(c, broken); }
    Conn(const Conn&) = delete;
    Conn& operator=(const Conn&) = delete;

    bool in_tx = false;  ///< inside tx(): a failed statement aborts the whole transaction

    /// Runs one statement. A statement of its own that PostgreSQL aborted as a deadlock victim or for a
    /// serialization failure (SQLSTATE 40P01, 40001: two statements locking the same partition and job
    /// rows in opposite orders, e.g. a cancel and a store) is run again, up to 5 times; inside tx() the
    /// whole transaction is (tx()).
    Rows exec(const char* sql, const Params& p = {}) {
      for (int attempt = 1;; attempt++) {
        try {
          return exec_once(sql, p);
        } catch (const SqlError& e) {
          if (in_tx || !retryable(e) || attempt >= 5) throw;
          std::this_thread::sleep_for(std::chrono::milliseconds(attempt * 5));
        }
      }
    }
    static bool retryable(const SqlError& e) { return e.state == "40P01" || e.state == "40001"; }

    Rows exec_once(const char* sql, const Params& p) {
      std::vector<const char*> vals;
      std::vector<int> lens;
      for (size_t i = 0; i < p.values.size(); i++) {
        vals.push_back(p.null[i] ? nullptr : p.values[i].data());
        lens.push_back((int)p.values[i].size());
      }
      PGresult* r =
          PQexecParams(c, sql, (int)vals.size(), nullptr, vals.data(), lens.data(), p.binary.data(), 0);
      const ExecStatusType st = PQresultStatus(r);
      if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Rows(r);
      const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
      const std::string state = code ? code : "";
      std::string msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
      PQclear(r);
      while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
      // Class 08 (connection exception), 57P01..57P03 (the server is shutting down or starting), or an
      // error of libpq's own, without a SQLSTATE: a server that crashed or was stopped with `pg_ctl -m
      // immediate` closes the socket without a message, and a statement sent then fails with "server
      // closed the connection unexpectedly" while PQstatus may still be CONNECTION_OK.
      if (PQstatus(c) != CONNECTION_OK || state.empty() || state.rfind("08", 0) == 0 ||
          state.rfind("57P0", 0) == 0) {
        broken = true;
        throw StoreUnavailable("the database connection was lost: " + msg);
      }
      throw SqlError(state, "PostgreSQL: " + msg);
    }
  };

  /// Runs f(conn) in one transaction; rolls back when it throws. A transaction aborted as a deadlock
  /// victim or for a serialization failure (Conn::exec) is run again from the start, up to 5 times.
  template <class F>
  auto tx(F&& f) {
    for (int attempt = 1;; attempt++) {
      Conn c(*this);
      c.exec("BEGIN");
      c.in_tx = true;
      try {
        auto r = f(c);
        c.exec("COMMIT");
        return r;
      } catch (const SqlError& e) {
        if (!c.broken && PQstatus(c.c) == CONNECTION_OK) PQclear(PQexec(c.c, "ROLLBACK"));
        if (!Conn::retryable(e) || attempt >= 5) throw;
      } catch (...) {
        if (!c.broken && PQstatus(c.c) == CONNECTION_OK) PQclear(PQexec(c.c, "ROLLBACK"));
        throw;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(attempt * 5));
    }
  }

  // ---- notifications ----------------------------------------------------------------------------
  std::mutex note_mu;
  std::condition_variable work_cv, done_cv;
  uint64_t work_gen = 0, done_gen = 0;
  std::atomic<bool> stopping{false};
  std::thread listener;

  void listen_loop() {
    PGconn* c = nullptr;
    uint64_t backoff = 50;
    while (!stopping) {
      if (!c) {
        c = PQconnectdb(opt.database.c_str());
        bool ok = PQstatus(c) == CONNECTION_OK;
        if (ok) {
          PGresult* r = PQexec(c, "LISTEN cuzk_work; LISTEN cuzk_done");
          ok = PQresultStatus(r) == PGRES_COMMAND_OK;
          PQclear(r);
        }
        if (!ok) {
          PQfinish(c);
          c = nullptr;
          std::this_thread::sleep_for(std::chrono::milliseconds(backoff));
          backoff = std::min<uint64_t>(backoff * 2, 2000);
          continue;
        }
        backoff = 50;
        {  // the database is back: the pool need not wait out its back-off
          std::lock_guard lk(pool_mu);
          next_try = {};
          backoff_ms = 50;
        }
        // Notifications may have been missed while disconnected: everyone looks again.
        std::lock_guard lk(note_mu);
        work_gen++;
        done_gen++;
        work_cv.notify_all();
        done_cv.notify_all();
      }
      pollfd pfd{PQsocket(c), POLLIN, 0};
      poll(&pfd, 1, 200);
      if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK) {
        log(engine::LogLevel::kWarn, "farm_listen_lost", {{"error", PQerrorMessage(c)}});
        PQfinish(c);
        c = nullptr;
        continue;
      }
      bool work = false, done = false;
      while (PGnotify* n = PQnotifies(c)) {
        (std::string(n->relname) == "cuzk_work" ? work : done) = true;
        PQfreemem(n);
      }
      if (work || done) {
        std::lock_guard lk(note_mu);
        if (work) work_gen++, work_cv.notify_all();
        if (done) done_gen++, done_cv.notify_all();
      }
    }
    if (c) PQfinish(c);
  }

  // ---- the rest -----------------------------------------------------------------------------------
  std::mutex id_mu;
  std::random_device random;
  Clock::time_point last_prune{};

  std::string new_id() {
    static const char kHex[] = "0123456789abcdef";
    std::lock_guard lk(id_mu);
    std::string id = "job-";
    for (int w = 0; w < 4; w++) {
      const uint32_t r = random();
      for (int i = 28; i >= 0; i -= 4) id += kHex[(r >> i) & 15];
    }
    return id;
  }

  void migrate() {
    {
      Conn c(*this);
      c.exec("BEGIN");
      c.exec("SELECT pg_advisory_xact_lock($1)", Params().num(kMigrationLock));
      c.exec(
          "CREATE TABLE IF NOT EXISTS cuzk_schema (version int PRIMARY KEY, "
          "applied_at timestamptz NOT NULL DEFAULT now())");
      Rows r = c.exec("SELECT coalesce(max(version), 0) FROM cuzk_schema");
      c.exec("COMMIT");
      if (r.i64(0, 0) > kSchemaVersion)
        throw Error(ErrorCode::kInvalidArgument, "cluster.database: the schema is at version " + r.str(0, 0) +
                                                     ", newer than this cuzk's " +
                                                     std::to_string(kSchemaVersion) + ": upgrade this node");
    }
    for (int v = 1; v <= kSchemaVersion; v++) {
      tx([&](Conn& c) {
        c.exec("SELECT pg_advisory_xact_lock($1)", Params().num(kMigrationLock));
        if (c.exec("SELECT 1 FROM cuzk_schema WHERE version = $1", Params().num(v)).size() == 0) {
          PGresult* r = PQexec(c.c, kMigrations[v - 1]);
          const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
          const std::string msg = ok ? "" : PQresultErrorMessage(r);
          PQclear(r);
          if (!ok)
            throw Error(ErrorCode::kInternal, "schema migration " + std::to_string(v) + " failed: " + msg);
          c.exec("INSERT INTO cuzk_schema (version) VALUES ($1)", Params().num(v));
          log(engine::LogLevel::kInfo, "farm_schema_migrated", {{"version", std::to_string(v)}});
        }
        return 0;
      });
    }
  }

  /// Refuses `req` (SubmitRefused kOverLimit) when its input would bring the bytes stored for jobs not
  /// final, farm-wide, over opt.max_queued_bytes. Inside the submit's transaction, under an advisory lock
  /// held to its end, so that submits on several nodes at once cannot pass the limit together.
  void check_queued_bytes(Conn& c, const engine::StoredJobRequest& req) {
    uint64_t bytes = req.job_input.size();
    for (const std::vector<uint8_t>& in : req.inputs) bytes += in.size();
    c.exec("SELECT pg_advisory_xact_lock($1)", Params().num(kQueuedBytesLock));
    Rows held = c.exec(
        "SELECT (SELECT coalesce(sum(octet_length(input)), 0) FROM cuzk_jobs "
        "        WHERE state IN ('queued', 'running') AND input IS NOT NULL) + "
        "       (SELECT coalesce(sum(octet_length(input)), 0) FROM cuzk_partitions "
        "        WHERE state IN ('queued', 'running') AND input IS NOT NULL)");
    const uint64_t now_held = (uint64_t)held.i64(0, 0);
    if (now_held + bytes > opt.max_queued_bytes)
      throw engine::SubmitRefused(engine::SubmitRefused::Reason::kOverLimit,
                                  "the job's input (" + std::to_string(bytes) +
                                      " bytes) does not fit: the farm's jobs not finished hold " +
                                      std::to_string(now_held) + " of the " +
                                      std::to_string(opt.max_queued_bytes) +
                                      " bytes allowed for queued input (cluster.max_queued_bytes); retry "
                                      "when some have finished");
  }

  void notify_done(Conn& c, const std::string& job_id) {
    c.exec("SELECT pg_notify('cuzk_done', $1)", Params().text(job_id));
  }
};

PgStore::PgStore(PgStoreOptions opt) : impl_(std::make_unique<Impl>(std::move(opt))) {
  impl_->migrate();
  impl_->listener = std::thread([this] { impl_->listen_loop(); });
}

PgStore::~PgStore() {
  impl_->stopping = true;
  if (impl_->listener.joinable()) impl_->listener.join();
  for (PGconn* c : impl_->idle) PQfinish(c);
}

engine::SubmitResult PgStore::submit(const engine::StoredJobRequest& req) {
  Impl& m = *impl_;
  const bool shared = !req.job_input.empty();
  if (shared == !req.inputs.empty() || (shared && req.partitions == 0))
    throw Error(
        ErrorCode::kInvalidArgument,
        "PgStore::submit: give either one input per partition or a job input and its partition count");
  const uint32_t n_partitions = shared ? req.partitions : (uint32_t)req.inputs.size();
  for (int attempt = 0;; attempt++) {
    try {
      return m.tx([&](Impl::Conn& c) -> engine::SubmitResult {
        if (!req.request_id.empty()) {
          Rows old = c.exec(
              "SELECT id, fingerprint, circuit_id, kind, n_partitions, state FROM cuzk_jobs "
              "WHERE request_id = $1 AND state NOT IN ('failed', 'cancelled') FOR UPDATE",
              Params().text(req.request_id));
          if (old.size() > 0) {
            const std::vector<uint8_t> fp = old.bytea(0, 1);
            if (std::string(fp.begin(), fp.end()) != req.fingerprint || old.str(0, 2) != req.circuit_id ||
                old.str(0, 3) != req.kind || old.i64(0, 4) != (int64_t)n_partitions)
              throw engine::SubmitRefused(engine::SubmitRefused::Reason::kRequestIdInUse,
                                          "request_id \"" + engine::printable(req.request_id) +
                                              "\" is taken by job " + old.str(0, 0) + " (" + old.str(0, 5) +
                                              "), which asked for a different proof: use another request_id");
            return {old.str(0, 0), 0, true};
          }
        }
        if (m.opt.max_queued_bytes) m.check_queued_bytes(c, req);
        const std::string id = m.new_id();
        auto deadline = [&](Params& p) -> Params& {
          return req.deadline_unix_ms ? p.num(*req.deadline_unix_ms) : p.none();
        };
        Params p;
        p.text(id);
        if (req.request_id.empty())
          p.none();
        else
          p.text(req.request_id);
        p.bytes(req.fingerprint)
            .text(req.circuit_id)
            .text(req.kind)
            .num((int)req.priority)
            .num((int64_t)n_partitions);
        deadline(p);
        if (shared) {
          const Sha256::Digest d = Sha256::hash(req.job_input);
          p.bytes(req.job_input.data(), req.job_input.size()).bytes(d.data(), d.size());
        } else {
          p.none().none();
        }
        Rows job = c.exec(
            "INSERT INTO cuzk_jobs (id, request_id, fingerprint, circuit_id, kind, priority, n_partitions, "
            "deadline, input, input_sha256) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, to_timestamp($8::bigint / 1000.0), $9, $10) RETURNING seq",
            p);
        const int64_t seq = job.i64(0, 0);
        for (uint32_t i = 0; i < n_partitions; i++) {
          Params pp;
          pp.text(id).num((int64_t)i).num((int)req.priority).num(seq).text(req.circuit_id).text(req.kind);
          if (shared) {
            pp.none().none();
          } else {
            const Sha256::Digest d = Sha256::hash(req.inputs[i]);
            pp.bytes(req.inputs[i].data(), req.inputs[i].size()).bytes(d.data(), d.size());
          }
          deadline(pp);
          c.exec(
              "INSERT INTO cuzk_partitions (job_id, idx, priority, job_seq, circuit_id, kind, input, "
              "input_sha256, deadline) "
              "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::bigint / 1000.0))",
              pp);
        }
        Rows pos = c.exec(
            "SELECT count(*) FROM cuzk_partitions WHERE state = 'queued' "
            "AND (priority > $1 OR (priority = $1 AND job_seq < $2))",
            Params().num((int)req.priority).num(seq));
        c.exec("SELECT pg_notify('cuzk_work', '')");
        return {id, (uint32_t)pos.i64(0, 0), false};
      });
    } catch (const SqlError& e) {
      // Another node stored the same request_id at the same moment: look again (it is found now).
      if (e.state == "23505" && attempt < 3) continue;
      throw;
    }
  }
}

std::optional<engine::JobResult> PgStore::await(const std::string& job_id, uint64_t timeout_ms) {
  Impl& m = *impl_;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    uint64_t gen;
    {
      std::lock_guard lk(m.note_mu);
      gen = m.done_gen;
    }
    {  // the connection goes back to the pool before the wait
      Impl::Conn c(m);
      Rows j = c.exec(
          "SELECT state, error, circuit_id, "
          "extract(epoch FROM coalesce(started_at, now()) - submitted_at) * 1000, "
          "extract(epoch FROM coalesce(finished_at, now()) - submitted_at) * 1000 FROM cuzk_jobs WHERE id = "
          "$1",
          Params().text(job_id));
      if (j.size() == 0) return std::nullopt;
      const engine::JobState st = parse_state(j.str(0, 0));
      if (engine::is_final(st) || Clock::now() >= deadline) {
        engine::JobResult r;
        r.job_id = job_id;
        r.state = st;
        r.error = j.str(0, 1);
        r.circuit_id = j.str(0, 2);
        r.queue_wait_ms = j.real(0, 3);
        r.total_ms = j.real(0, 4);
        if (st == engine::JobState::kCompleted) {
          // Each partition's GPU span in ms since the job's submission, clipped to the job's life.
          Rows p = c.exec(
              "SELECT idx, proof, public_inputs, proved_by, synth_ms, gpu_ms, total_ms, "
              "  extract(epoch FROM greatest(gpu_start, j.submitted_at) - j.submitted_at) * 1000, "
              "  extract(epoch FROM least(gpu_end, j.finished_at) - j.submitted_at) * 1000 "
              "FROM cuzk_partitions JOIN cuzk_jobs j ON j.id = job_id WHERE job_id = $1 ORDER BY idx",
              Params().text(job_id));
          std::vector<std::pair<Clock::time_point, Clock::time_point>> spans;
          double unspanned_ms = 0;  // partitions stored by a node without spans (before schema 3)
          for (int i = 0; i < p.size(); i++) {
            const std::vector<uint8_t> proof = p.bytea(i, 1), pub = p.bytea(i, 2);
            r.proofs.push_back(decode_proof_zcash(proof));
            std::vector<Fr> inputs(pub.size() / 32);
            for (size_t k = 0; k < inputs.size(); k++)
              if (!from_bytes_le(pub.data() + 32 * k, inputs[k]))
                throw Error(ErrorCode::kInternal, "cuzk_partitions: a stored public input is not in Fr");
            r.public_inputs.push_back(std::move(inputs));
            engine::PartitionTiming t;
            t.device = p.str(i, 3);
            t.synth_ms = p.real(i, 4);
            t.gpu_ms = p.real(i, 5);
            t.total_ms = p.real(i, 6);
            r.synthesis_ms += t.synth_ms;
            auto at = [](double ms) {
              return Clock::time_point{} + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double, std::milli>(ms));
            };
            if (p.null(i, 7) || p.null(i, 8))
              unspanned_ms += t.gpu_ms;
            else
              spans.emplace_back(at(p.real(i, 7)), at(p.real(i, 8)));
            r.partitions.push_back(t);
          }
          // Wall time with some partition on a GPU, as a single daemon reports it (≤ total_ms).
          r.gpu_ms = std::min(engine::union_ms(std::move(spans)) + unspanned_ms, r.total_ms);
        }
        return r;
      }
    }
    // Wait for a job to finish somewhere (NOTIFY cuzk_done), looking again at least every 250 ms.
    std::unique_lock lk(m.note_mu);
    m.done_cv.wait_until(lk, std::min(deadline, Clock::now() + std::chrono::milliseconds(250)),
                         [&] { return m.done_gen != gen; });
  }
}

std::optional<bool> PgStore::cancel(const std::string& job_id, const std::string& reason) {
  return impl_->tx([&](Impl::Conn& c) -> std::optional<bool> {
    Rows j = c.exec("SELECT state FROM cuzk_jobs WHERE id = $1 FOR UPDATE", Params().text(job_id));
    if (j.size() == 0) return std::nullopt;
    const engine::JobState st = parse_state(j.str(0, 0));
    if (engine::is_final(st)) return false;
    c.exec(
        "UPDATE cuzk_jobs SET state = 'cancelled', error = $2, finished_at = now(), input = NULL WHERE id = "
        "$1",
        Params().text(job_id).text(reason));
    c.exec(
        "UPDATE cuzk_partitions SET state = 'dropped', input = NULL "
        "WHERE job_id = $1 AND state IN ('queued', 'running')",
        Params().text(job_id));
    impl_->notify_done(c, job_id);
    return st == engine::JobState::kRunning;
  });
}

std::optional<engine::PartitionClaim> PgStore::claim(const std::string& node_id,
                                                     const std::vector<std::string>& circuits,
                                                     const std::vector<std::string>& resident) {
  Impl& m = *impl_;
  if (circuits.empty()) return std::nullopt;
  // First a partition whose deadline is near ($6 ms from now), the earliest deadline first (the urgent
  // index, in its order); only when there is none (a one-time filter: the rest is not run), one by
  // priority. Affinity: first the resident circuits' partitions at the farm's top claimable priority for
  // this node, then any circuit's. Every scan reads its index in order (an affinity or urgency term in
  // ORDER BY would sort every claimable row instead: 7 ms at 2,000 rows against 0.8 ms).
  // Parameters: $1 owner, $2 the circuits of the priority scan, $3 max_attempts, $4 lease (ms), $5 every
  // circuit the node proves, $6 the deadline lead (ms).
  const bool affinity = !resident.empty() && resident.size() < circuits.size();
  static const std::string kClaimable =
      "(state = 'queued' OR (state = 'running' AND lease_expires < now() AND attempts < $3))";
  static const std::string kUrgent =
      "WITH uc AS (SELECT job_id, idx FROM cuzk_partitions "
      "  WHERE circuit_id = ANY (ARRAY(SELECT json_array_elements_text($5::json))) AND " +
      kClaimable +
      "    AND deadline IS NOT NULL AND deadline <= now() + $6::bigint * interval '1 millisecond' "
      "  ORDER BY deadline, job_seq, idx LIMIT 1 FOR UPDATE SKIP LOCKED), "
      "pc AS (SELECT job_id, idx FROM cuzk_partitions "
      "  WHERE NOT EXISTS (SELECT 1 FROM uc) "
      "    AND circuit_id = ANY (ARRAY(SELECT json_array_elements_text($2::json))) AND " +
      kClaimable;
  static const std::string kTail =
      " ORDER BY priority DESC, job_seq, idx LIMIT 1 FOR UPDATE SKIP LOCKED), "
      "c AS (SELECT * FROM uc UNION ALL SELECT * FROM pc), "
      "u AS (UPDATE cuzk_partitions p SET state = 'running', lease_owner = $1, "
      "        lease_epoch = p.lease_epoch + 1, attempts = p.attempts + 1, "
      "        lease_expires = now() + $4::bigint * interval '1 millisecond' "
      "      FROM c WHERE p.job_id = c.job_id AND p.idx = c.idx "
      "      RETURNING p.job_id, p.idx, p.lease_epoch, p.attempts, p.circuit_id, p.kind, p.priority, "
      "        p.input, p.input_sha256, (SELECT n_partitions FROM cuzk_jobs WHERE id = p.job_id)), "
      "j AS (UPDATE cuzk_jobs SET state = 'running', started_at = now() FROM u "
      "      WHERE cuzk_jobs.id = u.job_id AND cuzk_jobs.state = 'queued') "
      "SELECT * FROM u";
  static const std::string kAny = kUrgent + kTail;
  static const std::string kResident =
      kUrgent +
      " AND priority >= (SELECT priority FROM cuzk_partitions "
      "  WHERE circuit_id = ANY (ARRAY(SELECT json_array_elements_text($5::json))) AND " +
      kClaimable + "  ORDER BY priority DESC, job_seq, idx LIMIT 1)" + kTail;
  for (;;) {
    std::optional<Impl::Conn> c;  // released before fail() takes one of its own
    c.emplace(m);
    auto params = [&](const std::vector<std::string>& filter) {
      return Params()
          .text(node_id)
          .text(json_list(filter))
          .num(m.opt.max_attempts)
          .num((int64_t)m.opt.lease_ms)
          .text(json_list(circuits))
          .num((int64_t)m.opt.deadline_lead_ms);
    };
    Rows r =
        affinity ? c->exec(kResident.c_str(), params(resident)) : c->exec(kAny.c_str(), params(circuits));
    if (affinity && r.size() == 0) r = c->exec(kAny.c_str(), params(circuits));
    if (r.size() == 0) return std::nullopt;
    engine::PartitionClaim cl;
    cl.job_id = r.str(0, 0);
    cl.index = (uint32_t)r.i64(0, 1);
    cl.epoch = (uint64_t)r.i64(0, 2);
    cl.attempt = (unsigned)r.i64(0, 3);
    cl.circuit_id = r.str(0, 4);
    cl.kind = r.str(0, 5);
    const int64_t pr = r.i64(0, 6);
    cl.priority = pr >= 1 && pr <= 4 ? engine::Priority(pr) : engine::Priority::kNormal;
    cl.partitions = (uint32_t)r.i64(0, 9);
    if (r.null(0, 8)) {  // made from the job's input (job_input)
      cl.job_input = true;
      return cl;
    }
    cl.input = r.bytea(0, 7);
    const std::vector<uint8_t> want = r.bytea(0, 8);
    const Sha256::Digest got = Sha256::hash(cl.input);
    if (std::equal(got.begin(), got.end(), want.begin(), want.end())) return cl;
    // The stored input is not what was submitted: that job fails for good, and the next claim is tried.
    c.reset();
    fail(cl, node_id, "the input stored in the database does not match its SHA-256 (corrupt row)");
  }
}

std::optional<std::vector<uint8_t>> PgStore::job_input(const std::string& job_id) {
  Impl::Conn c(*impl_);
  Rows r = c.exec(
      "SELECT input, input_sha256 FROM cuzk_jobs WHERE id = $1 AND state IN ('queued', 'running') "
      "AND input IS NOT NULL",
      Params().text(job_id));
  if (r.size() == 0) return std::nullopt;
  std::vector<uint8_t> input = r.bytea(0, 0);
  const std::vector<uint8_t> want = r.bytea(0, 1);
  const Sha256::Digest got = Sha256::hash(input);
  if (!std::equal(got.begin(), got.end(), want.begin(), want.end()))
    throw Error(ErrorCode::kInvalidFile,
                "the job's input stored in the database does not match its SHA-256 (corrupt row)");
  return input;
}

void PgStore::wait_for_work(uint64_t timeout_ms) {
  Impl& m = *impl_;
  std::unique_lock lk(m.note_mu);
  const uint64_t gen = m.work_gen;
  m.work_cv.wait_for(lk, std::chrono::milliseconds(timeout_ms), [&] { return m.work_gen != gen; });
}

bool PgStore::complete(const engine::PartitionClaim& cl, const std::string& node_id,
                       const Groth16Proof& proof, const std::vector<Fr>& public_inputs,
                       const engine::PartitionTiming& t) {
  Impl& m = *impl_;
  const auto enc = encode_proof_zcash(proof);
  std::string pub(public_inputs.size() * 32, '\0');
  for (size_t i = 0; i < public_inputs.size(); i++)
    to_bytes_le(public_inputs[i], reinterpret_cast<uint8_t*>(pub.data()) + 32 * i);
  static const char* const kComplete =
      "WITH p AS (UPDATE cuzk_partitions SET state = 'done', proof = $4, public_inputs = $5, proved_by = "
      "$10, "
      "             input = NULL, synth_ms = $6, gpu_ms = $7, total_ms = $8, "
      "             gpu_start = now() - $11::double precision * interval '1 millisecond', "
      "             gpu_end = now() - $12::double precision * interval '1 millisecond' "
      "           WHERE job_id = $1 AND idx = $9 AND lease_owner = $2 AND lease_epoch = $3 AND state = "
      "'running' "
      "             AND lease_expires > now() RETURNING job_id), "
      "j AS (UPDATE cuzk_jobs SET done = done + 1, "
      "        state = CASE WHEN done + 1 >= n_partitions THEN 'completed' ELSE state END, "
      "        finished_at = CASE WHEN done + 1 >= n_partitions THEN now() END, "
      "        input = CASE WHEN done + 1 >= n_partitions THEN NULL ELSE input END "
      "      FROM p WHERE cuzk_jobs.id = p.job_id RETURNING cuzk_jobs.state), "
      "n AS (SELECT pg_notify('cuzk_done', $1) FROM j WHERE j.state = 'completed') "
      "SELECT (SELECT count(*) FROM p), (SELECT state FROM j), (SELECT count(*) FROM n)";
  Params p;
  p.text(cl.job_id)
      .text(node_id)
      .num((int64_t)cl.epoch)
      .bytes(enc.data(), enc.size())
      .bytes(pub)
      .real(t.synth_ms)
      .real(t.gpu_ms)
      .real(t.total_ms)
      .num(cl.index)
      .text(t.device);
  Impl::Conn c(m);
  // The GPU span on this process's clock, moved to the database's (its now()) as "ms ago"; none when the
  // timing has no span.
  const Clock::time_point now = Clock::now();
  if (t.gpu_end == Clock::time_point{})
    p.none().none();
  else
    p.real(engine::ms_between(t.gpu_start, now)).real(engine::ms_between(t.gpu_end, now));
  Rows r = c.exec(kComplete, p);
  return r.i64(0, 0) == 1;  // the job's completion was announced by the statement (cuzk_done)
}

bool PgStore::fail(const engine::PartitionClaim& cl, const std::string& node_id, const std::string& reason) {
  Impl& m = *impl_;
  Impl::Conn c(m);
  Rows r = c.exec(
      "WITH o AS (SELECT 1 FROM cuzk_partitions WHERE job_id = $1 AND idx = $2 AND lease_owner = $3 "
      "             AND lease_epoch = $4 AND state = 'running'), "
      "j AS (UPDATE cuzk_jobs SET state = 'failed', finished_at = now(), input = NULL, "
      "        error = CASE WHEN n_partitions > 1 THEN 'partition ' || $2 || ': ' ELSE '' END || $5 "
      "      WHERE id = $1 AND state IN ('queued', 'running') AND EXISTS (SELECT 1 FROM o) RETURNING id), "
      "d AS (UPDATE cuzk_partitions SET state = 'dropped', input = NULL "
      "      WHERE job_id IN (SELECT id FROM j) AND state IN ('queued', 'running')) "
      "SELECT count(*) FROM j",
      Params().text(cl.job_id).num(cl.index).text(node_id).num((int64_t)cl.epoch).text(reason));
  const bool failed = r.i64(0, 0) == 1;
  if (failed) m.notify_done(c, cl.job_id);
  return failed;
}

void PgStore::join(const engine::NodeReport& node) {
  Impl& m = *impl_;
  std::string seen;  // the other incarnation's last heartbeat when first found within the lease
  bool waiting_logged = false;
  for (;;) {
    std::string refused;
    uint64_t wait_ms = 0;
    const bool joined = m.tx([&](Impl::Conn& c) {
      c.exec(
          "INSERT INTO cuzk_nodes (node_id, incarnation, address, gpus, resident, running) "
          "VALUES ($1, $2, $3, $4, ARRAY(SELECT json_array_elements_text($5::json)), 0) "
          "ON CONFLICT (node_id) DO NOTHING",
          Params()
              .text(node.node_id)
              .text(node.incarnation)
              .text(node.address)
              .num(node.gpus)
              .text(json_list(node.resident)));
      Rows r = c.exec(
          "SELECT incarnation, address, last_heartbeat::text, "
          "(extract(epoch FROM now() - last_heartbeat) * 1000)::bigint FROM cuzk_nodes WHERE node_id = $1 "
          "FOR UPDATE",
          Params().text(node.node_id));
      const std::string other = r.str(0, 0);
      if (other == node.incarnation) return true;  // the row is new
      const int64_t age_ms = r.i64(0, 3);
      if (age_ms >= (int64_t)m.opt.lease_ms) {  // its process died: its leases lapse now
        c.exec(
            "UPDATE cuzk_partitions SET lease_expires = now() WHERE state = 'running' AND lease_owner = $1",
            Params().text(other));
        c.exec(
            "UPDATE cuzk_nodes SET incarnation = $2, address = $3, gpus = $4, "
            "resident = ARRAY(SELECT json_array_elements_text($5::json)), running = 0, started_at = now(), "
            "last_heartbeat = now() WHERE node_id = $1",
            Params()
                .text(node.node_id)
                .text(node.incarnation)
                .text(node.address)
                .num(node.gpus)
                .text(json_list(node.resident)));
        m.log(engine::LogLevel::kInfo, "farm_node_taken_over",
              {{"node_id", node.node_id}, {"previous", other}, {"heartbeat_age_ms", std::to_string(age_ms)}});
        return true;
      }
      if (!seen.empty() && r.str(0, 2) != seen) {  // it beat again while this one waited: it is alive
        refused = "cluster.node_id \"" + engine::printable(node.node_id) +
                  "\" is in use by another running process (incarnation " + other + ", address " +
                  r.str(0, 1) + ", last heartbeat " + std::to_string(age_ms) +
                  " ms ago): node ids must be unique among running nodes; stop that process or give this "
                  "one another cluster.node_id";
        return false;
      }
      if (seen.empty()) seen = r.str(0, 2);
      wait_ms = std::min<uint64_t>(250, m.opt.lease_ms - (uint64_t)std::max<int64_t>(age_ms, 0));
      return false;
    });
    if (joined) return;
    if (!refused.empty()) throw engine::NodeIdInUse(refused);
    if (!waiting_logged) {
      waiting_logged = true;
      m.log(engine::LogLevel::kInfo, "farm_node_id_wait",
            {{"node_id", node.node_id},
             {"why",
              "another incarnation was heard from within cluster.lease: waiting until it beats again "
              "(refused) or its lease passes (taken over)"}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::max<uint64_t>(wait_ms, 1)));
  }
}

std::vector<std::pair<std::string, uint32_t>> PgStore::heartbeat(const engine::NodeReport& node) {
  Impl& m = *impl_;
  Impl::Conn c(m);
  // Only the incarnation that holds the node's row (join) updates it. Another one there means this
  // process was silent for more than a lease and another process took its node_id over: logged (its
  // leases lapsed then; those it claims since are its own).
  Rows mine = c.exec(
      "INSERT INTO cuzk_nodes (node_id, incarnation, address, gpus, resident, running) "
      "VALUES ($1, $2, $3, $4, ARRAY(SELECT json_array_elements_text($5::json)), $6) "
      "ON CONFLICT (node_id) DO UPDATE SET address = EXCLUDED.address, gpus = EXCLUDED.gpus, "
      "  resident = EXCLUDED.resident, running = EXCLUDED.running, last_heartbeat = now() "
      "WHERE cuzk_nodes.incarnation = EXCLUDED.incarnation RETURNING 1",
      Params()
          .text(node.node_id)
          .text(node.incarnation)
          .text(node.address)
          .num(node.gpus)
          .text(json_list(node.resident))
          .num(node.running));
  if (mine.size() == 0) {
    Rows other =
        c.exec("SELECT incarnation, address FROM cuzk_nodes WHERE node_id = $1", Params().text(node.node_id));
    m.log(engine::LogLevel::kError, "farm_node_id_in_use",
          {{"node_id", node.node_id},
           {"other_incarnation", other.size() ? other.str(0, 0) : ""},
           {"other_address", other.size() ? other.str(0, 1) : ""},
           {"error",
            "another process took this cluster.node_id over while this one was silent for more than "
            "cluster.lease; node ids must be unique among running nodes"}});
  }
  // Only leases still alive are renewed: one that expired (the database or this node was away longer
  // than the lease) is lost, as for complete(), which refuses it; renewing it would keep a partition
  // whose local work complete() already dropped claimed by this node for as long as it lives.
  Rows held = c.exec(
      "UPDATE cuzk_partitions SET lease_expires = now() + $2::bigint * interval '1 millisecond' "
      "WHERE lease_owner = $1 AND state = 'running' AND lease_expires > now() RETURNING job_id, idx",
      Params().text(node.incarnation).num((int64_t)m.opt.lease_ms));
  std::vector<std::pair<std::string, uint32_t>> out;
  for (int i = 0; i < held.size(); i++) out.emplace_back(held.str(i, 0), (uint32_t)held.i64(i, 1));
  // Partitions whose lease lapsed with no attempt left: their jobs fail, saying so.
  Rows failed = c.exec(
      "WITH e AS (SELECT DISTINCT ON (job_id) job_id, idx, attempts, lease_owner FROM cuzk_partitions "
      "           WHERE state = 'running' AND lease_expires < now() AND attempts >= $1 ORDER BY job_id, "
      "idx), "
      "j AS (UPDATE cuzk_jobs SET state = 'failed', finished_at = now(), input = NULL, "
      "        error = 'partition ' || e.idx || ': claimed ' || e.attempts || ' times "
      "(cluster.max_attempts), and '"
      "                || 'each time its node stopped before storing the proof (lease expired; last holder '"
      "                || e.lease_owner || ')' "
      "      FROM e WHERE cuzk_jobs.id = e.job_id AND cuzk_jobs.state IN ('queued', 'running') "
      "      RETURNING cuzk_jobs.id), "
      "d AS (UPDATE cuzk_partitions SET state = 'dropped', input = NULL "
      "      WHERE job_id IN (SELECT id FROM j) AND state IN ('queued', 'running')) "
      "SELECT id FROM j",
      Params().num(m.opt.max_attempts));
  for (int i = 0; i < failed.size(); i++) {
    m.log(engine::LogLevel::kWarn, "farm_job_attempts_exhausted", {{"job", failed.str(i, 0)}});
    m.notify_done(c, failed.str(i, 0));
  }
  if (Clock::now() - m.last_prune > std::chrono::seconds(60)) {
    m.last_prune = Clock::now();
    Rows pruned = c.exec(
        "WITH d AS (DELETE FROM cuzk_jobs WHERE finished_at < now() - $1::bigint * interval '1 second' "
        "RETURNING 1) SELECT count(*) FROM d",
        Params().num((int64_t)m.opt.retention_s));
    c.exec("DELETE FROM cuzk_nodes WHERE last_heartbeat < now() - $1::bigint * interval '1 second'",
           Params().num((int64_t)m.opt.retention_s));
    if (pruned.i64(0, 0) > 0)
      m.log(engine::LogLevel::kInfo, "farm_jobs_pruned", {{"jobs", pruned.str(0, 0)}});
  }
  return out;
}

std::vector<engine::NodeInfo> PgStore::nodes() {
  Impl::Conn c(*impl_);
  Rows r = c.exec(
      "SELECT node_id, incarnation, address, gpus, array_to_json(resident)::text, running, "
      "extract(epoch FROM now() - last_heartbeat), coalesce(s.n, 0) FROM cuzk_nodes "
      "LEFT JOIN (SELECT split_part(proved_by, '/', 1) AS node, count(*) AS n FROM cuzk_partitions "
      "           WHERE state = 'done' GROUP BY 1) s ON s.node = cuzk_nodes.node_id "
      "ORDER BY node_id");
  std::vector<engine::NodeInfo> out;
  for (int i = 0; i < r.size(); i++) {
    engine::NodeInfo n;
    n.report.node_id = r.str(i, 0);
    n.report.incarnation = r.str(i, 1);
    n.report.address = r.str(i, 2);
    n.report.gpus = (unsigned)r.i64(i, 3);
    n.report.resident = nlohmann::json::parse(r.str(i, 4)).get<std::vector<std::string>>();
    n.report.running = (unsigned)r.i64(i, 5);
    n.heartbeat_age_s = r.real(i, 6);
    n.alive = n.heartbeat_age_s * 1000 < (double)impl_->opt.lease_ms;
    n.partitions_stored = (uint64_t)r.i64(i, 7);
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<engine::KindStatus> PgStore::kinds() {
  Impl::Conn c(*impl_);
  Rows r = c.exec(
      "SELECT kind, count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'running') "
      "FROM cuzk_jobs WHERE state IN ('queued', 'running') GROUP BY kind ORDER BY kind");
  std::vector<engine::KindStatus> out;
  for (int i = 0; i < r.size(); i++)
    out.push_back({r.str(i, 0), (unsigned)r.i64(i, 1), (unsigned)r.i64(i, 2)});
  return out;
}

engine::FarmTotals PgStore::totals() {
  Impl::Conn c(*impl_);
  Rows r = c.exec(
      "SELECT count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'running'), "
      "count(*) FILTER (WHERE state = 'completed'), count(*) FILTER (WHERE state = 'failed'), "
      "count(*) FILTER (WHERE state = 'cancelled'), coalesce(sum(done), 0) FROM cuzk_jobs");
  engine::FarmTotals t;
  t.queued = (uint64_t)r.i64(0, 0);
  t.running = (uint64_t)r.i64(0, 1);
  t.completed = (uint64_t)r.i64(0, 2);
  t.failed = (uint64_t)r.i64(0, 3);
  t.cancelled = (uint64_t)r.i64(0, 4);
  t.partitions_stored = (uint64_t)r.i64(0, 5);
  return t;
}

}  // namespace cuzk::cluster
