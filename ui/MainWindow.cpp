#include "MainWindow.h"

#include "BucketsPage.h"
#include "DataRequestsPage.h"
#include "FactsPage.h"
#include "GrowOrdersPage.h"
#include "KeysPage.h"
#include "LocalServerPage.h"
#include "PageParts.h"
#include "ProofJobsPage.h"
#include "SettingsDialog.h"

#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QToolBar>
#include <QVBoxLayout>

// The resources live in this static library; make sure they are linked in and registered.
static void registerProofdeskResources() {
    Q_INIT_RESOURCE(resources);
}

namespace proofdesk::ui {

MainWindow::MainWindow(const ConsoleParts& parts, QWidget* parent)
    : QMainWindow(parent), m_parts(parts) {
    setObjectName(QStringLiteral("proofdeskMainWindow"));
    registerProofdeskResources();
    setWindowTitle(parts.settings.isRemote() ? tr("Proofdesk — %1").arg(parts.endpoints.proofUrl)
                                             : tr("Proofdesk"));
    setWindowIcon(QIcon(QStringLiteral(":/proofdesk/icons/proofdesk.svg")));
    m_navigation = new QListWidget;
    m_navigation->setObjectName(QStringLiteral("navigationListWidget"));
    m_navigation->setFrameShape(QFrame::NoFrame);
    m_navigation->setMinimumWidth(190);
    m_navigation->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_navigation->setStyleSheet(QStringLiteral("QListWidget { font-size: 11pt; }"
                                               "QListWidget::item { padding: 7px 10px; }"));
    auto* pages = new QStackedWidget;
    pages->setObjectName(QStringLiteral("pagesStackedWidget"));
    const auto addPage = [this, pages](const QString& name, QWidget* page) {
        m_navigation->addItem(name);
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
    addPage(tr("Wallet and API keys"), new KeysPage(parts.session, parts.proofs, parts.secrets));
    addPage(parts.server ? tr("Local server") : tr("Deployment"),
            new LocalServerPage(parts.server, parts.endpoints, parts.requestLog, parts.proofs));
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
            [this](const QString& id, const QString& status) {
                notify(status == QLatin1String("DONE") ? tr("Proof job done")
                                                       : tr("Proof job failed"),
                       tr("Query %1 is %2.").arg(id, status));
            });
    connect(m_dataRequests, &DataRequestsPage::queryFinished, this,
            [this](const QString& id, const QString& status) {
                notify(status == QLatin1String("COMPLETED") ? tr("Data request completed")
                                                            : tr("Data request failed"),
                       tr("Query %1 is %2.").arg(id, status));
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

    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(windowIcon(), this);
        m_tray->show();
    }

    auto* splitter = new QSplitter;
    splitter->addWidget(m_navigation);
    splitter->addWidget(pages);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(0, false);
    splitter->setSizes({200, 1040});
    setCentralWidget(splitter);
    statusBar()->showMessage(parts.server
                                 ? tr("Embedded server at %1").arg(parts.endpoints.proofUrl)
                                 : tr("Remote deployment at %1").arg(parts.endpoints.proofUrl));
    resize(1240, 780);
}

void MainWindow::showPage(const QString& objectName) {
    auto* pages = findChild<QStackedWidget*>(QStringLiteral("pagesStackedWidget"));
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
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConsoleSettings chosen = dialog->settings();
        QSettings store;
        chosen.save(store);
        const bool restart = chosen.profile != m_parts.settings.profile ||
                             chosen.requestUrl != m_parts.settings.requestUrl ||
                             chosen.proofUrl != m_parts.settings.proofUrl ||
                             chosen.authUrl != m_parts.settings.authUrl;
        m_parts.settings.pollIntervalMs = chosen.pollIntervalMs;
        setPollInterval(chosen.pollIntervalMs);
        statusBar()->showMessage(restart ? tr("Settings saved; the profile applies at the next "
                                              "start.")
                                         : tr("Settings saved."),
                                 8000);
    });
    dialog->open();
}

void MainWindow::notify(const QString& title, const QString& message) {
    statusBar()->showMessage(title + QStringLiteral(": ") + message, 10000);
    if (m_tray) {
        m_tray->showMessage(title, message, QSystemTrayIcon::Information, 8000);
    }
    emit notified(title, message);
}

} // namespace proofdesk::ui
