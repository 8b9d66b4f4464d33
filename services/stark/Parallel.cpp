#include "Parallel.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace proofdesk::stark {
namespace {

std::atomic<int> g_requestedThreads{0};
thread_local bool t_inBatch = false; // a task's own loops run serially

} // namespace

// One batch at a time: a generation counter wakes the threads, each claims task indices from a
// shared counter, the last one to finish wakes the caller.
struct Workers::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable done;
    std::mutex batchMutex; // one forEach at a time
    const std::function<void(std::size_t)>* task = nullptr;
    std::size_t tasks = 0;
    std::atomic<std::size_t> next{0};
    std::size_t running = 0;
    std::uint64_t generation = 0;
    std::exception_ptr error;
    bool stopping = false;
    std::vector<std::thread> threads;

    void work() {
        t_inBatch = true;
        struct Reset {
            ~Reset() { t_inBatch = false; }
        } reset;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= tasks) {
                return;
            }
            try {
                (*task)(i);
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error) {
                    error = std::current_exception();
                }
                next.store(tasks); // the other tasks are skipped
            }
        }
    }

    void loop() {
        std::uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stopping || generation != seen; });
                if (stopping) {
                    return;
                }
                seen = generation;
            }
            work();
            const std::lock_guard lock(mutex);
            if (--running == 0) {
                done.notify_all();
            }
        }
    }
};

Workers& Workers::shared() {
    static Workers workers([] {
        const int requested = g_requestedThreads.load();
        if (requested > 0) {
            return requested;
        }
        return std::max(1, int(std::thread::hardware_concurrency()));
    }());
    return workers;
}

void Workers::setThreadCount(int threads) {
    g_requestedThreads.store(threads);
}

Workers::Workers(int threads) : m_state(new State), m_threads(threads) {
    for (int i = 1; i < threads; ++i) {
        try {
            m_state->threads.emplace_back([this] { m_state->loop(); });
        } catch (const std::system_error&) {
            // No room for another thread's stack (a tight memory limit): run with those started,
            // so a proof that does not fit fails for want of memory, said as such, not here.
            m_threads = int(m_state->threads.size()) + 1;
            break;
        }
    }
}

Workers::~Workers() {
    {
        const std::lock_guard lock(m_state->mutex);
        m_state->stopping = true;
    }
    m_state->wake.notify_all();
    for (std::thread& thread : m_state->threads) {
        thread.join();
    }
    delete m_state;
}

void Workers::forEach(std::size_t tasks, const std::function<void(std::size_t)>& task) {
    if (tasks == 0) {
        return;
    }
    if (tasks == 1 || m_state->threads.empty() || t_inBatch) {
        for (std::size_t i = 0; i < tasks; ++i) {
            task(i);
        }
        return;
    }
    const std::lock_guard batch(m_state->batchMutex);
    {
        const std::lock_guard lock(m_state->mutex);
        m_state->task = &task;
        m_state->tasks = tasks;
        m_state->next.store(0);
        m_state->error = nullptr;
        m_state->running = m_state->threads.size();
        ++m_state->generation;
    }
    m_state->wake.notify_all();
    m_state->work();
    std::unique_lock lock(m_state->mutex);
    m_state->done.wait(lock, [&] { return m_state->running == 0; });
    m_state->task = nullptr;
    if (m_state->error) {
        std::rethrow_exception(m_state->error);
    }
}

void Workers::forRange(std::size_t count, std::size_t grain,
                       const std::function<void(std::size_t, std::size_t)>& body) {
    if (count == 0) {
        return;
    }
    const std::size_t wanted = std::size_t(m_threads) * 4;
    const std::size_t chunk = std::max(grain, (count + wanted - 1) / wanted);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    forEach(chunks, [&](std::size_t i) {
        const std::size_t begin = i * chunk;
        body(begin, std::min(count, begin + chunk));
    });
}

void Workers::forRangeGuided(std::size_t count, std::size_t grain,
                             const std::function<void(std::size_t, std::size_t)>& body) {
    if (count == 0) {
        return;
    }
    const std::size_t threads = m_state->threads.size() + 1;
    if (threads == 1 || t_inBatch) {
        body(0, count);
        return;
    }
    std::atomic<std::size_t> next{0};
    forEach(threads, [&](std::size_t) {
        std::size_t begin = next.load();
        for (;;) {
            std::size_t end = 0;
            do {
                if (begin >= count) {
                    return;
                }
                end = std::min(count, begin + std::max(grain, (count - begin) / threads));
            } while (!next.compare_exchange_weak(begin, end));
            try {
                body(begin, end);
            } catch (...) {
                next.store(count); // the other threads claim nothing more
                throw;
            }
            begin = next.load();
        }
    });
}

} // namespace proofdesk::stark
