//===- KernelQueue.cpp - Numeric kernels on a second host thread ----------===//
//
// A single worker drains a FIFO of kernels. The submitting thread learns of
// finished kernels from an atomic counter, and sleeps on a condition
// variable only when the kernel it needs has not run yet. The worker is
// started by the first kernel, so launches without one never create it.
//
//===----------------------------------------------------------------------===//

#include "KernelQueue.h"

#include <algorithm>

using namespace mtia;

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
  {
    std::lock_guard<std::mutex> lock(mutex);
    pending.push_back(std::move(kernel));
  }
  if (!worker.joinable())
    worker = std::thread([this] { work(); });
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
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    wake.wait(lock, [&] { return stopping || !pending.empty(); });
    if (pending.empty())
      return;
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
