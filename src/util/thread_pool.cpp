#include "util/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace cuzk {

namespace {
// True while this thread runs a chunk of some pool: a nested parallel_for then runs inline.
thread_local bool t_in_chunk = false;
}  // namespace

struct ThreadPool::Job {
  const std::function<void(size_t, size_t)>* fn;
  size_t n, grain, nchunks;
  std::atomic<size_t> next{0};
  unsigned workers = 0;  // pool workers running its chunks (guarded by the pool's mu_)
  std::mutex err_mu;
  std::exception_ptr err;
};

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  size_ = threads;
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; i++) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  wake_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run_chunks(Job& job) {
  const bool outer = t_in_chunk;
  t_in_chunk = true;
  for (;;) {
    size_t c = job.next.fetch_add(1, std::memory_order_relaxed);
    if (c >= job.nchunks) break;
    size_t b = c * job.grain, e = std::min(job.n, b + job.grain);
    try {
      (*job.fn)(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lk(job.err_mu);
      if (!job.err) job.err = std::current_exception();
      job.next.store(job.nchunks, std::memory_order_relaxed);  // skip what is left
    }
  }
  t_in_chunk = outer;
}

ThreadPool::Job* ThreadPool::oldest_open() const {
  for (Job* job : jobs_)
    if (job->next.load(std::memory_order_relaxed) < job->nchunks) return job;
  return nullptr;
}

void ThreadPool::worker_loop() {
  for (;;) {
    Job* job = nullptr;
    {
      std::unique_lock<std::mutex> lk(mu_);
      wake_cv_.wait(lk, [&] { return stop_ || (job = oldest_open()) != nullptr; });
      if (stop_) return;
      job->workers++;
    }
    run_chunks(*job);
    {
      std::lock_guard<std::mutex> lk(mu_);
      job->workers--;
    }
    done_cv_.notify_all();
  }
}

void ThreadPool::parallel_for(size_t n, const std::function<void(size_t, size_t)>& fn, size_t grain) {
  if (n == 0) return;
  if (grain == 0) grain = std::max<size_t>(1, (n + 4 * size_ - 1) / (4 * size_));
  if (workers_.empty() || t_in_chunk || n <= grain) {
    const bool outer = t_in_chunk;
    t_in_chunk = true;
    struct Restore {
      bool v;
      ~Restore() { t_in_chunk = v; }
    } restore{outer};
    for (size_t b = 0; b < n; b += grain) fn(b, std::min(n, b + grain));
    return;
  }
  Job job;
  job.fn = &fn;
  job.n = n;
  job.grain = grain;
  job.nchunks = (n + grain - 1) / grain;
  {
    std::lock_guard<std::mutex> lk(mu_);
    jobs_.push_back(&job);
  }
  wake_cv_.notify_all();
  run_chunks(job);  // returns once every chunk is taken
  {
    // Unpublish the call, then wait for the workers still in its chunks; no worker takes it after this.
    std::unique_lock<std::mutex> lk(mu_);
    jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
    done_cv_.wait(lk, [&] { return job.workers == 0; });
  }
  if (job.err) std::rethrow_exception(job.err);
}

void parallel_memcpy(ThreadPool& pool, void* d, const void* src, size_t bytes) {
  const size_t parts = pool.size(), step = (bytes / parts + 63) / 64 * 64;
  pool.parallel_for(
      parts,
      [&](size_t lo, size_t hi) {
        for (size_t p = lo; p < hi; p++) {
          const size_t b = p * step;
          if (b < bytes)
            std::memcpy(static_cast<char*>(d) + b, static_cast<const char*>(src) + b,
                        std::min(step, bytes - b));
        }
      },
      1);
}

}  // namespace cuzk
