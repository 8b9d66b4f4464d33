#include "AggregationTreeView.h"

#include "models/StatusColors.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace proofdesk::ui {
namespace {

constexpr int kBoxWidth = 150;
constexpr int kBoxHeight = 40;
constexpr int kGap = 12;
constexpr int kLevelGap = 46;
constexpr int kMargin = 16;

QString shortHash(const std::optional<std::string>& hash) {
    if (!hash || hash->size() < 14) {
        return QStringLiteral("—");
    }
    const QString text = QString::fromStdString(*hash);
    return text.left(8) + QStringLiteral("…") + text.right(4);
}

} // namespace

AggregationTreeView::AggregationTreeView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("aggregationTreeView"));
    setMinimumHeight(kBoxHeight + 2 * kMargin);
}

void AggregationTreeView::setBucket(const api::ProofBucket& bucket,
                                    const std::vector<api::ProofQuery>& queries) {
    std::vector<const api::ProofQuery*> members;
    const api::ProofQuery* aggregator = nullptr;
    for (const api::ProofQuery& query : queries) {
        if (query.bucketJobIndex && *query.bucketJobIndex < 0) {
            aggregator = &query;
        } else {
            members.push_back(&query);
        }
    }
    std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) {
        return a->bucketJobIndex.value_or(0) < b->bucketJobIndex.value_or(0);
    });
    m_labels.clear();
    m_statuses.clear();
    std::vector<QString> labels, statuses;
    for (const api::ProofQuery* member : members) {
        labels.push_back(QStringLiteral("#%1 %2")
                             .arg(member->bucketJobIndex.value_or(0))
                             .arg(shortHash(member->sharpFactHash)));
        statuses.push_back(QString::fromStdString(member->status));
    }
    m_nodeWidth = std::max(2, bucket.nodeWidth);
    const int width = m_nodeWidth;
    while (!labels.empty()) {
        m_labels.push_back(labels);
        m_statuses.push_back(statuses);
        if (labels.size() == 1 && m_labels.size() > 1) {
            break;
        }
        std::vector<QString> upLabels, upStatuses;
        for (std::size_t first = 0; first < statuses.size(); first += width) {
            const std::size_t last = std::min(statuses.size(), first + width);
            const bool done =
                std::all_of(statuses.begin() + first, statuses.begin() + last,
                            [](const QString& s) { return s == QLatin1String("DONE"); });
            const bool failed =
                std::any_of(statuses.begin() + first, statuses.begin() + last,
                            [](const QString& s) { return s == QLatin1String("FAILED"); });
            upStatuses.push_back(done     ? QStringLiteral("DONE")
                                 : failed ? QStringLiteral("FAILED")
                                          : QStringLiteral("PENDING"));
            upLabels.push_back(tr("node"));
        }
        labels = std::move(upLabels);
        statuses = std::move(upStatuses);
    }
    if (!m_labels.empty()) {
        // The root: the aggregator's record once the bucket is closed.
        auto& root = m_labels.back();
        if (root.size() == 1) {
            root.front() = aggregator ? tr("root %1").arg(shortHash(aggregator->sharpFactHash))
                                      : tr("root (open)");
            if (aggregator) {
                m_statuses.back().front() = QString::fromStdString(aggregator->status);
            }
        }
    }
    m_caption =
        members.empty()
            ? tr("No member queries yet: submit jobs with this bucket id.")
            : tr("%n leaves, node width %1", nullptr, static_cast<int>(members.size())).arg(width);
    updateGeometry();
    update();
}

QSize AggregationTreeView::sizeHint() const {
    const std::size_t widest = m_labels.empty() ? 1 : m_labels.front().size();
    const int levels = std::max<int>(1, static_cast<int>(m_labels.size()));
    return {2 * kMargin + static_cast<int>(widest) * (kBoxWidth + kGap),
            2 * kMargin + 20 + levels * kBoxHeight + (levels - 1) * kLevelGap};
}

void AggregationTreeView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(kMargin, 4, width() - 2 * kMargin, 18), Qt::AlignLeft, m_caption);
    if (m_labels.empty()) {
        return;
    }
    const int levels = static_cast<int>(m_labels.size());
    const int top = kMargin + 20;
    // Centres per level; the root is drawn on top.
    std::vector<std::vector<QPointF>> centres(m_labels.size());
    for (int level = 0; level < levels; ++level) {
        const auto& row = m_labels[static_cast<std::size_t>(level)];
        const double rowWidth = static_cast<double>(row.size()) * (kBoxWidth + kGap) - kGap;
        const double left = std::max<double>(kMargin, (width() - rowWidth) / 2.0);
        const double y = top + (levels - 1 - level) * (kBoxHeight + kLevelGap) + kBoxHeight / 2.0;
        for (std::size_t i = 0; i < row.size(); ++i) {
            centres[static_cast<std::size_t>(level)].push_back(
                QPointF(left + static_cast<double>(i) * (kBoxWidth + kGap) + kBoxWidth / 2.0, y));
        }
    }
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.5));
    const auto width = static_cast<std::size_t>(m_nodeWidth);
    for (int level = 0; level + 1 < levels; ++level) {
        const auto& below = centres[static_cast<std::size_t>(level)];
        const auto& above = centres[static_cast<std::size_t>(level + 1)];
        for (std::size_t i = 0; i < below.size(); ++i) {
            const QPointF& parent = above[std::min(above.size() - 1, i / width)];
            painter.drawLine(below[i] - QPointF(0, kBoxHeight / 2.0),
                             parent + QPointF(0, kBoxHeight / 2.0));
        }
    }
    for (int level = 0; level < levels; ++level) {
        for (std::size_t i = 0; i < centres[static_cast<std::size_t>(level)].size(); ++i) {
            const QPointF centre = centres[static_cast<std::size_t>(level)][i];
            const QRectF box(centre.x() - kBoxWidth / 2.0, centre.y() - kBoxHeight / 2.0, kBoxWidth,
                             kBoxHeight);
            const QColor color =
                models::statusColor(m_statuses[static_cast<std::size_t>(level)][i]);
            QPainterPath path;
            path.addRoundedRect(box, 6, 6);
            painter.fillPath(path, QColor(color.red(), color.green(), color.blue(), 48));
            painter.setPen(QPen(color, 1.5));
            painter.drawPath(path);
            painter.setPen(palette().color(QPalette::WindowText));
            painter.drawText(box, Qt::AlignCenter,
                             m_labels[static_cast<std::size_t>(level)][i] + QLatin1Char('\n') +
                                 m_statuses[static_cast<std::size_t>(level)][i]);
        }
    }
}

} // namespace proofdesk::ui
