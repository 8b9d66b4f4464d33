#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace proofdesk::core {

// A fixed set of threads taking tasks from lanes (whose work it is: a project, a client). Lanes
// with waiting tasks are served in turn, in order within a lane, and with `perLaneLimit` a lane
// never runs more than that many tasks at once, so one lane's many long tasks leave threads for
// the others. stop() lets queued tasks finish.
class ThreadPool {
public:
    explicit ThreadPool(int threads, int perLaneLimit = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    void post(std::function<void()> task) { post({}, std::move(task)); }
    void post(const std::string& lane, std::function<void()> task);
    void stop();

private:
    void loop();
    // Under the mutex: the next lane in turn that has a task and room to run it, or end().
    std::map<std::string, std::deque<std::function<void()>>>::iterator nextLane();

    std::mutex m_mutex;
    std::condition_variable m_wakeup;
    std::map<std::string, std::deque<std::function<void()>>> m_waiting; // lanes with tasks
    std::map<std::string, int> m_running;
    std::string m_lastLane;
    int m_perLaneLimit;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace proofdesk::core
