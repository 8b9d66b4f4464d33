#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace proofdesk::client {
class ProofClient;
}

namespace proofdesk::ui {

// Pasting an API key one already has (from `proofdesk keys create`, another machine or a web
// console): the key is asked about at the proof service (GET /credits) before the console uses
// it, so a mistyped key or one from another deployment is refused here with the service's reason.
class PasteKeyDialog : public QDialog {
    Q_OBJECT
public:
    PasteKeyDialog(client::ProofClient* proofs, QWidget* parent = nullptr);

signals:
    // The service knows the key: it belongs to `projectId`.
    void keyAccepted(const QString& apiKey, const QString& projectId);

private:
    void check();

    client::ProofClient* m_proofs;
    QLabel* m_banner;
    QLineEdit* m_key;
    QPushButton* m_use;
};

} // namespace proofdesk::ui
