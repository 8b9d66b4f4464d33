// The console's wallet sign-in against the real sign-in service: new and imported wallets, the
// external-signer path, keys listing and minting, refresh before expiry, restore after a restart,
// sign-out, and a missing keychain.
#include "TestServer.h"
#include "TestWallet.h"

#include "client/AuthClient.h"
#include "client/ProofClient.h"
#include "client/RequestClient.h"
#include "client/SecretStore.h"
#include "client/Wallet.h"
#include "client/WalletSession.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace proofdesk;

namespace {

struct Harness {
    test::TestServer server;
    QNetworkAccessManager network;
    client::AuthClient auth{&network, QUrl(server.url())};
    client::MemorySecretStore secrets;
};

QString storedRefreshToken(const client::MemorySecretStore& secrets) {
    const nlohmann::json stored = nlohmann::json::parse(
        secrets.entries().value(QStringLiteral("session")).toStdString(), nullptr, false);
    return stored.is_object() ? QString::fromStdString(stored.value("refreshToken", ""))
                              : QString();
}

} // namespace

class WalletSessionTest : public QObject {
    Q_OBJECT
private slots:
    void newWalletSignsInAndKeepsItsKeyInTheKeychain() {
        Harness h;
        client::WalletSession session(&h.auth, &h.secrets);
        QSignalSpy signedIn(&session, &client::WalletSession::signedIn);
        const client::Wallet wallet = client::Wallet::generate();
        session.signIn(wallet);
        QVERIFY(signedIn.wait(10000));
        QVERIFY(session.isSignedIn());
        QCOMPARE(session.address(), wallet.address());
        QVERIFY(!session.projectId().isEmpty());
        QVERIFY(session.expiresAt() > QDateTime::currentDateTimeUtc().addSecs(10 * 60));
        QCOMPARE(h.secrets.entries().value(QStringLiteral("wallet/") + wallet.address()),
                 wallet.privateKeyHex());
        QVERIFY(!storedRefreshToken(h.secrets).isEmpty());

        // A first-time wallet has one active key; minting adds a second with its name and colour.
        client::Result<api::ApiKeyPage> page = client::ApiError{};
        session.listKeys(this, [&page](auto answer) { page = answer; });
        QTRY_VERIFY_WITH_TIMEOUT(std::holds_alternative<api::ApiKeyPage>(page), 10000);
        QCOMPARE(std::get<api::ApiKeyPage>(page).data.size(), std::size_t{1});
        client::Result<api::ApiKeyRecord> minted = client::ApiError{};
        session.mintKey(QStringLiteral("CI runner"), QStringLiteral("#ff8800"), this,
                        [&minted](auto answer) { minted = answer; });
        QTRY_VERIFY_WITH_TIMEOUT(std::holds_alternative<api::ApiKeyRecord>(minted), 10000);
        QCOMPARE(std::get<api::ApiKeyRecord>(minted).name, std::string("CI runner"));
        QCOMPARE(std::get<api::ApiKeyRecord>(minted).color, std::string("#ff8800"));
        page = client::ApiError{};
        session.listKeys(this, [&page](auto answer) { page = answer; });
        QTRY_VERIFY_WITH_TIMEOUT(std::holds_alternative<api::ApiKeyPage>(page), 10000);
        QCOMPARE(std::get<api::ApiKeyPage>(page).data.size(), std::size_t{2});
    }

    void sessionRefreshesItselfBeforeExpiryAndSurvivesARestart() {
        Harness h;
        QString firstToken;
        {
            client::WalletSession session(&h.auth, &h.secrets);
            // Refresh due one second from now: the margin is the whole 15-minute life but one s.
            session.setRefreshMargin(15 * 60 - 1);
            QSignalSpy signedIn(&session, &client::WalletSession::signedIn);
            session.signIn(client::Wallet::generate());
            QVERIFY(signedIn.wait(10000));
            firstToken = storedRefreshToken(h.secrets);
            QSignalSpy refreshed(&session, &client::WalletSession::refreshed);
            QVERIFY(refreshed.wait(10000));
            QTRY_VERIFY(storedRefreshToken(h.secrets) != firstToken); // rotated and saved
        }
        // A restart: a new session object resumes from the keychain alone.
        client::WalletSession restarted(&h.auth, &h.secrets);
        QSignalSpy finished(&restarted, &client::WalletSession::restoreFinished);
        restarted.restore();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(restarted.isSignedIn());
        QVERIFY(!restarted.projectId().isEmpty());

        // The first refresh token was rotated away: presenting it now is refused and revokes.
        client::Result<api::SessionTokens> reused = client::ApiError{};
        h.auth.refresh(firstToken, this, [&reused](auto answer) { reused = answer; });
        QTRY_VERIFY_WITH_TIMEOUT(std::get_if<client::ApiError>(&reused) &&
                                     std::get<client::ApiError>(reused).status == 401,
                                 10000);
    }

