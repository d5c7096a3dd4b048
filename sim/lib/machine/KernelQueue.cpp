//===- KernelQueue.cpp - Numeric kernels on a second host thread ----------===//
//
// A single worker drains a FIFO of kernels. The submitting thread learns of
// finished kernels from an atomic counter, and sleeps on a condition
// variable only when the kernel it needs has not run yet. The worker is
// started by the first kernel, so launches without one never create it.
// Between kernels the worker polls the queue for a few tens of
// microseconds before it sleeps: a streaming launch submits kernels that
// often, and waking a sleeping thread costs the submitter a system call.
//
//===----------------------------------------------------------------------===//

#include "KernelQueue.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

using namespace mtia;

namespace {

/// Tells the core that the thread is polling.
void pauseBriefly() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

} // namespace

KernelQueue::KernelQueue(bool threaded)
    : threaded(threaded && std::thread::hardware_concurrency() > 1) {}

KernelQueue::~KernelQueue() {
  if (!worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_one();
  worker.join();
}

void KernelQueue::submit(std::function<void()> kernel) {
  ++submitted;
  if (!threaded) {
    kernel();
    completed.store(submitted, std::memory_order_release);
    return;
  }
  bool asleep;
  {
    std::lock_guard<std::mutex> lock(mutex);
    pending.push_back(std::move(kernel));
    handedOver.store(submitted, std::memory_order_release);
    asleep = sleeping;
  }
  if (!worker.joinable())
    worker = std::thread([this] { work(); });
  else if (asleep)
    wake.notify_one();
}

void KernelQueue::block(uint64_t number) {
  // A page may be marked for a kernel that was never submitted: its
  // instruction aborted while it resolved its operands.
  number = std::min(number, submitted);
  std::unique_lock<std::mutex> lock(mutex);
  done.wait(lock, [&] {
    return completed.load(std::memory_order_acquire) >= number || failure;
  });
  if (failure)
    std::rethrow_exception(failure);
}

void KernelQueue::work() {
  // About 50 us of polling on current x86 cores.
  constexpr unsigned kPolls = 1 << 10;
  std::unique_lock<std::mutex> lock(mutex);
  uint64_t taken = 0;
  while (true) {
    if (pending.empty() && !stopping) {
      lock.unlock();
      for (unsigned poll = 0;
           poll < kPolls && handedOver.load(std::memory_order_acquire) == taken;
           ++poll)
        pauseBriefly();
      lock.lock();
    }
    sleeping = true;
    wake.wait(lock, [&] { return stopping || !pending.empty(); });
    sleeping = false;
    if (pending.empty())
      return;
    ++taken;
    std::function<void()> kernel = std::move(pending.front());
    pending.pop_front();
    lock.unlock();
    std::exception_ptr thrown;
    if (!failure) {
      try {
        kernel();
      } catch (...) {
        thrown = std::current_exception();
      }
    }
    lock.lock();
    if (thrown && !failure)
      failure = thrown;
    completed.fetch_add(1, std::memory_order_release);
    done.notify_all();
  }
}
