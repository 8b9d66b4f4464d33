#include "SettingsDialog.h"

#include "PageParts.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

namespace proofdesk::ui {

SettingsDialog::SettingsDialog(const ConsoleSettings& current, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    auto* layout = new QVBoxLayout(this);
    m_banner = errorBanner(QStringLiteral("settingsErrorBannerLabel"));
    layout->addWidget(m_banner);
    auto* form = new QFormLayout;
    m_profile = new QComboBox;
    m_profile->setObjectName(QStringLiteral("profileComboBox"));
    m_profile->addItem(tr("Local — embedded server on loopback"), QStringLiteral("Local"));
    m_profile->addItem(tr("Remote — a deployment"), QStringLiteral("Remote"));
    m_profile->setCurrentIndex(current.isRemote() ? 1 : 0);
    form->addRow(tr("Profile"), m_profile);
    const auto urlEdit = [](const QString& name, const QString& value, const QString& example) {
        auto* edit = new QLineEdit(value);
        edit->setObjectName(name);
        edit->setPlaceholderText(example);
        return edit;
    };
    m_requestUrl = urlEdit(QStringLiteral("requestUrlLineEdit"), current.requestUrl,
                           QStringLiteral("https://requests.example.org"));
    m_proofUrl = urlEdit(QStringLiteral("proofUrlLineEdit"), current.proofUrl,
                         QStringLiteral("https://proofs.example.org"));
    m_authUrl = urlEdit(QStringLiteral("authUrlLineEdit"), current.authUrl,
                        QStringLiteral("https://auth.example.org"));
    form->addRow(tr("Request service URL"), m_requestUrl);
    form->addRow(tr("Proof service URL"), m_proofUrl);
    form->addRow(tr("Sign-in service URL"), m_authUrl);
    m_poll = new QSpinBox;
    m_poll->setObjectName(QStringLiteral("pollIntervalSpinBox"));
    m_poll->setRange(250, 60000);
    m_poll->setSingleStep(250);
    m_poll->setSuffix(tr(" ms"));
    m_poll->setValue(current.pollIntervalMs);
    form->addRow(tr("Polling interval"), m_poll);
    layout->addLayout(form);
    auto* note = new QLabel(tr("The profile and URLs apply at the next start; the polling "
                               "interval at once. The theme follows the system."));
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &SettingsDialog::profileChanged);
    profileChanged();
    resize(560, 0);
}

void SettingsDialog::profileChanged() {
    const bool remote = m_profile->currentData().toString() == QLatin1String("Remote");
    for (QLineEdit* edit : {m_requestUrl, m_proofUrl, m_authUrl}) {
        edit->setEnabled(remote);
    }
}

ConsoleSettings SettingsDialog::settings() const {
    ConsoleSettings chosen;
    chosen.profile = m_profile->currentData().toString();
    chosen.requestUrl = m_requestUrl->text().trimmed();
    chosen.proofUrl = m_proofUrl->text().trimmed();
    chosen.authUrl = m_authUrl->text().trimmed();
    chosen.pollIntervalMs = m_poll->value();
    return chosen;
}

void SettingsDialog::accept() {
    const ConsoleSettings chosen = settings();
    if (chosen.isRemote()) {
        for (const QString& text : {chosen.requestUrl, chosen.proofUrl, chosen.authUrl}) {
            const QUrl url(text, QUrl::StrictMode);
            if (!url.isValid() || url.host().isEmpty() ||
                (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
                showBanner(m_banner, tr("\"%1\" is not an http(s) URL.").arg(text));
                return;
            }
        }
    }
    QDialog::accept();
}

} // namespace proofdesk::ui
