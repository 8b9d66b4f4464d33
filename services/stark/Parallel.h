#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace proofdesk::stark {

// Thrown inside the prover's loops once a cancellation was asked for.
class ProofCancelled : public std::runtime_error {
public:
    ProofCancelled() : std::runtime_error("proving was cancelled") {}
};

// A fork-join pool for the prover's data-parallel loops: the caller and the pool's threads take
// the tasks of one `forEach` between them and the call returns when all are done (rethrowing the
// first exception). One pool per process, sized to the machine unless set before first use.
class Workers {
public:
    static Workers& shared();
    // The number of threads (the caller included) loops are split over; 0 means the machine's.
    static void setThreadCount(int threads);
    int threads() const { return m_threads; }

    // Runs task(i) for every i in [0, tasks).
    void forEach(std::size_t tasks, const std::function<void(std::size_t)>& task);
    // Runs body(begin, end) over [0, count) split into about `threads() * 4` chunks of at least
    // `grain` items.
    void forRange(std::size_t count, std::size_t grain,
                  const std::function<void(std::size_t, std::size_t)>& body);

    // Runs body(begin, end) over [0, count) in ranges each thread claims as it comes free, a
    // share of what is left (half of it for two threads, then less and less, down to `grain`):
    // a thread's ranges mostly follow one another, for loops whose ranges read what the range
    // before them read (the composition's shifted rows); few ranges, and a short tail.
    void forRangeGuided(std::size_t count, std::size_t grain,
                        const std::function<void(std::size_t, std::size_t)>& body);

    ~Workers();
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

private:
    explicit Workers(int threads);
    struct State;
    State* m_state;
    int m_threads;
};

// An allocator that leaves its elements as the memory holds them (for trivially copyable types,
// whose objects a fresh allocation holds already): a buffer the workers fill then has its pages
// first touched by them, in parallel, where std::vector's own zeroing would touch every page on
// the calling thread first (tens of milliseconds per commitment at 2^14 steps, all serial).
template <typename T> struct UninitializedAllocator : std::allocator<T> {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    template <typename U> struct rebind { using other = UninitializedAllocator<U>; };
    UninitializedAllocator() = default;
    template <typename U> UninitializedAllocator(const UninitializedAllocator<U>&) {}
    template <typename U, typename... Args> void construct(U* place, Args&&... args) {
        if constexpr (sizeof...(Args) != 0) {
            ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
        }
    }
};

// A buffer whose elements are written before they are read.
template <typename T> using UninitializedBuffer = std::vector<T, UninitializedAllocator<T>>;

// Every element of `range` set to `value` by the workers.
template <typename Range, typename T> void fillInParallel(Range& range, const T& value) {
    Workers::shared().forRange(range.size(), std::size_t(1) << 14,
                               [&](std::size_t begin, std::size_t end) {
                                   std::fill(range.begin() + std::ptrdiff_t(begin),
                                             range.begin() + std::ptrdiff_t(end), value);
                               });
}

// `count` copies of `value`, written by the workers.
template <typename T> UninitializedBuffer<T> filledInParallel(std::size_t count, const T& value) {
    UninitializedBuffer<T> buffer(count);
    fillInParallel(buffer, value);
    return buffer;
}

// The cancellation flag a prover run watches; checkCancelled throws ProofCancelled when set.
struct CancelFlag {
    const std::atomic<bool>* flag = nullptr;
    bool requested() const { return flag && flag->load(std::memory_order_relaxed); }
    void check() const {
        if (requested()) {
            throw ProofCancelled();
        }
    }
};

} // namespace proofdesk::stark
