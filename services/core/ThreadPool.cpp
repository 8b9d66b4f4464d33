#include "ThreadPool.h"

#include <algorithm>

namespace proofdesk::core {

ThreadPool::ThreadPool(int threads) {
    for (int i = 0; i < std::max(1, threads); ++i) {
        m_threads.emplace_back([this] { loop(); });
    }
}

ThreadPool::~ThreadPool() {
    stop();
}

void ThreadPool::post(std::function<void()> task) {
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(task));
    }
    m_wakeup.notify_one();
}

void ThreadPool::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wakeup.notify_all();
    for (std::thread& thread : m_threads) {
        if (thread.joinable()) {
            thread.join();
        }
    }
    m_threads.clear();
}

void ThreadPool::loop() {
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(m_mutex);
            m_wakeup.wait(lock, [this] { return m_stopping || !m_tasks.empty(); });
            if (m_tasks.empty()) {
                return; // stopping, and nothing left to do
            }
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        task();
    }
}

} // namespace proofdesk::core
