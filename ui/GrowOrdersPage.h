#pragma once

#include "BackoffPoll.h"
#include "api/RequestBodies.h"

#include <nlohmann/json.hpp>

#include "PageParts.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace proofdesk::client {
class RequestClient;
}
namespace proofdesk::models {
class GrowOrderModel;
}

namespace proofdesk::ui {

// Grow orders (docs/api.md): create one (every field of CreateGrowOrder), the live list with each
// order's progress from its start block through the next batch to its finish, the selected
// order's detail, and cancel (CANCEL_REQUESTED shows until the running batch settles). Polls
// only while shown.
class GrowOrdersPage : public QWidget {
    Q_OBJECT
public:
    GrowOrdersPage(client::RequestClient* client, QWidget* parent = nullptr);

    void setPollInterval(int milliseconds) { m_poll.setInterval(milliseconds); }
    // The CreateGrowOrder body the form describes; sets `error` when a number does not parse.
    api::GrowOrderCreation formOrder(FormError* error) const;
    Q_INVOKABLE void refresh(); // F5

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void create();
    void cancelSelected();
    QString selectedOrderId() const;
    void showDetail();

    client::RequestClient* m_client;
    models::GrowOrderModel* m_model;
    QLabel* m_banner;
    QComboBox* m_accumulated;
    QComboBox* m_settle;
    QCheckBox* m_keccak;
    QCheckBox* m_poseidon;
    QLineEdit* m_minBatch;
    QLineEdit* m_start;
    QLineEdit* m_finish;
    QPushButton* m_create;
    QTableView* m_table;
    QLabel* m_detail;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    BackoffPoll m_poll;
    bool m_inFlight = false;
};

} // namespace proofdesk::ui
