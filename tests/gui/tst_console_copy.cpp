// Every Copy button on every page, pressed as a user would, with and without something selected:
// none crashes (a dead string builder once killed the console here), and each "as curl" copy is a
// command the shell accepts (sh -n) that names its route and carries the key. A table's right-click
// menu offers the same copies for its row, and the query's artifacts.
#include "ConsoleHarness.h"
#include "TestTiming.h"

#include <QApplication>
#include <QClipboard>
#include <QListWidget>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace proofdesk;
using test::child;
using test::click;

namespace {

// Whether the shell parses `command` (without running it).
bool shellAccepts(const QString& command, QString* error) {
    QProcess shell;
    shell.start(QStringLiteral("sh"), {QStringLiteral("-n")});
    if (!shell.waitForStarted(5000)) {
        *error = QStringLiteral("sh did not start");
        return false;
    }
    shell.write(command.toUtf8());
    shell.closeWriteChannel();
    shell.waitForFinished(5000);
    *error = QString::fromUtf8(shell.readAllStandardError());
    return shell.exitStatus() == QProcess::NormalExit && shell.exitCode() == 0;
}

} // namespace

class ConsoleCopyTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyCopyButtonOnEveryPage() {
        test::ConsoleHarness console;
        const QString key = console.server.mintKey(QStringLiteral("copy"));
        console.proofs.setApiKey(key);
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QClipboard* clipboard = QApplication::clipboard();

        // Nothing selected yet: every Copy button on every page is pressed, and nothing breaks.
        auto* navigation = child<QListWidget>(&window, "navigationListWidget");
        for (int page = 0; page < navigation->count(); ++page) {
            navigation->setCurrentRow(page);
            for (QPushButton* button : window.findChildren<QPushButton*>()) {
                if (button->objectName().startsWith(QStringLiteral("copy")) &&
                    button->isVisible() && button->isEnabled()) {
                    button->click();
                }
            }
        }

        // The proof form as curl: the sample program, to /core-query, with the key.
        window.showPage(QStringLiteral("proofJobsPageWidget"));
        click(&window, "trySamplePushButton");
        clipboard->clear();
        click(&window, "copyFormCurlPushButton");
        QString form = clipboard->text();
        QString error;
        QVERIFY2(shellAccepts(form, &error), qPrintable(form + QLatin1Char('\n') + error));
        QVERIFY(form.contains(QStringLiteral("/core-query'")));
        QVERIFY(form.contains(QStringLiteral("api-key: ") + key));
        QVERIFY(form.contains(QStringLiteral("fibonacci.json")));

        // A query sent from here: its own curl, and its id.
        click(&window, "submitPushButton");
        auto* table = child<QTableView>(&window, "proofQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        table->selectRow(0);
        QTRY_VERIFY(child<QPushButton>(&window, "copyQueryCurlPushButton")->isEnabled());
        clipboard->clear();
        click(&window, "copyQueryCurlPushButton");
        const QString query = clipboard->text();
        QVERIFY2(shellAccepts(query, &error), qPrintable(query + QLatin1Char('\n') + error));
        QVERIFY(query.contains(QStringLiteral("/core-query'")));
        click(&window, "copyQueryIdPushButton");
        const QString id = clipboard->text();
        QCOMPARE(id.size(), 26); // a ULID

        // The table's right-click menu: the row's own copies, and its artifacts to download.
        table->clearSelection();
        clipboard->clear();
        const QPoint firstRow = table->visualRect(table->model()->index(0, 0)).center();
        emit table->customContextMenuRequested(firstRow);
        QMenu* menu = nullptr;
        QTRY_VERIFY((menu = window.findChild<QMenu*>(QStringLiteral("proofQueriesTableViewMenu"))));
        QStringList entries;
        for (QAction* action : menu->actions()) {
            entries << action->text() +
                           (action->isEnabled() ? QString() : QStringLiteral(" (off)"));
        }
        QCOMPARE(entries, (QStringList{QStringLiteral("Copy id"), QStringLiteral("Copy as curl"),
                                       QStringLiteral("Copy the fact hash"),
                                       QStringLiteral("Submit again (off)"),
                                       QStringLiteral("Download artifact")}));
        menu->actions().at(0)->trigger();
        QCOMPARE(clipboard->text(), id);
        auto* artifacts = menu->findChild<QMenu*>(QStringLiteral("downloadArtifactMenu"));
        QVERIFY(artifacts);
        // The job's artifacts arrive with a poll of the server (slow in a sanitizer build).
        QTRY_VERIFY_WITH_TIMEOUT(child<QListWidget>(&window, "artifactsListWidget")->count() > 0,
                                 test::scaledDeadline(10000));
        emit artifacts->aboutToShow();
        QStringList downloads;
        for (QAction* action : artifacts->actions()) {
            downloads << action->text();
        }
        QVERIFY2(downloads.contains(QStringLiteral("output.json…")),
                 qPrintable(downloads.join(QStringLiteral(", "))));
        menu->close();

        // The data request as curl: the sample request, to /submit-request, its JSON quoted.
        window.showPage(QStringLiteral("dataRequestsPageWidget"));
        click(&window, "trySampleRequestPushButton");
        clipboard->clear();
        click(&window, "copyRequestCurlPushButton");
        const QString request = clipboard->text();
        QVERIFY2(shellAccepts(request, &error), qPrintable(request + QLatin1Char('\n') + error));
        QVERIFY(request.contains(QStringLiteral("/submit-request")));
        QVERIFY(request.contains(QStringLiteral("ParentHash")));
    }
};

QTEST_MAIN(ConsoleCopyTest)
#include "tst_console_copy.moc"
