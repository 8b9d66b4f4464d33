// Takes the README's screenshots of every console page (docs/screenshots/*.png): an embedded
// server with our own sample data (a signed-in wallet, finished, mocked and failed jobs, a closed
// bucket), each page grabbed as a user would see it. Run under Xvfb for the real look:
//   xvfb-run -s "-screen 0 1400x900x24" build/tests/console_screenshots docs/screenshots
#include "ConsoleHarness.h"
#include "DevChain.h"
#include "ProofTestData.h"

#include "client/Wallet.h"
#include "ui/LocalServerControl.h"
#include "ui/ProofJobsPage.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <functional>

using namespace proofdesk;

namespace {

bool waitFor(const std::function<bool()>& condition, int milliseconds = 30000) {
    QDeadlineTimer deadline(milliseconds);
    while (!condition()) {
        if (deadline.hasExpired()) {
            return false;
        }
        QTest::qWait(50);
    }
    return true;
}

// The page as shown at the console's usual size (1400×900), then at the smallest it is made
// for (1024×640), as NAME.png and NAME-1024x640.png.
void shoot(QWidget& window, const QString& out, const QString& name) {
    window.grab().save(out + QLatin1Char('/') + name + QStringLiteral(".png"));
    window.resize(1024, 640);
    QTest::qWait(300);
    window.grab().save(out + QLatin1Char('/') + name + QStringLiteral("-1024x640.png"));
    window.resize(1400, 900);
    QTest::qWait(300);
}

void submit(QWidget* window, int kind, const QString& path, const QString& result, bool mocked,
            const QString& bucketId = {}) {
    window->findChild<QComboBox*>(QStringLiteral("submissionKindComboBox"))->setCurrentIndex(kind);
    window->findChild<QLineEdit*>(QStringLiteral("programPathLineEdit"))->setText(path);
    if (!result.isEmpty()) {
        window->findChild<QComboBox*>(QStringLiteral("resultComboBox"))->setCurrentText(result);
    }
    window->findChild<QLineEdit*>(QStringLiteral("bucketIdLineEdit"))->setText(bucketId);
    window->findChild<QCheckBox*>(QStringLiteral("mockFactHashCheckBox"))->setChecked(mocked);
    auto* button = window->findChild<QPushButton*>(QStringLiteral("submitPushButton"));
    waitFor([button] { return button->isEnabled(); });
    QTest::mouseClick(button, Qt::LeftButton);
    waitFor([button] { return button->isEnabled(); });
}

// True when the jobs table has rows and every one is DONE or FAILED.
bool allJobsEnded(QTableView* table) {
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const QString status = table->model()->index(row, 1).data().toString();
        if (status != QLatin1String("DONE") && status != QLatin1String("FAILED")) {
            return false;
        }
    }
    return table->model()->rowCount() > 0;
}

// A bucket with five mocked members and node width 2, closed through its confirmation.
void closeAMockedBucket(ui::MainWindow& window, const QString& program) {
    window.showPage(QStringLiteral("bucketsPageWidget"));
    window.findChild<QSpinBox*>(QStringLiteral("nodeWidthSpinBox"))->setValue(2);
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("createBucketPushButton")),
                      Qt::LeftButton);
    auto* buckets = window.findChild<QTableView*>(QStringLiteral("bucketsTableView"));
    waitFor([&] { return buckets->model()->rowCount() == 1; });
    const QString bucketId = buckets->model()->index(0, 0).data().toString();
    window.findChild<QComboBox*>(QStringLiteral("submissionKindComboBox"))->setCurrentIndex(0);
    window.showPage(QStringLiteral("proofJobsPageWidget"));
    for (int i = 0; i < 5; ++i) {
        submit(&window, 0, program, QStringLiteral("PROOF_VERIFICATION_ON_L1"), true, bucketId);
    }
    auto* table = window.findChild<QTableView*>(QStringLiteral("proofQueriesTableView"));
    waitFor([&] { return table->model()->rowCount() == 5 && allJobsEnded(table); });
    window.showPage(QStringLiteral("bucketsPageWidget"));
    buckets->selectRow(0);
    auto* close = window.findChild<QPushButton*>(QStringLiteral("closeBucketPushButton"));
    waitFor([&] { return close->isEnabled(); });
    QTest::mouseClick(close, Qt::LeftButton);
    QWidget* confirm = nullptr;
    waitFor([&] {
        confirm = window.findChild<QWidget*>(QStringLiteral("confirmCloseBucketMessageBox"));
        return confirm && confirm->isVisible();
    });
    QTest::mouseClick(confirm->findChild<QPushButton*>(QStringLiteral("confirmPushButton")),
                      Qt::LeftButton);
}

