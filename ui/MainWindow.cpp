#include "MainWindow.h"

#include "BucketsPage.h"
#include "DataRequestsPage.h"
#include "DesktopNotifier.h"
#include "FactsPage.h"
#include "GrowOrdersPage.h"
#include "IdentityIndicator.h"
#include "KeysPage.h"
#include "LayoutState.h"
#include "LocalServerPage.h"
#include "PageParts.h"
#include "ProofJobsPage.h"
#include "SettingsDialog.h"

#include <QApplication>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

// The resources live in this static library; make sure they are linked in and registered.
static void registerProofdeskResources() {
    Q_INIT_RESOURCE(resources);
}

namespace proofdesk::ui {
namespace {

// A notification's text: the query and how it ended, with the reason when it failed.
QString finishedText(const QString& id, const QString& status, const QString& reason) {
    return reason.isEmpty() ? QObject::tr("Query %1 is %2.").arg(id, status)
                            : QObject::tr("Query %1 is %2: %3").arg(id, status, reason);
}

} // namespace

MainWindow::MainWindow(const ConsoleParts& parts, QWidget* parent)
    : QMainWindow(parent), m_parts(parts) {
    setObjectName(QStringLiteral("proofdeskMainWindow"));
    registerProofdeskResources();
    setWindowTitle(parts.settings.isRemote() ? tr("Proofdesk — %1").arg(parts.endpoints.proofUrl)
                                             : tr("Proofdesk"));
    setWindowIcon(QIcon(QStringLiteral(":/proofdesk/icons/proofdesk.svg")));
    m_navigation = new QListWidget;
    m_navigation->setObjectName(QStringLiteral("navigationListWidget"));
    m_navigation->setAccessibleName(tr("Pages"));
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setMinimumWidth(150);
    m_navigation->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_navigation->setStyleSheet(QStringLiteral("QListWidget { font-size: 11pt; }"
                                               "QListWidget::item { padding: 7px 10px; }"));
    auto* pages = m_pages = new QStackedWidget;
    pages->setObjectName(QStringLiteral("pagesStackedWidget"));
    const auto addPage = [this, pages](const QString& name, QWidget* page) {
        m_navigation->addItem(name);
        m_navigation->item(m_navigation->count() - 1)->setToolTip(name); // when it is cut
        letChoicesShrink(page);
        pages->addWidget(page);
    };

    m_jobs = new ProofJobsPage(parts.proofs);
    auto* facts = new FactsPage(parts.proofs);
    m_buckets = new BucketsPage(parts.proofs);
    addPage(tr("Proof jobs"), m_jobs);
    addPage(tr("Programs, facts and proofs"), facts);
    addPage(tr("Buckets"), m_buckets);
    m_dataRequests = new DataRequestsPage(parts.requests);
    m_growOrders = new GrowOrdersPage(parts.requests);
    addPage(tr("Data requests"), m_dataRequests);
    addPage(tr("Grow orders"), m_growOrders);
    m_keys = new KeysPage(parts.session, parts.proofs, parts.secrets);
    addPage(tr("Wallet and API keys"), m_keys);
    m_serverPage =
        new LocalServerPage(parts.server, parts.endpoints, parts.requestLog, parts.proofs);
    addPage(parts.server ? tr("Local server") : tr("Deployment"), m_serverPage);
    connect(m_navigation, &QListWidget::currentRowChanged, pages, &QStackedWidget::setCurrentIndex);
    m_navigation->setCurrentRow(0);
    setPollInterval(parts.settings.pollIntervalMs);

    connect(facts, &FactsPage::useProgramHash, this, [this](const QString& hash) {
        m_jobs->useProgramHash(hash);
        showPage(m_jobs->objectName());
    });
    connect(m_buckets, &BucketsPage::submitIntoBucket, this, [this](const QString& bucketId) {
        m_jobs->useBucket(bucketId);
        showPage(m_jobs->objectName());
    });
    connect(m_jobs, &ProofJobsPage::jobFinished, this,
            [this](const QString& id, const QString& status, const QString& reason) {
                notify(status == QLatin1String("DONE") ? tr("Proof job done")
                                                       : tr("Proof job failed"),
                       finishedText(id, status, reason));
            });
    connect(m_dataRequests, &DataRequestsPage::queryFinished, this,
            [this](const QString& id, const QString& status, const QString& reason) {
                notify(status == QLatin1String("COMPLETED") ? tr("Data request completed")
                                                            : tr("Data request failed"),
                       finishedText(id, status, reason));
            });
    connect(m_jobs, &ProofJobsPage::artifactSaved, this, [this](const QString& path, qint64 bytes) {
        statusBar()->showMessage(tr("Saved %1 (%2 bytes)").arg(path).arg(bytes), 8000);
    });

    auto* toolbar = addToolBar(tr("Console"));
    toolbar->setObjectName(QStringLiteral("consoleToolBar"));
    toolbar->setMovable(false);
    QAction* settings = toolbar->addAction(tr("Settings…"));
    settings->setObjectName(QStringLiteral("settingsAction"));
    connect(settings, &QAction::triggered, this, &MainWindow::openSettings);
    buildMenus(settings);

    m_notifier = new DesktopNotifier(QDBusConnection::sessionBus(), this);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(windowIcon(), this);
        m_tray->show();
    }

