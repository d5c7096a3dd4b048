//===- KernelQueue.h - Numeric kernels on a second host thread --*- C++ -*-===//
//
// The numeric kernels of the DPE's and the SIMD engine's instructions and
// the copies of DMA stores take most of the host time of a matrix multiply
// or a DRAM stream, yet an instruction's timing does not depend on the
// numbers it moves. The machine therefore hands them, and the zeroing of
// the local memories at the start of a launch, to a worker thread of its
// own, in the order it executes the instructions, and goes on stepping.
// LocalMemory orders a page for the kernels that use it (see
// LocalMemory::KernelUse) and MemorySystem records the host bytes kernels
// read or write in place: every other access of them waits for those
// kernels. The worker runs the kernels one at a time in submission order, so
// a kernel sees exactly what it would see without the worker, and the
// results are the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef MTIA_SIM_KERNELQUEUE_H
#define MTIA_SIM_KERNELQUEUE_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace mtia {

class KernelQueue {
public:
  /// Kernels run on a worker thread when `threaded` and the host has more
  /// than one hardware thread, and on the submitting thread otherwise.
  explicit KernelQueue(bool threaded);
  /// Waits for the submitted kernels and stops the worker.
  ~KernelQueue();
  KernelQueue(const KernelQueue &) = delete;
  KernelQueue &operator=(const KernelQueue &) = delete;

  /// Whether a submitted kernel may run after submit returns.
  bool defers() const { return threaded; }
  /// The number the next submitted kernel will have (numbers start at 1;
  /// 0 stands for no kernel).
  uint64_t nextNumber() const { return submitted + 1; }
  /// Runs `kernel` after every kernel submitted before it.
  void submit(std::function<void()> kernel);
  /// Whether kernel `number` (and every earlier one) has run.
  bool hasRun(uint64_t number) const {
    return number <= completed.load(std::memory_order_acquire);
  }
  /// Returns once kernel `number` (and every earlier one) has run; rethrows
  /// on this thread what a kernel threw.
  void waitFor(uint64_t number) {
    if (number > completed.load(std::memory_order_acquire))
      block(number);
  }

private:
  void block(uint64_t number);
  void work();

  const bool threaded;
  /// Touched by the submitting thread only.
  uint64_t submitted = 0;
  /// How many kernels the submitting thread has queued, for the worker to
  /// poll without the mutex.
  std::atomic<uint64_t> handedOver{0};
  std::atomic<uint64_t> completed{0};
  std::mutex mutex;
  /// Signals new kernels to the worker and finished ones to the submitter.
  std::condition_variable wake, done;
  std::deque<std::function<void()>> pending;
  bool stopping = false;
  /// Whether the worker waits on `wake` (guarded by the mutex).
  bool sleeping = false;
  /// What the first failing kernel threw; the kernels after it are skipped.
  std::exception_ptr failure;
  std::thread worker;
};

} // namespace mtia

#endif // MTIA_SIM_KERNELQUEUE_H
