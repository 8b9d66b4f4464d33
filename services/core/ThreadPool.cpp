#include "ThreadPool.h"

#include <algorithm>

namespace proofdesk::core {

ThreadPool::ThreadPool(int threads, int perLaneLimit) : m_perLaneLimit(perLaneLimit) {
    for (int i = 0; i < std::max(1, threads); ++i) {
        m_threads.emplace_back([this] { loop(); });
    }
}

ThreadPool::~ThreadPool() {
    stop();
}

void ThreadPool::post(const std::string& lane, std::function<void()> task) {
    {
        std::lock_guard lock(m_mutex);
        m_waiting[lane].push_back(std::move(task));
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

std::map<std::string, std::deque<std::function<void()>>>::iterator ThreadPool::nextLane() {
    const auto hasRoom = [this](const std::string& lane) {
        if (m_perLaneLimit <= 0) {
            return true;
        }
        const auto running = m_running.find(lane);
        return running == m_running.end() || running->second < m_perLaneLimit;
    };
    // The lanes after the last one served, then from the first.
    for (auto it = m_waiting.upper_bound(m_lastLane); it != m_waiting.end(); ++it) {
        if (hasRoom(it->first)) {
            return it;
        }
    }
    for (auto it = m_waiting.begin(); it != m_waiting.end() && it->first <= m_lastLane; ++it) {
        if (hasRoom(it->first)) {
            return it;
        }
    }
    return m_waiting.end();
}

void ThreadPool::loop() {
    for (;;) {
        std::function<void()> task;
        std::string lane;
        {
            std::unique_lock lock(m_mutex);
            auto next = m_waiting.end();
            m_wakeup.wait(lock, [&] {
                next = nextLane();
                return next != m_waiting.end() || (m_stopping && m_waiting.empty());
            });
            if (next == m_waiting.end()) {
                return; // stopping, and nothing left to do
            }
            lane = next->first;
            task = std::move(next->second.front());
            next->second.pop_front();
            if (next->second.empty()) {
                m_waiting.erase(next);
            }
            ++m_running[lane];
            m_lastLane = lane;
        }
        task();
        {
            std::lock_guard lock(m_mutex);
            if (--m_running[lane] == 0) {
                m_running.erase(lane);
            }
        }
        m_wakeup.notify_all(); // a lane at its limit may run again
    }
}

} // namespace proofdesk::core
