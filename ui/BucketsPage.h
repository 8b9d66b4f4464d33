#pragma once

#include "BackoffPoll.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace proofdesk::client {
class ProofClient;
}
namespace proofdesk::models {
class BucketModel;
class ProofQueryModel;
} // namespace proofdesk::models

namespace proofdesk::ui {

class AggregationTreeView;

// Buckets: create one (every field of POST /buckets), the live list, and the selected bucket's
// member queries with its aggregation tree drawn; close an OPEN bucket. Polls only while shown,
// backing off after errors.
class BucketsPage : public QWidget {
    Q_OBJECT
public:
    BucketsPage(client::ProofClient* client, QWidget* parent = nullptr);

    void setPollInterval(int milliseconds) { m_poll.setInterval(milliseconds); }
    Q_INVOKABLE void refresh(); // F5

signals:
    // The user wants to submit jobs into this bucket (the proof jobs page takes the id).
    void submitIntoBucket(const QString& bucketId);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void create();
    void closeSelected();
    QString selectedBucketId() const;
    void refreshDetail();

    client::ProofClient* m_client;
    models::BucketModel* m_model;
    models::ProofQueryModel* m_members;
    QLabel* m_banner;
    QLineEdit* m_externalId;
    QSpinBox* m_nodeWidth;
    QLineEdit* m_aggregatorParams;
    QCheckBox* m_mockProof;
    QPushButton* m_create;
    QTableView* m_table;
    QPushButton* m_close;
    QPushButton* m_useBucket;
    QTableView* m_memberTable;
    AggregationTreeView* m_tree;
    BackoffPoll m_poll;
    bool m_inFlight = false;
};

} // namespace proofdesk::ui
