#pragma once

#include "api/RequestWire.h"

#include <QWidget>

#include <vector>

namespace proofdesk::ui {

// A query's actions as a picture: one box per action, in columns by depth (an action stands one
// column right of the deepest action it waits for), arrows from each dependency, boxes coloured
// by status.
class ActionDagView : public QWidget {
    Q_OBJECT
public:
    explicit ActionDagView(QWidget* parent = nullptr);

    void setActions(const std::vector<api::RequestAction>& actions);
    // Each action's status by index, as drawn (for tests).
    std::vector<QString> statuses() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Node {
        QString label;
        QString status;
        int column = 0;
        int row = 0;
        std::vector<int> dependsOn;
    };
    QRect boxOf(const Node& node) const;

    std::vector<Node> m_nodes;
    int m_columns = 0;
    int m_rows = 0;
};

} // namespace proofdesk::ui