    void signOutForgetsTheStoredSession() {
        Harness h;
        client::WalletSession session(&h.auth, &h.secrets);
        QSignalSpy signedIn(&session, &client::WalletSession::signedIn);
        session.signIn(client::Wallet::generate());
        QVERIFY(signedIn.wait(10000));
        QSignalSpy signedOut(&session, &client::WalletSession::signedOut);
        session.signOut();
        QCOMPARE(signedOut.count(), 1);
        QVERIFY(!session.isSignedIn());
        QTRY_VERIFY(!h.secrets.entries().contains(QStringLiteral("session")));
        client::WalletSession again(&h.auth, &h.secrets);
        QSignalSpy finished(&again, &client::WalletSession::restoreFinished);
        again.restore();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().first().toBool(), false);
    }

    void externalSignerPastesTheSignatureBack() {
        Harness h;
        client::WalletSession session(&h.auth, &h.secrets);
        const test::TestWallet wallet = test::TestWallet::random();
        QSignalSpy challenge(&session, &client::WalletSession::challengeReady);
        QSignalSpy failed(&session, &client::WalletSession::failed);
        session.requestChallenge(wallet.address());
        QVERIFY(challenge.wait(10000));
        const auto typedData = challenge.first().first().value<nlohmann::json>();
        QCOMPARE(typedData.at("primaryType").get<std::string>().empty(), false);

        // A signature by another wallet is caught before the server sees it.
        const test::TestWallet other = test::TestWallet::random();
        session.completeWithSignature(QString::fromStdString(other.signTypedData(typedData)));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("not from")));
        session.completeWithSignature(QStringLiteral("0x1234"));
        QCOMPARE(failed.count(), 2);
        QVERIFY(failed.last().first().toString().contains(QStringLiteral("65 bytes")));

        QSignalSpy signedIn(&session, &client::WalletSession::signedIn);
        session.completeWithSignature(QString::fromStdString(wallet.signTypedData(typedData)));
        QVERIFY(signedIn.wait(10000));
        QCOMPARE(session.address().toLower(), wallet.address().toLower());
        // No private key was handed over, so none is stored.
        for (const QString& key : h.secrets.entries().keys()) {
            QVERIFY(!key.startsWith(QStringLiteral("wallet/")));
        }
    }

    void importedKeyIsValidatedAndAMissingKeychainIsAnExplicitError() {
        QString error;
        QVERIFY(!client::Wallet::fromPrivateKeyHex(QStringLiteral("0x12"), &error));
        QVERIFY(error.contains(QStringLiteral("64 hexadecimal digits")));
        QVERIFY(!client::Wallet::fromPrivateKeyHex(QString(64, QLatin1Char('0')), &error));
        QVERIFY(error.contains(QStringLiteral("not a valid")));
        // The EIP's "cow" key, spelled without 0x: its address is known.
        const auto cow = client::Wallet::fromPrivateKeyHex(
            QStringLiteral("c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"),
            &error);
        QVERIFY(cow);
        QCOMPARE(cow->address(), QStringLiteral("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"));

        test::TestServer server;
        QNetworkAccessManager network;
        client::AuthClient auth(&network, QUrl(server.url()));
        client::MemorySecretStore noKeychain(false);
        client::WalletSession session(&auth, &noKeychain);
        QSignalSpy failed(&session, &client::WalletSession::failed);
        QSignalSpy signedIn(&session, &client::WalletSession::signedIn);
        session.signIn(*cow);
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.first().first().toString().contains(
            QStringLiteral("keychain is not available")));
        QCOMPARE(signedIn.count(), 0);
    }

    void curlCommandCarriesTheKeyWhereTheSpecPutsIt() {
        client::CoreQueryForm form;
        form.programFilePath = QStringLiteral("/tmp/it's.json");
        form.mockFactHash = true;
        const QString core = client::curlCommand(QUrl(QStringLiteral("http://127.0.0.1:7300")),
                                                 client::toSubmission(form), QStringLiteral("k1"));
        QCOMPARE(core, QStringLiteral("curl -sS -X POST \\\n    -H 'api-key: k1' \\\n"
                                      "    -F 'result=PROOF_GENERATION' \\\n"
                                      "    -F 'layout=auto' \\\n"
                                      "    -F 'cairoVm=rust' \\\n"
                                      "    -F 'mockFactHash=true' \\\n"
                                      "    -F 'network=TESTNET' \\\n"
                                      "    -F 'declaredJobSize=S' \\\n"
                                      "    -F 'programFile=@/tmp/it'\\''s.json' \\\n"
                                      "    'http://127.0.0.1:7300/core-query'"));
        const client::Submission v1{QStringLiteral("/v1/trace-generation"),
                                    {{QStringLiteral("cairoVersion"), QStringLiteral("0")}},
                                    {{QStringLiteral("programFile"), QStringLiteral("p.json")}}};
        QCOMPARE(client::curlCommand(QUrl(QStringLiteral("http://h:1/base/")), v1,
                                     QStringLiteral("a&b")),
                 QStringLiteral("curl -sS -X POST \\\n    -F 'cairoVersion=0' \\\n"
                                "    -F 'programFile=@p.json' \\\n"
                                "    'http://h:1/base/v1/trace-generation?apiKey=a%26b'"));
        // A data request's command (this one crashed the console once: its quoting returned a
        // string builder over a parameter that was gone).
        QNetworkAccessManager network;
        const client::RequestClient requests(&network, QUrl(QStringLiteral("http://h:2")),
                                             [] { return QStringLiteral("it's"); });
        QCOMPARE(requests.curlCommand({{"note", "it's"}}),
                 QStringLiteral("curl -X POST 'http://h:2/submit-request' -H 'api-key: it'\\''s' "
                                "-H 'content-type: application/json' --data "
                                "'{\"note\":\"it'\\''s\"}'"));
    }
};

QTEST_GUILESS_MAIN(WalletSessionTest)
#include "tst_wallet_session.moc"
