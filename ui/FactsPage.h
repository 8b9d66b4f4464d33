#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace proofdesk::client {
class ProofClient;
}

namespace proofdesk::ui {

// Programs, facts and proofs: register a compiled program to get its hash (and reuse it in a job),
// look a fact hash up in a chain's registry, mocked and real namespaces apart, and verify a proof
// file (VerifyProofPanel).
class FactsPage : public QWidget {
    Q_OBJECT
public:
    explicit FactsPage(client::ProofClient* client, QWidget* parent = nullptr);

signals:
    // "Use in a job": the proof jobs page takes the hash.
    void useProgramHash(const QString& programHash);

private:
    void registerProgram();
    void lookUp();

    client::ProofClient* m_client;
    QLineEdit* m_programPath;
    QPushButton* m_register;
    QLineEdit* m_programHash;
    QComboBox* m_chain;
    QLineEdit* m_factHash;
    QCheckBox* m_mocked;
    QPushButton* m_lookUp;
    QLabel* m_factResult;
    QLabel* m_banner;
};

} // namespace proofdesk::ui
