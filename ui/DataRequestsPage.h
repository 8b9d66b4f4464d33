#pragma once

#include "BackoffPoll.h"

#include <nlohmann/json.hpp>

#include <QWidget>

#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTableWidget;

namespace proofdesk::client {
class RequestClient;
}
namespace proofdesk::models {
class ProvenValueModel;
class RequestActionModel;
class RequestQueryModel;
} // namespace proofdesk::models

namespace proofdesk::ui {

class JsonView;

class ActionDagView;

// Data requests (docs/api.md): a form that builds a UserRequest (origin and destination chains, a
// selector, header fields, accounts with properties and slots, hashing functions, settings), the
// request JSON shown live and editable, submission, and the requests submitted here with their
// queries, each query's action DAG drawn by status, and the proven values with copy buttons.
// Polls only while shown.
class DataRequestsPage : public QWidget {
    Q_OBJECT
public:
    DataRequestsPage(client::RequestClient* client, QWidget* parent = nullptr);

    void setPollInterval(int milliseconds) { m_poll.setInterval(milliseconds); }
    // The UserRequest the form describes.
    nlohmann::json formRequest() const;
    // Lists a request id (submitted elsewhere, or earlier) and selects it.
    void openRequest(const QString& requestId);
    Q_INVOKABLE void refresh(); // F5

signals:
    // A query of a request submitted here reached COMPLETED or FAILED; `reason` is its first
    // failed action's error (empty when it completed, or when the actions could not be read).
    void queryFinished(const QString& queryId, const QString& status, const QString& reason);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void rebuildJson();
    // Fills the form with a ready request (header fields of a Sepolia block, Keccak).
    void trySample();
    void submit();
    QString selectedRequestId() const;
    QString selectedQueryId() const;
    void refreshQuery();
    // Emits queryFinished, with the failed action's reason when the query FAILED.
    void announceFinished(const QString& queryId, const QString& status);
    QWidget* buildForm();
    QWidget* buildJsonPane();
    QWidget* buildResults();
    void addAccountRow();

    client::RequestClient* m_client;
    models::RequestQueryModel* m_queries;
    models::RequestActionModel* m_actions;
    models::ProvenValueModel* m_values;
    QLabel* m_banner;
    JsonView* m_actionRecord;
    QComboBox* m_origin;
    QComboBox* m_destination;
    QComboBox* m_selectorKind;
    QLineEdit* m_selectorValue;
    QListWidget* m_headerFields;
    QTableWidget* m_accounts;
    QCheckBox* m_keccak;
    QCheckBox* m_poseidon;
    QGroupBox* m_settings;
    QDoubleSpinBox* m_maxCost;
    QDoubleSpinBox* m_maxTime;
    QComboBox* m_optimize;
    QPlainTextEdit* m_json;
    QLabel* m_jsonState;
    QPushButton* m_submit;
    QListWidget* m_requests;
    QLineEdit* m_openId;
    QTableView* m_queryTable;
    ActionDagView* m_dag;
    QTableView* m_actionTable;
    QTableView* m_valueTable;
    BackoffPoll m_poll;
    bool m_writingJson = false;
    bool m_jsonEdited = false;
    bool m_inFlight = false;
    std::map<QString, QString> m_finished; // query id -> status already announced
};

} // namespace proofdesk::ui
