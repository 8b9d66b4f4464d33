#include "KeysPage.h"

#include "PageParts.h"
#include "PasteKeyDialog.h"
#include "SignInDialog.h"
#include "client/ProofClient.h"
#include "client/SecretStore.h"
#include "client/WalletSession.h"
#include "models/ApiKeyModel.h"

#include <QColorDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace proofdesk::ui {
namespace {

const QString kActiveKey = QStringLiteral("activeApiKey");

} // namespace

KeysPage::KeysPage(client::WalletSession* session, client::ProofClient* proofs,
                   client::SecretStore* secrets, QWidget* parent)
    : QWidget(parent), m_session(session), m_proofs(proofs), m_secrets(secrets),
      m_model(new models::ApiKeyModel(this)) {
    setObjectName(QStringLiteral("keysPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Wallet and API keys")));
    m_banner = errorBanner(QStringLiteral("keysErrorBannerLabel"), this);

    auto* account = new QGroupBox(tr("Wallet session"));
    auto* accountRow = new QHBoxLayout(account);
    m_account = new QLabel;
    m_account->setObjectName(QStringLiteral("accountLabel"));
    m_account->setWordWrap(true); // never widens the window
    m_account->setTextInteractionFlags(Qt::TextSelectableByMouse);
    accountRow->addWidget(m_account, 1);
    m_signIn = new QPushButton(tr("Sign in…"));
    m_signIn->setObjectName(QStringLiteral("signInPushButton"));
    m_signOut = new QPushButton(tr("Sign out"));
    m_signOut->setObjectName(QStringLiteral("signOutPushButton"));
    accountRow->addWidget(m_signIn);
    accountRow->addWidget(m_signOut);
    layout->addWidget(account);

    auto* keys = new QGroupBox(tr("API keys of the project"));
    auto* keysLayout = new QVBoxLayout(keys);
    m_table = recordTable(QStringLiteral("apiKeysTableView"), tr("API keys"), m_model,
                          models::ApiKeyModel::KeyColumn);
    showWhenEmpty(m_table, tr("Sign in with a wallet to see and mint your project's keys, or "
                              "paste a key you already have."));
    keysLayout->addWidget(m_table, 1);
    auto* keyActions = new QHBoxLayout;
    keyActions->addStretch(1);
    keyActions->addWidget(
        copyButton(QStringLiteral("copyApiKeyPushButton"), [this] { return selectedKey(); }));
    m_useKey = new QPushButton(tr("Use for the console"));
    m_useKey->setObjectName(QStringLiteral("useApiKeyPushButton"));
    keyActions->addWidget(m_useKey);
    auto* paste = new QPushButton(tr("Paste a key…"));
    paste->setObjectName(QStringLiteral("pasteApiKeyPushButton"));
    paste->setToolTip(tr("Use a key you already have, e.g. from proofdesk keys create"));
    keyActions->addWidget(paste);
    keysLayout->addLayout(keyActions);

    auto* mintForm = new QFormLayout;
    m_keyName = new QLineEdit;
    m_keyName->setObjectName(QStringLiteral("keyNameLineEdit"));
    m_keyName->setPlaceholderText(tr("e.g. CI runner"));
    mintForm->addRow(tr("Name"), m_keyName);
    auto* colorRow = new QHBoxLayout;
    m_keyColor = new QLineEdit(QStringLiteral("#2563eb"));
    m_keyColor->setObjectName(QStringLiteral("keyColorLineEdit"));
    auto* pick = new QPushButton(tr("Pick…"));
    pick->setObjectName(QStringLiteral("pickColorPushButton"));
    colorRow->addWidget(m_keyColor, 1);
    colorRow->addWidget(pick);
    mintForm->addRow(tr("Colour"), colorRow);
    m_mint = new QPushButton(tr("Mint key"));
    m_mint->setObjectName(QStringLiteral("mintKeyPushButton"));
    markPrimaryAction(m_mint);
    mintForm->addRow(QString(), m_mint);
    keysLayout->addLayout(mintForm);
    layout->addWidget(keys, 1);
    submitOnEnter(keys, m_mint);

    connect(m_signIn, &QPushButton::clicked, this, &KeysPage::openSignIn);
    connect(m_signOut, &QPushButton::clicked, m_session, &client::WalletSession::signOut);
    connect(m_mint, &QPushButton::clicked, this, &KeysPage::mint);
    connect(pick, &QPushButton::clicked, this, &KeysPage::pickColor);
    connect(m_useKey, &QPushButton::clicked, this, &KeysPage::useSelectedKey);
    connect(paste, &QPushButton::clicked, this, &KeysPage::pasteKey);
    connect(m_table, &QTableView::doubleClicked, this, &KeysPage::useSelectedKey);
    connect(m_session, &client::WalletSession::signedIn, this, [this] {
        m_adoptFirstKey = true;
        showSession();
        reloadKeys();
    });
    connect(m_session, &client::WalletSession::refreshed, this, &KeysPage::showSession);
    connect(m_session, &client::WalletSession::signedOut, this, [this] {
        m_model->update({});
        showSession();
    });
    connect(m_session, &client::WalletSession::failed, this,
            [this](const QString& message) { showBanner(m_banner, message); });
    connect(m_proofs, &client::ProofClient::apiKeyChanged, this,
            [this] { m_model->setActiveKey(m_proofs->apiKey()); });
    m_model->setActiveKey(m_proofs->apiKey());

    // The key chosen last time, if the keychain has one.
    m_secrets->read(kActiveKey, this, [this](client::SecretAnswer stored) {
        if (stored.status == client::SecretStatus::Ok && !stored.value.isEmpty()) {
            m_proofs->setApiKey(stored.value);
        }
    });
    addRowMenu(m_table,
               {{tr("Copy key"), findChild<QPushButton*>(QStringLiteral("copyApiKeyPushButton")),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)},
                {tr("Use for the console"), m_useKey, QKeySequence(Qt::Key_Return)}});
    showSession();
}

void KeysPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_session->isSignedIn()) {
        reloadKeys();
    }
}

void KeysPage::showSession() {
    const bool signedIn = m_session->isSignedIn();
    m_signOut->setEnabled(signedIn);
    m_mint->setEnabled(signedIn);
    m_signIn->setText(signedIn ? tr("Switch wallet…") : tr("Sign in…"));
    if (!signedIn) {
        m_account->setText(tr("Not signed in. The console uses the key shown in bold (and in the "
                              "status bar); sign in with a wallet to use and mint your project's "
                              "keys, or paste a key you have."));
        return;
    }
    m_account->setText(
        tr("<b>%1</b><br>project %2<br>session valid until %3 (renews itself)")
            .arg(m_session->address(), m_session->projectId(),
                 QLocale().toString(m_session->expiresAt().toLocalTime(), QLocale::ShortFormat)));
}

void KeysPage::openSignIn() {
    auto* dialog = new SignInDialog(m_session, m_secrets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SignInDialog::pasteKeyInstead, this, &KeysPage::pasteKey);
    dialog->open();
}

void KeysPage::pasteKey() {
    auto* dialog = new PasteKeyDialog(m_proofs, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PasteKeyDialog::keyAccepted, this,
            [this](const QString& apiKey, const QString& projectId) {
                useKey(apiKey);
                emit notice(
                    tr("The console now uses the pasted key, of project %1.").arg(projectId));
            });
    dialog->open();
}

void KeysPage::reloadKeys() {
    m_session->listKeys(this, [this](auto answer) {
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not list the keys: %1").arg(error->message()));
            return;
        }
        showBanner(m_banner, {});
        const auto& page = std::get<api::ApiKeyPage>(answer);
        m_model->update(page.data);
        if (m_adoptFirstKey && !page.data.empty()) {
            m_adoptFirstKey = false;
            const bool known = std::any_of(page.data.begin(), page.data.end(), [this](auto& key) {
                return QString::fromStdString(key.apiKey) == m_proofs->apiKey();
            });
            if (!known) {
                useKey(QString::fromStdString(page.data.front().apiKey));
                emit notice(tr("Signed in: the console now uses the first key of the wallet's "
                               "project %1. Jobs sent with the earlier key stay with its project; "
                               "switch back to it from the status bar.")
                                .arg(m_session->projectId()));
            }
        }
    });
}

void KeysPage::mint() {
    const QString name = m_keyName->text().trimmed();
    const QColor color(m_keyColor->text().trimmed());
    if (name.isEmpty() || !color.isValid()) {
        showBanner(m_banner, tr("A key needs a name and a colour (#rrggbb)."));
        return;
    }
    m_mint->setEnabled(false);
    m_session->mintKey(name, color.name(), this, [this](auto answer) {
        m_mint->setEnabled(m_session->isSignedIn());
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The key was not minted: %1").arg(error->message()));
            return;
        }
        m_keyName->clear();
        reloadKeys();
    });
}

void KeysPage::pickColor() {
    const QColor chosen = QColorDialog::getColor(QColor(m_keyColor->text()), this);
    if (chosen.isValid()) {
        m_keyColor->setText(chosen.name());
    }
}

QString KeysPage::selectedKey() const {
    const QModelIndex current = m_table->currentIndex();
    return current.isValid()
               ? m_model->index(current.row(), 0).data(models::ApiKeyModel::ApiKeyRole).toString()
               : QString();
}

void KeysPage::useSelectedKey() {
    const QString key = selectedKey();
    if (!key.isEmpty()) {
        useKey(key);
    }
}

void KeysPage::useKey(const QString& apiKey) {
    m_proofs->setApiKey(apiKey);
    m_secrets->write(kActiveKey, apiKey, this, [this](client::SecretAnswer saved) {
        if (saved.status == client::SecretStatus::Unavailable) {
            showBanner(m_banner, tr("The key is in use until Proofdesk quits, but not kept for the "
                                    "next start: %1")
                                     .arg(saved.error));
        }
    });
}

} // namespace proofdesk::ui
