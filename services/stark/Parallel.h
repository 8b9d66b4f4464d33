#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <stdexcept>

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

    ~Workers();
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

private:
    explicit Workers(int threads);
    struct State;
    State* m_state;
    int m_threads;
};

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
