// Issue #47: the actions on a selected row have shortcuts while its table has the keyboard (the
// buckets page here: copy id, close), shown in the row's menu; the proof jobs page's Job menu
// shortcuts are that page's only.

#include "ConsoleHarness.h"
#include "models/BucketModel.h"
#include "proof/ProofService.h"
#include "ui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QTableView>
#include <QTest>

using namespace proofdesk;

class RowShortcutsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_row_shortcuts")); }

    void aBucketRowIsCopiedAndClosedByKeys() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("rows")));
        const QString project =
            console.server.server().apiKeys().adminProjectNamed(QStringLiteral("rows"));
        ui::MainWindow window(console.parts());
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto* copyJobId = window.findChild<QAction*>(QStringLiteral("copyQueryIdAction"));
        QVERIFY(copyJobId && copyJobId->isEnabled()); // the proof jobs page is shown

        // Ctrl+3, then Ctrl+Enter creates a bucket.
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QVERIFY(!copyJobId->isEnabled());
        QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
        QTRY_COMPARE(console.server.server().proofs().buckets().list(project, 10, 0).second, 1);
        auto* table = test::child<QTableView>(&window, "bucketsTableView");
        QTRY_COMPARE(table->model()->rowCount(), 1);
        const QString id =
            table->model()->index(0, models::BucketModel::IdColumn).data().toString();

        table->setFocus();
        table->selectRow(0);
        QTRY_VERIFY(table->hasFocus());
        QApplication::clipboard()->clear();
        QTest::keyClick(table, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::clipboard()->text(), id);

        // Delete asks before closing the bucket; the default keeps it open.
        QTest::keyClick(table, Qt::Key_Delete);
        QMessageBox* confirm = nullptr;
        QTRY_VERIFY((confirm = window.findChild<QMessageBox*>(
                         QStringLiteral("confirmCloseBucketMessageBox"))) != nullptr &&
                    confirm->isVisible());
        confirm->reject();
    }
};

QTEST_MAIN(RowShortcutsTest)
#include "tst_row_shortcuts.moc"
