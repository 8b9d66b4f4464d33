#pragma once

#include "ConsoleSettings.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace proofdesk::ui {

// Edits the console settings: profile (Local or Remote with its three URLs) and the polling
// interval, and the embedded server's chain RPC URLs. Refuses invalid URLs and unknown chains.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const ConsoleSettings& current, QWidget* parent = nullptr);
    ConsoleSettings settings() const;

    void accept() override;

private:
    void profileChanged();

    QComboBox* m_profile;
    QLineEdit* m_requestUrl;
    QLineEdit* m_proofUrl;
    QLineEdit* m_authUrl;
    QSpinBox* m_poll;
    QPlainTextEdit* m_chainRpc;
    QLabel* m_banner;
};

} // namespace proofdesk::ui
