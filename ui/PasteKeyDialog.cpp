#include "PasteKeyDialog.h"

#include "PageParts.h"
#include "client/ProofClient.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace proofdesk::ui {

PasteKeyDialog::PasteKeyDialog(client::ProofClient* proofs, QWidget* parent)
    : QDialog(parent), m_proofs(proofs) {
    setObjectName(QStringLiteral("pasteApiKeyDialog"));
    setWindowTitle(tr("Use an API key"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Paste an API key you already have, for example one printed by "
                                "<code>proofdesk keys create</code>. The proof service is asked "
                                "which project it belongs to before the console uses it."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    m_key = new QLineEdit;
    m_key->setObjectName(QStringLiteral("pastedApiKeyLineEdit"));
    m_key->setAccessibleName(tr("API key"));
    m_key->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    form->addRow(tr("API key"), m_key);
    layout->addLayout(form);
    m_banner = reservedBanner(QStringLiteral("pasteKeyErrorBannerLabel"));
    layout->addWidget(m_banner);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_use = buttons->addButton(tr("Use this key"), QDialogButtonBox::AcceptRole);
    m_use->setObjectName(QStringLiteral("usePastedKeyPushButton"));
    m_use->setDefault(true);
    layout->addWidget(buttons);
    // Nothing is connected to the box's accepted(): the button checks the key first, and the
    // dialog closes only once the service knows it.
    connect(m_use, &QPushButton::clicked, this, &PasteKeyDialog::check);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_key, &QLineEdit::textEdited, this, [this] { showBanner(m_banner, {}); });
    resize(520, 0);
}

void PasteKeyDialog::check() {
    const QString key = m_key->text().trimmed();
    if (key.isEmpty()) {
        showBanner(m_banner, tr("Paste the key first."), m_key);
        return;
    }
    m_use->setEnabled(false);
    m_proofs->credits(
        this,
        [this, key](client::Result<api::ProjectCredits> answer) {
            m_use->setEnabled(true);
            if (auto* error = std::get_if<client::ApiError>(&answer)) {
                showBanner(m_banner,
                           tr("The proof service at %1 does not take this key: %2")
                               .arg(m_proofs->baseUrl().toString(), error->message()),
                           m_key);
                return;
            }
            emit keyAccepted(
                key, QString::fromStdString(std::get<api::ProjectCredits>(answer).projectId));
            accept();
        },
        key);
}

} // namespace proofdesk::ui
