#include "BackoffPoll.h"

#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace proofdesk::ui {

BackoffPoll::BackoffPoll(QWidget* page, std::function<void()> poll)
    : m_page(page), m_timer(new QTimer(page)) {
    m_timer->setSingleShot(true);
    QObject::connect(m_timer, &QTimer::timeout, page, std::move(poll));
}

void BackoffPoll::answered(bool failed) {
    m_failures = failed ? m_failures + 1 : 0;
    if (m_page->isVisible()) {
        m_timer->start(std::min(m_interval * (1 << std::min(m_failures, 5)), 30000));
    }
}

void BackoffPoll::stop() {
    m_timer->stop();
}

} // namespace proofdesk::ui
