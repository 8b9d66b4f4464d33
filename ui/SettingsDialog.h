#pragma once

#include "ConsoleSettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace proofdesk::ui {

// Edits the console settings: profile (Local or Remote with its three URLs, or one URL for a
// server that runs all three as `proofdesk serve` does) and the polling interval, and the
// embedded server's chain RPC URLs. Shows the values in use; refuses invalid URLs and unknown
// chains.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const ConsoleSettings& current, QWidget* parent = nullptr);
    ConsoleSettings settings() const;

    void accept() override;

private:
    void profileChanged();
    bool oneUrl() const;

    QComboBox* m_profile;
    QCheckBox* m_oneServer;
    QLineEdit* m_requestUrl;
    QLineEdit* m_proofUrl;
    QLineEdit* m_authUrl;
    QSpinBox* m_poll;
    QPlainTextEdit* m_chainRpc;
    QLabel* m_banner;
};

} // namespace proofdesk::ui
