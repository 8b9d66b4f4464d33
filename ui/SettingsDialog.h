#pragma once

#include "ConsoleSettings.h"

#include <QDialog>
#include <QList>

#include <utility>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace proofdesk::ui {

// Edits the console settings: profile (Local or Remote with its three URLs, or one URL for a
// server that runs all three as `proofdesk serve` does) and the polling interval, and the
// embedded server's chain RPC URLs and prover. Shows the values in use; refuses invalid URLs,
// unknown chains, and (on the Local profile) a Stone engine without its binary, paths that are
// not executables or readable files.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const ConsoleSettings& current, QWidget* parent = nullptr);
    ConsoleSettings settings() const;

    void accept() override;

private:
    void addProverFields(QFormLayout* form, const ProverChoice& current);
    void profileChanged();
    bool oneUrl() const;
    // The reason the prover settings cannot be used, and the field to fix; empty when they can.
    std::pair<QString, QWidget*> proverProblem(const ProverChoice& prover) const;

    QComboBox* m_profile;
    QCheckBox* m_oneServer;
    QLineEdit* m_requestUrl;
    QLineEdit* m_proofUrl;
    QLineEdit* m_authUrl;
    QSpinBox* m_poll;
    QPlainTextEdit* m_chainRpc;
    QComboBox* m_engine;
    QComboBox* m_verifier;
    QLineEdit* m_stoneProver;
    QLineEdit* m_stoneVerifier;
    QLineEdit* m_bootloader;
    QList<QWidget*> m_proverFields; // enabled on the Local profile only
    QLabel* m_banner;
};

} // namespace proofdesk::ui
