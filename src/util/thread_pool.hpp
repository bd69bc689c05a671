// A small fixed-size thread pool with one primitive, parallel_for, used by the CPU NTT and MSM.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

/// A fixed set of worker threads that run the chunks of one parallel_for at a time.
///
/// `size()` counts the calling thread: a pool of size T starts T − 1 workers, and the thread that calls
/// parallel_for works on chunks too. A pool of size 1 starts no thread and runs everything inline.
/// parallel_for calls from several threads at once run at the same time: each caller works on its own
/// call's chunks, and the workers on the chunks of the oldest call that has any left, so a lone call gets
/// every thread and the call made first is helped first (the daemon's synthesis workers share one pool
/// this way). A parallel_for called from inside a chunk (on a worker or on a calling thread) runs inline,
/// so nesting cannot deadlock.
class ThreadPool {
 public:
  /// Starts a pool of `threads` threads including the caller; 0 means std::thread::hardware_concurrency()
  /// (at least 1).
  explicit ThreadPool(unsigned threads = 0);
  /// Joins the workers. Must not be called while a parallel_for is running.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Number of threads that run chunks (workers + the calling thread).
  unsigned size() const { return size_; }

  /// Calls fn(begin, end) on disjoint chunks covering [0, n) and returns when all have run.
  ///
  /// `grain` is the largest chunk length; 0 picks about four chunks per thread (ceil(n / (4·size()))),
  /// 1 hands out single indices (for few, heavy items). Chunks are taken in increasing order by whichever
  /// thread is free. If a chunk throws, chunks not yet started are skipped and the first exception is
  /// rethrown here once every running chunk has finished. n = 0 returns at once.
  void parallel_for(size_t n, const std::function<void(size_t begin, size_t end)>& fn, size_t grain = 0);

 private:
  struct Job;
  void worker_loop();
  Job* oldest_open() const;  // the first call in jobs_ with chunks not yet taken (mu_ held), or nullptr
  static void run_chunks(Job& job);

  unsigned size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;  // guards jobs_, each Job's workers, stop_
  std::condition_variable wake_cv_, done_cv_;
  std::vector<Job*> jobs_;  // the running parallel_for calls, oldest first
  bool stop_ = false;
};

/// d[0..bytes) ← src[0..bytes) in pool.size() 64-byte-aligned parts, one a thread (a single thread's memcpy
/// does not keep up with a PCIe link: the GPU uploads' staging copies).
void parallel_memcpy(ThreadPool& pool, void* d, const void* src, size_t bytes);

}  // namespace cuzk
