#include "SignInDialog.h"

#include "PageParts.h"
#include "client/SecretStore.h"
#include "client/Wallet.h"
#include "client/WalletSession.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace proofdesk::ui {

SignInDialog::SignInDialog(client::WalletSession* session, client::SecretStore* secrets,
                           QWidget* parent)
    : QDialog(parent), m_session(session) {
    setObjectName(QStringLiteral("signInDialog"));
    setWindowTitle(tr("Sign in with a wallet"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Sign the service's EIP-712 challenge with an Ethereum wallet. "
                                "Private keys are kept in the OS keychain, never in files."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_keychainNotice = new QLabel;
    m_keychainNotice->setObjectName(QStringLiteral("keychainNoticeLabel"));
    m_keychainNotice->setWordWrap(true);
    m_keychainNotice->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4d6; color: #5c4300; padding: 6px; border-radius: 4px; }"));
    m_keychainNotice->hide();
    layout->addWidget(m_keychainNotice);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("signInMethodTabWidget"));
    layout->addWidget(m_tabs, 1);

    m_tabs->addTab(buildNewWalletTab(), tr("New wallet"));
    m_tabs->addTab(buildImportTab(), tr("Import key"));
    m_tabs->addTab(buildExternalSignerTab(), tr("External signer"));

    m_banner = reservedBanner(QStringLiteral("signInErrorBannerLabel"));
    layout->addWidget(m_banner);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    QPushButton* paste =
        buttons->addButton(tr("Paste an API key instead…"), QDialogButtonBox::ActionRole);
    paste->setObjectName(QStringLiteral("pasteKeyInsteadPushButton"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(paste, &QPushButton::clicked, this, [this] {
        reject();
        emit pasteKeyInstead();
    });

    connect(m_createWallet, &QPushButton::clicked, this, &SignInDialog::createWallet);
    connect(m_signInNew, &QPushButton::clicked, this, &SignInDialog::signInWithNewWallet);
    connect(m_signInImport, &QPushButton::clicked, this, &SignInDialog::importKey);
    connect(m_getChallenge, &QPushButton::clicked, this, &SignInDialog::requestChallenge);
    connect(m_signInExternal, &QPushButton::clicked, this, &SignInDialog::submitSignature);
    connect(m_session, &client::WalletSession::challengeReady, this, &SignInDialog::showChallenge);
    connect(m_session, &client::WalletSession::failed, this, [this](const QString& message) {
        setBusy(false);
        showBanner(m_banner, message);
    });
    connect(m_session, &client::WalletSession::signedIn, this, [this] {
        setBusy(false);
        m_newKey->clear();
        m_newKeyHex.fill(QLatin1Char('0'));
        m_newKeyHex.clear();
        m_importKey->clear();
        accept();
    });
    resize(620, 460);

    // Said up front: without a keychain a wallet key made or imported here could not be kept.
    secrets->read(QStringLiteral("keychainCheck"), this, [this](client::SecretAnswer answer) {
        if (answer.status == client::SecretStatus::Unavailable) {
            withoutKeychain(answer.error);
        }
    });
}

// Creating a wallet here: its address, its key (hidden until shown) and signing in with it.
QWidget* SignInDialog::buildNewWalletTab() {
    auto* fresh = new QWidget;
    auto* freshForm = new QFormLayout(fresh);
    m_createWallet = new QPushButton(tr("Create a new wallet"));
    m_createWallet->setObjectName(QStringLiteral("createWalletPushButton"));
    freshForm->addRow(m_createWallet);
    m_newAddress = new QLabel(tr("(none yet)"));
    m_newAddress->setObjectName(QStringLiteral("newWalletAddressLabel"));
    m_newAddress->setTextInteractionFlags(Qt::TextSelectableByMouse);
    freshForm->addRow(tr("Address"), m_newAddress);
    m_newKey = new QLineEdit;
    m_newKey->setObjectName(QStringLiteral("newWalletKeyLineEdit"));
    m_newKey->setAccessibleName(tr("Private key of the new wallet"));
    m_newKey->setReadOnly(true);
    m_newKey->setEchoMode(QLineEdit::Password);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_newKey, 1);
    auto* reveal = new QPushButton(tr("Show"));
    reveal->setObjectName(QStringLiteral("revealKeyPushButton"));
    reveal->setCheckable(true);
    connect(reveal, &QPushButton::toggled, this, [this](bool shown) {
        m_newKey->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
    });
    keyRow->addWidget(reveal);
    freshForm->addRow(tr("Private key"), keyRow);
    auto* backup = new QLabel(tr("Write the private key down somewhere safe: it is the wallet."));
    backup->setWordWrap(true);
    freshForm->addRow(backup);
    m_signInNew = new QPushButton(tr("Sign in with this wallet"));
    m_signInNew->setObjectName(QStringLiteral("signInNewWalletPushButton"));
    m_signInNew->setEnabled(false);
    freshForm->addRow(m_signInNew);
    return fresh;
}

// Importing a private key.
QWidget* SignInDialog::buildImportTab() {
    auto* import = new QWidget;
    auto* importForm = new QFormLayout(import);
    m_importKey = new QLineEdit;
    m_importKey->setObjectName(QStringLiteral("importKeyLineEdit"));
    m_importKey->setEchoMode(QLineEdit::Password);
    m_importKey->setPlaceholderText(tr("0x followed by 64 hex digits"));
    importForm->addRow(tr("Private key"), m_importKey);
    m_signInImport = new QPushButton(tr("Import and sign in"));
    m_signInImport->setObjectName(QStringLiteral("importSignInPushButton"));
    importForm->addRow(m_signInImport);
    return import;
}

// An external signer: the challenge's typed data to sign elsewhere, and the signature back.
QWidget* SignInDialog::buildExternalSignerTab() {
    auto* external = new QWidget;
    auto* externalForm = new QFormLayout(external);
    auto* addressRow = new QHBoxLayout;
    m_externalAddress = new QLineEdit;
    m_externalAddress->setObjectName(QStringLiteral("externalAddressLineEdit"));
    m_externalAddress->setAccessibleName(tr("Address of the signing wallet"));
    m_externalAddress->setPlaceholderText(tr("0x… wallet address"));
    addressRow->addWidget(m_externalAddress, 1);
    m_getChallenge = new QPushButton(tr("Get challenge"));
    m_getChallenge->setObjectName(QStringLiteral("getChallengePushButton"));
    addressRow->addWidget(m_getChallenge);
    externalForm->addRow(tr("Address"), addressRow);
    m_typedData = new QPlainTextEdit;
    m_typedData->setObjectName(QStringLiteral("typedDataPlainTextEdit"));
    m_typedData->setAccessibleName(tr("EIP-712 typed data to sign"));
    m_typedData->setReadOnly(true);
    m_typedData->setPlaceholderText(
        tr("The EIP-712 typed data to sign (eth_signTypedData_v4) appears here."));
    auto* typedColumn = new QVBoxLayout;
    typedColumn->addWidget(m_typedData, 1);
    typedColumn->addWidget(copyButton(QStringLiteral("copyTypedDataPushButton"),
                                      [this] { return m_typedData->toPlainText(); }),
                           0, Qt::AlignRight);
    externalForm->addRow(tr("Typed data"), typedColumn);
    m_signature = new QLineEdit;
    m_signature->setObjectName(QStringLiteral("signatureLineEdit"));
    m_signature->setPlaceholderText(tr("0x… 65-byte signature"));
    externalForm->addRow(tr("Signature"), m_signature);
    m_signInExternal = new QPushButton(tr("Sign in"));
    m_signInExternal->setObjectName(QStringLiteral("externalSignInPushButton"));
    m_signInExternal->setEnabled(false);
    externalForm->addRow(m_signInExternal);
    return external;
}

void SignInDialog::withoutKeychain(const QString& reason) {
    m_keychainNotice->setText(
        tr("<b>No OS keychain.</b> %1<br>Creating or importing a wallet is off, because its "
           "key could not be kept. Sign in with an external signer (the session lasts until "
           "Proofdesk quits), or paste an API key you have.")
            .arg(reason.toHtmlEscaped()));
    m_keychainNotice->show();
    m_tabs->setTabEnabled(0, false);
    m_tabs->setTabEnabled(1, false);
    m_tabs->setCurrentIndex(2);
}

void SignInDialog::setBusy(bool busy) {
    for (QPushButton* button : {m_createWallet, m_signInImport, m_getChallenge}) {
        button->setEnabled(!busy);
    }
    m_signInNew->setEnabled(!busy && !m_newKeyHex.isEmpty());
    m_signInExternal->setEnabled(!busy && !m_typedData->toPlainText().isEmpty());
    if (busy) {
        showBanner(m_banner, {});
    }
}

void SignInDialog::createWallet() {
    const client::Wallet wallet = client::Wallet::generate();
    m_newKeyHex = wallet.privateKeyHex();
    m_newAddress->setText(wallet.address());
    m_newKey->setText(m_newKeyHex);
    m_signInNew->setEnabled(true);
}

void SignInDialog::signInWithNewWallet() {
    QString error;
    const auto wallet = client::Wallet::fromPrivateKeyHex(m_newKeyHex, &error);
    if (!wallet) {
        showBanner(m_banner, error);
        return;
    }
    setBusy(true);
    m_session->signIn(*wallet);
}

void SignInDialog::importKey() {
    QString error;
    const auto wallet = client::Wallet::fromPrivateKeyHex(m_importKey->text(), &error);
    if (!wallet) {
        showBanner(m_banner, error);
        return;
    }
    setBusy(true);
    m_session->signIn(*wallet);
}

void SignInDialog::requestChallenge() {
    if (m_externalAddress->text().trimmed().isEmpty()) {
        showBanner(m_banner, tr("Enter the address of the wallet that will sign."));
        return;
    }
    setBusy(true);
    m_session->requestChallenge(m_externalAddress->text());
}

void SignInDialog::showChallenge(const nlohmann::json& typedData) {
    m_typedData->setPlainText(QString::fromStdString(typedData.dump(2)));
    setBusy(false);
}

void SignInDialog::submitSignature() {
    if (m_signature->text().trimmed().isEmpty()) {
        showBanner(m_banner, tr("Paste the signature your wallet produced."));
        return;
    }
    setBusy(true);
    m_session->completeWithSignature(m_signature->text());
}

} // namespace proofdesk::ui
