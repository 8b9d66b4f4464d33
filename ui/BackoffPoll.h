#pragma once

#include <functional>

class QTimer;
class QWidget;

namespace proofdesk::ui {

// The polling rhythm of a live page: after each answer the next poll is due one interval later,
// doubled per consecutive failure (at most 32 times, never beyond 30 s), and only while the page
// is visible; the page calls answered() from its callback and stop() when hidden.
class BackoffPoll {
public:
    BackoffPoll(QWidget* page, std::function<void()> poll);

    void setInterval(int milliseconds) { m_interval = milliseconds; }
    void answered(bool failed);
    void stop();

private:
    QWidget* m_page;
    QTimer* m_timer;
    int m_interval = 1500;
    int m_failures = 0;
};

} // namespace proofdesk::ui