// The jobs page (the sample through trace generation, a mocked verification, a failure); the closed
// bucket's tree; a registered program.
void shootJobsBucketsAndFacts(ui::MainWindow& window, const QString& out, const QString& sample,
                              const QString& broken) {
    window.showPage(QStringLiteral("proofJobsPageWidget"));
    submit(&window, 1, sample, {}, false);
    QTest::qWait(200);
    submit(&window, 0, sample, QStringLiteral("PROOF_VERIFICATION_ON_L1"), true);
    QTest::qWait(200);
    submit(&window, 0, broken, QStringLiteral("TRACE_GENERATION"), false);
    auto* table = window.findChild<QTableView*>(QStringLiteral("proofQueriesTableView"));
    waitFor([&] { return table->model()->rowCount() >= 8 && allJobsEnded(table); });
    table->selectRow(1);
    QTest::qWait(800);
    shoot(window, out, QStringLiteral("proof-jobs"));

    window.showPage(QStringLiteral("bucketsPageWidget"));
    auto* buckets = window.findChild<QTableView*>(QStringLiteral("bucketsTableView"));
    waitFor(
        [&] { return buckets->model()->index(0, 1).data().toString() == QLatin1String("DONE"); });
    buckets->selectRow(0);
    QTest::qWait(800);
    shoot(window, out, QStringLiteral("buckets"));

    window.showPage(QStringLiteral("factsPageWidget"));
    window.findChild<QLineEdit*>(QStringLiteral("registerProgramPathLineEdit"))->setText(sample);
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("registerProgramPushButton")),
                      Qt::LeftButton);
    QTest::qWait(800);
    shoot(window, out, QStringLiteral("programs-and-facts"));

    window.showPage(QStringLiteral("keysPageWidget"));
    QTest::qWait(500);
    shoot(window, out, QStringLiteral("wallet-and-keys"));
}

// A data request over the dev chain with an action's record shown, and two grow orders.
void shootDataRequestsAndGrowOrders(ui::MainWindow& window, const QString& out) {
    window.showPage(QStringLiteral("dataRequestsPageWidget"));
    auto* kind = window.findChild<QComboBox*>(QStringLiteral("selectorKindComboBox"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("block_ranges")));
    window.findChild<QLineEdit*>(QStringLiteral("selectorValueLineEdit"))
        ->setText(QStringLiteral("30-33"));
    auto* fields = window.findChild<QListWidget*>(QStringLiteral("headerFieldsListWidget"));
    for (const char* field : {"StateRoot", "Timestamp"}) {
        fields->findItems(QLatin1String(field), Qt::MatchExactly)
            .first()
            ->setCheckState(Qt::Checked);
    }
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("addAccountPushButton")),
                      Qt::LeftButton);
    auto* accounts = window.findChild<QTableWidget*>(QStringLiteral("accountsTableWidget"));
    accounts->item(0, 0)->setText(QString::fromStdString(test::DevChain::firstAccount()));
    window.findChild<QCheckBox*>(QStringLiteral("poseidonCheckBox"))->setChecked(true);
    window.findChild<QCheckBox*>(QStringLiteral("keccakCheckBox"))->setChecked(true);
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("submitRequestPushButton")),
                      Qt::LeftButton);
    auto* queries = window.findChild<QTableView*>(QStringLiteral("requestQueriesTableView"));
    waitFor([queries] {
        return queries->model()->index(0, 1).data().toString() == QLatin1String("COMPLETED");
    });
    QTest::qWait(600);
    // An action's whole record beside the table.
    window.findChild<QTableView*>(QStringLiteral("requestActionsTableView"))->selectRow(1);
    QTest::qWait(100);
    shoot(window, out, QStringLiteral("data-requests"));

    window.showPage(QStringLiteral("growOrdersPageWidget"));
    auto* minBatch = window.findChild<QLineEdit*>(QStringLiteral("minBatchSizeLineEdit"));
    minBatch->setText(QStringLiteral("10"));
    window.findChild<QLineEdit*>(QStringLiteral("startBlockLineEdit"))
        ->setText(QStringLiteral("1"));
    window.findChild<QLineEdit*>(QStringLiteral("finishBlockLineEdit"))
        ->setText(QStringLiteral("30"));
    auto* create = window.findChild<QPushButton*>(QStringLiteral("createGrowOrderPushButton"));
    QTest::mouseClick(create, Qt::LeftButton);
    auto* orders = window.findChild<QTableView*>(QStringLiteral("growOrdersTableView"));
    waitFor([orders] {
        return orders->model()->index(0, 1).data().toString() == QLatin1String("COMPLETED");
    });
    minBatch->setText(QStringLiteral("500"));
    window.findChild<QLineEdit*>(QStringLiteral("startBlockLineEdit"))->clear();
    window.findChild<QLineEdit*>(QStringLiteral("finishBlockLineEdit"))
        ->setText(QStringLiteral("5000"));
    QTest::mouseClick(create, Qt::LeftButton);
    waitFor([orders] { return orders->model()->rowCount() == 2; });
    orders->selectRow(0);
    QTest::qWait(600);
    shoot(window, out, QStringLiteral("grow-orders"));
}