    auto* splitter = new QSplitter;
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_navigation);
    splitter->addWidget(pages);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(0, false);
    // Wide enough for the longest page name (issue #47: "Programs, facts and pr…"); narrower
    // only when the user drags it so.
    const int navigationWidth =
        std::max(200, m_navigation->sizeHintForColumn(0) + 2 * m_navigation->frameWidth() + 8);
    splitter->setSizes({navigationWidth, 1040});
    setCentralWidget(splitter);
    statusBar()->showMessage(parts.server
                                 ? tr("Embedded server at %1").arg(parts.endpoints.proofUrl)
                                 : tr("Remote deployment at %1").arg(parts.endpoints.proofUrl));
    if (parts.server) {
        // Issue #47: stopped, the server is not asked (the app marks the clients stopped), and
        // the status bar says so until it runs again.
        connect(parts.server, &LocalServerControl::runningChanged, this, [this](bool running) {
            statusBar()->showMessage(
                running ? tr("Embedded server at %1").arg(m_parts.server->endpoints().proofUrl)
                        : tr("The local server is stopped: the pages ask it nothing until it "
                             "runs again (Local server page)."));
        });
    }
    m_identity = new IdentityIndicator(parts.settings.isRemote() ? tr("Remote") : tr("Local"),
                                       parts.proofs, parts.session);
    statusBar()->addPermanentWidget(m_identity);
    connect(m_identity, &IdentityIndicator::useKeyRequested, m_keys, &KeysPage::useKey);
    connect(m_identity, &IdentityIndicator::pasteKeyRequested, m_keys, &KeysPage::pasteKey);
    connect(m_identity, &IdentityIndicator::signInRequested, this, [this] {
        showPage(m_keys->objectName());
        m_keys->openSignIn();
    });
    connect(m_identity, &IdentityIndicator::manageKeysRequested, this,
            [this] { showPage(m_keys->objectName()); });
    connect(m_keys, &KeysPage::notice, this,
            [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    resize(1240, 780);
    if (parts.rememberLayout) {
        QSettings store;
        restoreLayout(*this, store);
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_parts.rememberLayout) {
        QSettings store;
        saveLayout(*this, store);
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::buildMenus(QAction* settings) {
    settings->setShortcut(QKeySequence(tr("Ctrl+,")));
    settings->setShortcutContext(Qt::ApplicationShortcut);
    settings->setMenuRole(QAction::PreferencesRole);
    const auto add = [this](QMenu* menu, const QString& text, const char* objectName,
                            const QKeySequence& shortcut, void (MainWindow::*slot)()) {
        QAction* action = menu->addAction(text);
        action->setObjectName(QLatin1String(objectName));
        action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    file->addAction(settings);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    // Ctrl+Q on every platform (not every keyboard scheme binds QKeySequence::Quit).
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    QAction* submit = add(edit, tr("&Submit the form"), "submitFormAction",
                          QKeySequence(Qt::CTRL | Qt::Key_Return), &MainWindow::submitCurrentForm);
    // The keypad's Enter too.
    submit->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    add(edit, tr("&Find"), "findAction", QKeySequence::Find, &MainWindow::focusSearch);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    for (int row = 0; row < m_navigation->count(); ++row) {
        QAction* page = view->addAction(m_navigation->item(row)->text());
        page->setObjectName(QStringLiteral("showPage%1Action").arg(row + 1));
        if (row < 9) {
            page->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(row + 1)));
        }
        connect(page, &QAction::triggered, this, [this, row] { m_navigation->setCurrentRow(row); });
    }
    view->addSeparator();
    add(view, tr("&Refresh"), "refreshAction", QKeySequence::Refresh,
        &MainWindow::refreshCurrentPage);

    // The selected proof job's actions (ProofJobsPage::jobActions), with their shortcuts.
    QMenu* job = menuBar()->addMenu(tr("&Job"));
    job->setObjectName(QStringLiteral("jobMenu"));
    job->addActions(m_jobs->jobActions());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* about = add(help, tr("&About Proofdesk"), "aboutAction", {}, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

QWidget* MainWindow::currentPage() const {
    return m_pages->currentWidget();
}

void MainWindow::submitCurrentForm() {
    if (QPushButton* button = primaryAction(currentPage())) {
        button->click();
    }
}

void MainWindow::focusSearch() {
    if (QWidget* field = searchField(currentPage())) {
        field->setFocus(Qt::ShortcutFocusReason);
        if (auto* line = qobject_cast<QLineEdit*>(field)) {
            line->selectAll();
        }
    }
}

void MainWindow::refreshCurrentPage() {
    QWidget* page = currentPage();
    if (page && page->metaObject()->indexOfMethod("refresh()") >= 0) {
        QMetaObject::invokeMethod(page, "refresh");
        statusBar()->showMessage(tr("Refreshed."), 2000);
    }
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Proofdesk"),
        tr("<h3>Proofdesk %1</h3><p>A desktop console and local server for proven chain data "
           "and Cairo proof jobs: the request, proof and sign-in services, served over HTTP, "
           "with Proofdesk's own Stone-compatible STARK prover and verifier.</p>"
           "<p>Connected to %2.</p>")
            .arg(QCoreApplication::applicationVersion().isEmpty()
                     ? QStringLiteral("(development build)")
                     : QCoreApplication::applicationVersion(),
                 m_parts.endpoints.proofUrl.toHtmlEscaped()));
}

void MainWindow::showPage(const QString& objectName) {
    QStackedWidget* pages = m_pages;
    for (int i = 0; i < pages->count(); ++i) {
        if (pages->widget(i)->objectName() == objectName) {
            m_navigation->setCurrentRow(i);
            return;
        }
    }
}

void MainWindow::setPollInterval(int milliseconds) {
    m_jobs->setPollInterval(milliseconds);
    m_buckets->setPollInterval(milliseconds);
    m_dataRequests->setPollInterval(milliseconds);
    m_growOrders->setPollInterval(milliseconds);
}

void MainWindow::openSettings() {
    auto* dialog = new SettingsDialog(m_parts.settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { applySettings(dialog->settings()); });
    dialog->open();
}

void MainWindow::applySettings(const ConsoleSettings& chosen) {
    QSettings store;
    chosen.save(store);
    const ConsoleSettings before = std::exchange(m_parts.settings, chosen);
    QStringList applied{tr("polling every %1 ms").arg(chosen.pollIntervalMs)};
    setPollInterval(chosen.pollIntervalMs);
    if (m_parts.server) {
        m_parts.server->setChainRpcUrls(chosen.chainRpcUrls);
        applied << tr("chain RPC URLs in use");
        if (chosen.prover != before.prover) {
            QString error;
            if (!m_parts.server->setProvers(chosen.prover, &error)) {
                statusBar()->showMessage(
                    tr("Settings saved, but the embedded server did not start again with the new "
                       "prover: %1")
                        .arg(error));
                return;
            }
            applied << tr("the embedded server restarted with the new prover");
        }
    }
    if (chosen.profile != before.profile) {
        statusBar()->showMessage(tr("Settings saved: %1. The %2 profile applies after a restart.")
                                     .arg(applied.join(QStringLiteral(", ")), chosen.profile));
        askToRestart();
        return;
    }
    const ServerEndpoints wanted{chosen.requestUrl, chosen.proofUrl, chosen.authUrl,
                                 m_parts.endpoints.dataDir};
    const bool moved = wanted.requestUrl != m_parts.endpoints.requestUrl ||
                       wanted.proofUrl != m_parts.endpoints.proofUrl ||
                       wanted.authUrl != m_parts.endpoints.authUrl;
    if (chosen.isRemote() && moved && m_parts.reconnect) {
        m_parts.reconnect(wanted);
        m_parts.endpoints = wanted;
        m_serverPage->setRemoteEndpoints(wanted);
        setWindowTitle(tr("Proofdesk — %1").arg(wanted.proofUrl));
        applied << tr("connected to %1").arg(wanted.proofUrl);
        refreshCurrentPage();
    }
    statusBar()->showMessage(tr("Settings saved: %1.").arg(applied.join(QStringLiteral(", "))),
                             10000);
}

void MainWindow::askToRestart() {
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restart Proofdesk?"),
                                tr("The %1 profile applies when Proofdesk starts again. Restart "
                                   "now? Forms you have not submitted are lost.")
                                    .arg(m_parts.settings.profile),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("restartMessageBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton* now = box->addButton(tr("Restart now"), QMessageBox::AcceptRole);
    now->setObjectName(QStringLiteral("restartNowPushButton"));
    now->setEnabled(static_cast<bool>(m_parts.restart));
    QPushButton* later = box->addButton(tr("Later"), QMessageBox::RejectRole);
    later->setObjectName(QStringLiteral("restartLaterPushButton"));
    box->setDefaultButton(later);
    connect(now, &QPushButton::clicked, this, [this] { m_parts.restart(); });
    box->open();
}

void MainWindow::notify(const QString& title, const QString& message) {
    statusBar()->showMessage(title + QStringLiteral(": ") + message, 10000);
    if (!m_notifier->notify(title, message) && m_tray) {
        m_tray->showMessage(title, message, QSystemTrayIcon::Information, 8000);
    }
    emit notified(title, message);
}

} // namespace proofdesk::ui
