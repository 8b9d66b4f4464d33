#pragma once

// The console as the app assembles it, against an in-process server: the clients, an in-memory
// keychain (the test seam) and the request log. window() builds the real main window.
#include "TestServer.h"

#include "client/AuthClient.h"
#include "client/ProofClient.h"
#include "client/RequestClient.h"
#include "client/SecretStore.h"
#include "client/WalletSession.h"
#include "models/RequestLogModel.h"
#include "ui/MainWindow.h"

#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QTest>

#include <memory>

namespace proofdesk::test {

// The named child widget; a test that names a widget the window lacks stops at once.
template <class T> T* child(QWidget* root, const char* name) {
    T* found = root->findChild<T*>(QLatin1String(name));
    if (!found) {
        qFatal("no widget named %s", name);
    }
    return found;
}

// Settings the console saves go to a store of the suite's own, emptied (call in initTestCase).
inline void useOwnSettings(const QString& suite) {
    QCoreApplication::setOrganizationName(QStringLiteral("ProofdeskTest"));
    QCoreApplication::setApplicationName(suite);
    QSettings().clear();
}

inline void click(QWidget* root, const char* name) {
    QTest::mouseClick(child<QPushButton>(root, name), Qt::LeftButton);
}

// Presses `button` ("confirmPushButton" or "cancelPushButton") of the confirmation box named
// `box` once it is shown (PageParts' confirmThen).
inline void answerConfirmation(QWidget* root, const char* box, const char* button) {
    QWidget* shown = nullptr;
    QTRY_VERIFY((shown = root->findChild<QWidget*>(QLatin1String(box))) && shown->isVisible());
    click(shown, button);
}

// The harness's in-process server, shown as the Local profile's embedded server (the app's
// EmbeddedServer plays this part in `proofdesk`).
class HarnessServerControl : public ui::LocalServerControl {
public:
    explicit HarnessServerControl(TestServer& server)
        : m_server(server),
          m_adminKey(server.mintKey(QStringLiteral("Console"), auth::KeyRole::Admin)) {}
    bool isRunning() const override { return true; }
    bool start(QString*) override { return true; }
    void stop() override {}
    ui::ServerEndpoints endpoints() const override {
        return {m_server.url(), m_server.url(), m_server.url(), m_server.dataDir()};
    }
    QString proverSummary() const override {
        return QStringLiteral("mock (proofs are mocked: isProofMocked=true, facts in the mocked "
                              "namespace)");
    }
    void setChainRpcUrls(const std::map<QString, QString>& urls) override {
        m_server.server().requests().setChainRpcUrls(urls);
    }
    // Records the choice (the test server keeps proving as it was built to).
    bool setProvers(const ui::ProverChoice& provers, QString*) override {
        proversSet.push_back(provers);
        emit runningChanged(true);
        return true;
    }
    QString adminKey() const override { return m_adminKey; }
    std::vector<ui::ProverChoice> proversSet;

private:
    TestServer& m_server;
    QString m_adminKey;
};

class ConsoleHarness {
public:
    explicit ConsoleHarness(const QString& apiKey = {}, server::ServerOptions options = {})
        : server(std::move(options)), proofs(&network, QUrl(server.url()), apiKey),
          requests(&network, QUrl(server.url()), [this] { return proofs.apiKey(); }),
          auth(&network, QUrl(server.url())), session(&auth, &secrets) {}

    ui::ConsoleParts parts() {
        ui::ConsoleParts parts;
        parts.proofs = &proofs;
        parts.requests = &requests;
        parts.session = &session;
        parts.secrets = &secrets;
        parts.requestLog = &requestLog;
        parts.endpoints = {server.url(), server.url(), server.url(), server.dataDir()};
        parts.settings.pollIntervalMs = 250;
        return parts;
    }
    // The Local profile's parts, `control` standing for its embedded server.
    ui::ConsoleParts localParts(HarnessServerControl& control) {
        ui::ConsoleParts local = parts();
        local.server = &control;
        return local;
    }

    TestServer server;
    QNetworkAccessManager network;
    client::ProofClient proofs;
    client::RequestClient requests;
    client::AuthClient auth;
    client::MemorySecretStore secrets;
    client::WalletSession session;
    models::RequestLogModel requestLog;
};

} // namespace proofdesk::test
