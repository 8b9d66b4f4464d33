#include "IdentityIndicator.h"

#include "client/ProofClient.h"
#include "client/WalletSession.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

#include <algorithm>

namespace proofdesk::ui {
namespace {

// Project ids are ULIDs, whose start is their creation time: the end tells them apart.
QString shortProject(const QString& projectId) {
    return projectId.size() > 10 ? QStringLiteral("…") + projectId.right(6) : projectId;
}

// Enough of a key to tell keys apart, not enough to use one.
QString keyTail(const QString& apiKey) {
    return QStringLiteral("…") + apiKey.right(4);
}

QString shortAddress(const QString& address) {
    return address.size() > 12 ? address.left(6) + QStringLiteral("…") + address.right(4) : address;
}

constexpr std::size_t kKeysRemembered = 8;

} // namespace

IdentityIndicator::IdentityIndicator(const QString& profile, client::ProofClient* proofs,
                                     client::WalletSession* session, QWidget* parent)
    : QWidget(parent), m_profile(profile), m_proofs(proofs), m_session(session) {
    setObjectName(QStringLiteral("identityIndicator"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel;
    m_label->setObjectName(QStringLiteral("identityLabel"));
    m_label->setAccessibleName(tr("Identity in use"));
    layout->addWidget(m_label);
    m_switch = new QToolButton;
    m_switch->setObjectName(QStringLiteral("identityToolButton"));
    m_switch->setText(tr("Switch"));
    m_switch->setAccessibleName(tr("Switch API key or wallet"));
    m_switch->setToolTip(tr("Use another API key, paste one, or sign in with a wallet"));
    m_switch->setPopupMode(QToolButton::InstantPopup);
    m_switch->setAutoRaise(true);
    m_menu = new QMenu(m_switch);
    m_menu->setObjectName(QStringLiteral("identityMenu"));
    m_switch->setMenu(m_menu);
    layout->addWidget(m_switch);

    connect(m_proofs, &client::ProofClient::apiKeyChanged, this, &IdentityIndicator::keyChanged);
    if (m_session) {
        connect(m_session, &client::WalletSession::signedIn, this,
                &IdentityIndicator::showIdentity);
        connect(m_session, &client::WalletSession::signedOut, this,
                &IdentityIndicator::showIdentity);
    }
    keyChanged();
}

QString IdentityIndicator::summary() const {
    QStringList parts{m_profile};
    const QString key = m_proofs->apiKey();
    if (key.isEmpty()) {
        parts << tr("no API key");
    } else {
        parts << (m_asking                ? tr("project (asking…)")
                  : m_projectId.isEmpty() ? tr("project unknown")
                                          : tr("project %1").arg(shortProject(m_projectId)))
              << tr("key %1").arg(keyTail(key));
    }
    if (m_session && m_session->isSignedIn()) {
        parts << tr("wallet %1").arg(shortAddress(m_session->address()));
    }
    return parts.join(QStringLiteral(" · "));
}

void IdentityIndicator::keyChanged() {
    m_projectId.clear();
    const QString key = m_proofs->apiKey();
    m_asking = !key.isEmpty();
    showIdentity();
    if (key.isEmpty()) {
        return;
    }
    m_proofs->credits(this, [this, key](client::Result<api::ProjectCredits> answer) {
        if (key != m_proofs->apiKey()) {
            return; // a later key's answer follows
        }
        m_asking = false;
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            m_label->setToolTip(
                tr("The proof service did not say whose key this is: %1").arg(error->message()));
            m_projectId.clear();
            showIdentity();
            return;
        }
        m_projectId = QString::fromStdString(std::get<api::ProjectCredits>(answer).projectId);
        std::erase_if(m_used, [&key](const UsedKey& used) { return used.apiKey == key; });
        m_used.insert(m_used.begin(), {key, m_projectId});
        if (m_used.size() > kKeysRemembered) {
            m_used.resize(kKeysRemembered);
        }
        showIdentity();
    });
}

void IdentityIndicator::showIdentity() {
    m_label->setText(summary());
    QStringList tip;
    if (!m_projectId.isEmpty()) {
        tip << tr("Project: %1").arg(m_projectId);
    }
    if (m_session && m_session->isSignedIn()) {
        tip << tr("Wallet: %1 (project %2)").arg(m_session->address(), m_session->projectId());
    }
    if (!tip.isEmpty()) {
        m_label->setToolTip(tip.join(QLatin1Char('\n')));
    }
    rebuildMenu();
}

void IdentityIndicator::rebuildMenu() {
    m_menu->clear();
    for (const UsedKey& used : m_used) {
        QAction* use = m_menu->addAction(
            tr("Key %1 of project %2").arg(keyTail(used.apiKey), shortProject(used.projectId)));
        use->setObjectName(QStringLiteral("useRecentKeyAction"));
        use->setCheckable(true);
        use->setChecked(used.apiKey == m_proofs->apiKey());
        connect(use, &QAction::triggered, this,
                [this, key = used.apiKey] { emit useKeyRequested(key); });
    }
    if (!m_used.empty()) {
        m_menu->addSeparator();
    }
    const auto add = [this](const QString& text, const char* name,
                            void (IdentityIndicator::*sig)()) {
        QAction* action = m_menu->addAction(text);
        action->setObjectName(QLatin1String(name));
        connect(action, &QAction::triggered, this, sig);
    };
    add(tr("Paste an API key…"), "pasteApiKeyAction", &IdentityIndicator::pasteKeyRequested);
    add(tr("Sign in with a wallet…"), "walletSignInAction", &IdentityIndicator::signInRequested);
    add(tr("Wallet and API keys"), "manageKeysAction", &IdentityIndicator::manageKeysRequested);
}

} // namespace proofdesk::ui
