// Who the console acts as, and how it says what went wrong: the status bar's identity (profile,
// project, key) and its switcher, pasting an API key that the next request uses, the sign-in
// dialog on a machine without a keychain, and banners that neither move the form nor outlive
// their cause.
#include "ConsoleHarness.h"

#include "auth/ApiKeyRegistry.h"
#include "proof/ProofService.h"
#include "ui/IdentityIndicator.h"
#include "ui/PageParts.h"

#include <QAction>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

using namespace proofdesk;
using test::child;
using test::click;

class ConsoleIdentityTest : public QObject {
    Q_OBJECT
private slots:
    void aPastedKeyIsCheckedShownAndUsedByTheNextRequest() {
        test::ConsoleHarness console;
        const QString first = console.server.mintKey(QStringLiteral("first"));
        const QString firstProject =
            console.server.server().apiKeys().adminProjectNamed(QStringLiteral("first"));
        console.proofs.setApiKey(first);
        const QString pasted = console.server.mintKey(QStringLiteral("pasted"));
        const QString pastedProject =
            console.server.server().apiKeys().adminProjectNamed(QStringLiteral("pasted"));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Always in view: the profile, the key's project (asked of the service), the key's tail.
        auto* identity = child<QLabel>(&window, "identityLabel");
        QTRY_VERIFY(identity->text().contains(firstProject.right(6)));
        QVERIFY(identity->text().startsWith(QStringLiteral("Local · project ")));
        QVERIFY(identity->text().endsWith(QStringLiteral("key …") + first.right(4)));
        QVERIFY(!identity->text().contains(first)); // never the whole key

        // The switcher's "Paste an API key…": a key the service does not know is refused, with
        // the field marked; fixing it clears the banner.
        window.identity()->findChild<QAction*>(QStringLiteral("pasteApiKeyAction"))->trigger();
        QPointer<QDialog> dialog;
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("pasteApiKeyDialog"))) &&
                    dialog->isVisible());
        auto* field = child<QLineEdit>(dialog, "pastedApiKeyLineEdit");
        field->setText(QStringLiteral("not-a-key"));
        click(dialog, "usePastedKeyPushButton");
        auto* banner = child<QLabel>(dialog, "pasteKeyErrorBannerLabel");
        QTRY_VERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("does not take this key")));
        QVERIFY(ui::isMarkedAtFault(field));
        QCOMPARE(console.proofs.apiKey(), first);
        QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(field, pasted);
        QVERIFY(!banner->isVisible());
        QVERIFY(!ui::isMarkedAtFault(field));
        click(dialog, "usePastedKeyPushButton");
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
        QCOMPARE(console.proofs.apiKey(), pasted);
        QCOMPARE(console.secrets.entries().value(QStringLiteral("activeApiKey")), pasted);
        QTRY_VERIFY(identity->text().contains(pastedProject.right(6)));
        QVERIFY(window.statusBar()->currentMessage().contains(pastedProject));

        // The next request goes out with the pasted key: a bucket made from the buckets page
        // belongs to its project, none to the first one's.
        window.showPage(QStringLiteral("bucketsPageWidget"));
        click(&window, "createBucketPushButton");
        QTRY_COMPARE(console.server.server().proofs().buckets().list(pastedProject, 10, 0).second,
                     1);
        QCOMPARE(console.server.server().proofs().buckets().list(firstProject, 10, 0).second, 0);

        // Both keys are in the switcher; picking the first one switches back.
        QList<QAction*> used;
        QTRY_COMPARE(
            (used = window.identity()->findChildren<QAction*>(QStringLiteral("useRecentKeyAction")))
                .size(),
            2);
        for (QAction* action : used) {
            if (action->text().contains(first.right(4)) && !action->isChecked()) {
                action->trigger();
            }
        }
        QTRY_COMPARE(console.proofs.apiKey(), first);
        QTRY_VERIFY(identity->text().contains(firstProject.right(6)));
    }

    void withoutAKeychainTheSignInDialogSaysSoFirst() {
        test::ConsoleHarness console;
        client::MemorySecretStore noKeychain(false);
        client::WalletSession session(&console.auth, &noKeychain);
        ui::ConsoleParts parts = console.parts();
        parts.secrets = &noKeychain;
        parts.session = &session;
        ui::MainWindow window(parts);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.identity()->findChild<QAction*>(QStringLiteral("walletSignInAction"))->trigger();
        QPointer<QDialog> dialog;
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("signInDialog"))) &&
                    dialog->isVisible());
        auto* notice = child<QLabel>(dialog, "keychainNoticeLabel");
        QTRY_VERIFY(notice->isVisible());
        QVERIFY(notice->text().contains(QStringLiteral("No OS keychain")));
        auto* tabs = child<QTabWidget>(dialog, "signInMethodTabWidget");
        QVERIFY(!tabs->isTabEnabled(0));   // new wallet
        QVERIFY(!tabs->isTabEnabled(1));   // import
        QCOMPARE(tabs->currentIndex(), 2); // external signer
        QVERIFY(!child<QLabel>(dialog, "signInErrorBannerLabel")->isVisible());

        // The other way in: paste a key instead.
        click(dialog, "pasteKeyInsteadPushButton");
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
        QTRY_VERIFY(window.findChild<QDialog*>(QStringLiteral("pasteApiKeyDialog")) &&
                    window.findChild<QDialog*>(QStringLiteral("pasteApiKeyDialog"))->isVisible());
    }

    void aBannerNeitherMovesTheFormNorOutlivesItsCause() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("banner")));
        ui::MainWindow window(console.parts());
        window.resize(1024, 640);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* submit = child<QPushButton>(&window, "submitPushButton");
        auto* path = child<QLineEdit>(&window, "programPathLineEdit");
        const QPoint submitAt = submit->mapTo(&window, QPoint(0, 0));
        const QPoint pathAt = path->mapTo(&window, QPoint(0, 0));

        click(&window, "submitPushButton"); // no program chosen
        auto* banner = child<QLabel>(&window, "errorBannerLabel");
        QTRY_VERIFY(banner->isVisible());
        QVERIFY(banner->text().startsWith(QStringLiteral("Choose a compiled program")));
        QCoreApplication::processEvents();
        QCOMPARE(submit->mapTo(&window, QPoint(0, 0)), submitAt);
        QCOMPARE(path->mapTo(&window, QPoint(0, 0)), pathAt);
        // It floats over the page's bottom edge, clear of the form's button.
        const QRect bannerArea(banner->mapTo(&window, QPoint(0, 0)), banner->size());
        QVERIFY(!bannerArea.intersects(QRect(submitAt, submit->size())));
        // The field at fault is marked; typing into it clears both.
        QVERIFY(ui::isMarkedAtFault(path));
        QCOMPARE(path->accessibleDescription(), banner->text());
        QTest::keyClicks(path, QStringLiteral("/tmp/x.json"));
        QVERIFY(!banner->isVisible());
        QVERIFY(!ui::isMarkedAtFault(path));
        QVERIFY(path->accessibleDescription().isEmpty());

        // × dismisses a banner.
        path->clear();
        click(&window, "submitPushButton");
        QTRY_VERIFY(banner->isVisible());
        child<QToolButton>(banner, "dismissBannerToolButton")->click();
        QVERIFY(!banner->isVisible());
    }
};

QTEST_MAIN(ConsoleIdentityTest)
#include "tst_console_identity.moc"
