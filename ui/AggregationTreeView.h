#pragma once

#include "api/ProofWire.h"

#include <QWidget>

#include <vector>

namespace proofdesk::ui {

// A bucket's aggregation tree as a picture: the members' fact hashes as leaves in job-index
// order, grouped nodeWidth at a time level by level up to the root (the aggregator's fact hash
// once it is built). Boxes are coloured by status: a leaf by its query, an inner node done when
// all its leaves are.
class AggregationTreeView : public QWidget {
    Q_OBJECT
public:
    explicit AggregationTreeView(QWidget* parent = nullptr);

    void setBucket(const api::ProofBucket& bucket, const std::vector<api::ProofQuery>& queries);
    // Levels from the leaves (index 0) to the root; each node's status, for tests and drawing.
    const std::vector<std::vector<QString>>& levelStatuses() const { return m_statuses; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::vector<QString>> m_labels;
    std::vector<std::vector<QString>> m_statuses;
    QString m_caption;
    int m_nodeWidth = 4;
};

} // namespace proofdesk::ui
