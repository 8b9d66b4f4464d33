#pragma once

#include <nlohmann/json.hpp>

#include <QGroupBox>

class QLabel;
class QLineEdit;
class QPushButton;

namespace proofdesk::client {
class ProofFileVerifier;
}

namespace proofdesk::ui {

// "Verify a proof": a Stone proof file (chosen, typed or dropped on the panel) checked on this
// machine by Proofdesk's own verifier, off the GUI thread. Shows the verdict and the first failed
// check, the statement's program hash, output and facts with copy buttons, and the security.
class VerifyProofPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit VerifyProofPanel(QWidget* parent = nullptr);

    // Verifies the file now (what the Verify button and a drop do).
    void verifyFile(const QString& path);

signals:
    void verified(bool valid);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void showVerdict(const nlohmann::json& verdict);

    client::ProofFileVerifier* m_verifier;
    QLineEdit* m_path;
    QPushButton* m_verify;
    QLabel* m_verdict;
    QLineEdit* m_layout;
    QLineEdit* m_security;
    QLineEdit* m_programHash;
    QLineEdit* m_output;
    QLineEdit* m_sharpFact;
    QLineEdit* m_integrityFact;
};

} // namespace proofdesk::ui
