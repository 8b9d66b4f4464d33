#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace proofdesk::client {
class ProofClient;
}
namespace proofdesk::models {
class ProofQueryModel;
}

namespace proofdesk::ui {

// The proof jobs page: a core-query form (program or PIE file, result, layout, mocked fact,
// dedup id), the live table of the project's queries and the selected query's record. It polls
// only while shown, backing off after errors, and shows errors in a banner, never a dialog.
class ProofJobsPage : public QWidget {
    Q_OBJECT
public:
    ProofJobsPage(client::ProofClient* client, QWidget* parent = nullptr);

    // Polling interval while the page is visible and the last poll succeeded.
    void setPollInterval(int milliseconds);
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void browseProgram();
    void submit();
    void showSelected();
    void showError(const QString& message);
    void clearError();

    client::ProofClient* m_client;
    models::ProofQueryModel* m_model;
    QLineEdit* m_programPath;
    QComboBox* m_result;
    QComboBox* m_layout;
    QCheckBox* m_mockFact;
    QLineEdit* m_dedupId;
    QPushButton* m_submit;
    QLineEdit* m_search;
    QTableView* m_table;
    QPlainTextEdit* m_detail;
    QLabel* m_banner;
    QTimer* m_poll;
    int m_interval = 1500;
    int m_failures = 0;
    bool m_inFlight = false;
};

} // namespace proofdesk::ui
