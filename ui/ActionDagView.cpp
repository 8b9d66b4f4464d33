#include "ActionDagView.h"

#include "models/StatusColors.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace proofdesk::ui {
namespace {

constexpr int kBoxWidth = 200;
constexpr int kBoxHeight = 44;
constexpr int kColumnGap = 56;
constexpr int kRowGap = 14;
constexpr int kMargin = 16;

} // namespace

ActionDagView::ActionDagView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("actionDagView"));
    setMinimumHeight(kBoxHeight + 2 * kMargin);
}

void ActionDagView::setActions(const std::vector<api::RequestAction>& actions) {
    m_nodes.clear();
    m_nodes.resize(actions.size());
    for (const api::RequestAction& action : actions) {
        if (action.index < 0 || std::size_t(action.index) >= actions.size()) {
            continue;
        }
        Node& node = m_nodes[std::size_t(action.index)];
        QString name = QString::fromStdString(action.method.value("name", std::string()));
        const nlohmann::json inputs = action.method.value("inputs", nlohmann::json::object());
        if (inputs.contains("hashing_function")) {
            name += QStringLiteral(" ") +
                    QString::fromStdString(inputs["hashing_function"].get<std::string>());
        } else if (inputs.contains("account")) {
            const QString account = QString::fromStdString(inputs["account"].get<std::string>());
            name += QStringLiteral(" ") + account.left(8) + QStringLiteral("…");
        }
        node.label = QStringLiteral("#%1 %2").arg(action.index).arg(name);
        node.status = QString::fromStdString(action.status);
        node.dependsOn = action.dependsOn;
    }
    // Columns by depth; dependencies always have lower indexes (the planner's order).
    std::vector<int> rowsUsed;
    for (Node& node : m_nodes) {
        for (int dependency : node.dependsOn) {
            if (dependency >= 0 && std::size_t(dependency) < m_nodes.size()) {
                node.column = std::max(node.column, m_nodes[std::size_t(dependency)].column + 1);
            }
        }
        if (rowsUsed.size() <= std::size_t(node.column)) {
            rowsUsed.resize(std::size_t(node.column) + 1, 0);
        }
        node.row = rowsUsed[std::size_t(node.column)]++;
    }
    m_columns = int(rowsUsed.size());
    m_rows = rowsUsed.empty() ? 0 : *std::max_element(rowsUsed.begin(), rowsUsed.end());
    setMinimumSize(sizeHint());
    updateGeometry();
    update();
}

std::vector<QString> ActionDagView::statuses() const {
    std::vector<QString> out;
    for (const Node& node : m_nodes) {
        out.push_back(node.status);
    }
    return out;
}

QSize ActionDagView::sizeHint() const {
    return {2 * kMargin + m_columns * kBoxWidth + std::max(0, m_columns - 1) * kColumnGap,
            2 * kMargin + m_rows * kBoxHeight + std::max(0, m_rows - 1) * kRowGap};
}

QRect ActionDagView::boxOf(const Node& node) const {
    // Each column is centred vertically.
    int inColumn = 0;
    for (const Node& other : m_nodes) {
        inColumn += other.column == node.column;
    }
    const int columnHeight = inColumn * kBoxHeight + (inColumn - 1) * kRowGap;
    const int top = (height() - columnHeight) / 2;
    return {kMargin + node.column * (kBoxWidth + kColumnGap),
            std::max(kMargin / 2, top) + node.row * (kBoxHeight + kRowGap), kBoxWidth, kBoxHeight};
}

void ActionDagView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (m_nodes.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Select a query to see its actions"));
        return;
    }
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.4));
    for (const Node& node : m_nodes) {
        const QRect to = boxOf(node);
        for (int dependency : node.dependsOn) {
            if (dependency < 0 || std::size_t(dependency) >= m_nodes.size()) {
                continue;
            }
            const QRect from = boxOf(m_nodes[std::size_t(dependency)]);
            const QPointF start(from.right(), from.center().y());
            const QPointF end(to.left(), to.center().y());
            QPainterPath path(start);
            const qreal bend = (end.x() - start.x()) / 2;
            path.cubicTo(start + QPointF(bend, 0), end - QPointF(bend, 0), end);
            painter.drawPath(path);
            painter.drawLine(end, end + QPointF(-6, -4));
            painter.drawLine(end, end + QPointF(-6, 4));
        }
    }
    for (const Node& node : m_nodes) {
        const QRect box = boxOf(node);
        const QColor colour = models::statusColor(node.status);
        QColor fill = colour;
        fill.setAlpha(40);
        painter.setPen(QPen(colour, 1.6));
        painter.setBrush(fill);
        painter.drawRoundedRect(box, 6, 6);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(box.adjusted(8, 4, -8, -kBoxHeight / 2), Qt::AlignLeft | Qt::AlignVCenter,
                         node.label);
        painter.setPen(colour);
        painter.drawText(box.adjusted(8, kBoxHeight / 2, -8, -4), Qt::AlignLeft | Qt::AlignVCenter,
                         node.status);
    }
}

} // namespace proofdesk::ui