// The sign-in dialog with a freshly created wallet.
void shootSignInDialog(ui::MainWindow& window, const QString& out) {
    window.showPage(QStringLiteral("keysPageWidget"));
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("signInPushButton")),
                      Qt::LeftButton);
    QWidget* dialog = nullptr;
    waitFor([&] { return (dialog = window.findChild<QWidget*>(QStringLiteral("signInDialog"))); });
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("createWalletPushButton")),
                      Qt::LeftButton);
    QTest::qWait(300);
    dialog->grab().save(out + QStringLiteral("/sign-in-dialog.png"));
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // Settings of its own, empty at each run (recent requests, layout), so shots do not depend on
    // an earlier run.
    QCoreApplication::setOrganizationName(QStringLiteral("ProofdeskScreenshots"));
    QSettings().clear();
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);
    // The request pages need a chain: our own anvil dev chain when it is installed.
    test::DevChain chain;
    QString chainError;
    const bool haveChain = chain.start(&chainError);
    server::ServerOptions options;
    if (haveChain) {
        chain.mine(40);
        options.requests.chains.setRpcUrl(QStringLiteral("11155111"), chain.url());
        options.requests.growPollMs = 100;
    } else {
        std::fprintf(stderr, "no dev chain (%s): the request pages stay empty\n",
                     qPrintable(chainError));
    }
    test::ConsoleHarness console(QString(), options);
    test::HarnessServerControl serverControl(console.server);
    console.server.server().requestLog().setSink([&console](const http::RequestLogEntry& entry) {
        const models::RequestLogRow row{QDateTime::fromMSecsSinceEpoch(entry.atMs), entry.method,
                                        entry.path, entry.status, entry.milliseconds};
        QMetaObject::invokeMethod(
            &console.requestLog, [&console, row] { console.requestLog.append(row); },
            Qt::QueuedConnection);
    });
    ui::ConsoleParts parts = console.parts();
    parts.server = &serverControl;
    ui::MainWindow window(parts);
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        std::fputs("the window was never shown\n", stderr);
        return 1;
    }
    // What a new user sees first: empty tables that say what to do, and Try the sample.
    QTest::qWait(300);
    shoot(window, out, QStringLiteral("first-start"));

    console.session.signIn(client::Wallet::generate());
    waitFor([&] { return console.session.isSignedIn(); });
    window.showPage(QStringLiteral("keysPageWidget"));
    waitFor([&] { return !console.proofs.apiKey().isEmpty(); });
    console.session.mintKey(QStringLiteral("CI runner"), QStringLiteral("#16a34a"), &window,
                            [](auto) {});

    QTemporaryDir dir;
    const QString program = dir.filePath(QStringLiteral("output_program.json"));
    const QString broken = dir.filePath(QStringLiteral("not_a_program.json"));
    {
        QFile file(program);
        file.open(QIODevice::WriteOnly);
        file.write(QByteArray::fromStdString(test::outputProgram(42)));
        QFile bad(broken);
        bad.open(QIODevice::WriteOnly);
        bad.write(R"({"prime": "0x1", "data": []})");
    }
    const QString sample = QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/fibonacci.json");

    closeAMockedBucket(window, program);

    shootJobsBucketsAndFacts(window, out, sample, broken);

    if (haveChain) {
        shootDataRequestsAndGrowOrders(window, out);
    }

    window.showPage(QStringLiteral("localServerPageWidget"));
    QTest::qWait(300);
    shoot(window, out, QStringLiteral("local-server"));

    shootSignInDialog(window, out);
    std::printf("screenshots written to %s\n", qPrintable(out));
    return 0;
}
