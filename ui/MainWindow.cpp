#include "MainWindow.h"

#include "FactsPage.h"
#include "PageParts.h"
#include "ProofJobsPage.h"
#include "models/RequestLogModel.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

// The resources live in this static library; make sure they are linked in and registered.
static void registerProofdeskResources() {
    Q_INIT_RESOURCE(resources);
}

namespace proofdesk::ui {
namespace {

QLabel* selectableLabel(const QString& text, const QString& objectName) {
    auto* label = new QLabel(text);
    label->setObjectName(objectName);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QWidget* buildLocalServerPage(const ServerEndpoints& endpoints,
                              models::RequestLogModel* requestLog) {
    auto* page = new QWidget;
    page->setObjectName(QStringLiteral("localServerPageWidget"));
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(pageTitle(QObject::tr("Local server")));

    auto* form = new QFormLayout;
    form->addRow(QObject::tr("Request service"),
                 selectableLabel(endpoints.requestUrl, QStringLiteral("requestUrlLabel")));
    form->addRow(QObject::tr("Proof service"),
                 selectableLabel(endpoints.proofUrl, QStringLiteral("proofUrlLabel")));
    form->addRow(QObject::tr("Sign-in service"),
                 selectableLabel(endpoints.authUrl, QStringLiteral("authUrlLabel")));
    form->addRow(QObject::tr("Data dir"),
                 selectableLabel(endpoints.dataDir, QStringLiteral("dataDirLabel")));
    layout->addLayout(form);

    layout->addWidget(new QLabel(QObject::tr("Request log")));
    auto* table = new QTableView;
    table->setObjectName(QStringLiteral("requestLogTableView"));
    table->setModel(requestLog);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(models::RequestLogModel::PathColumn,
                                                    QHeaderView::Stretch);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    QObject::connect(requestLog, &QAbstractItemModel::rowsInserted, table,
                     [table] { table->scrollToBottom(); });
    layout->addWidget(table, 1);
    return page;
}

} // namespace

MainWindow::MainWindow(const ServerEndpoints& endpoints, models::RequestLogModel* requestLog,
                       client::ProofClient* proofClient, QWidget* parent)
    : QMainWindow(parent) {
    setObjectName(QStringLiteral("proofdeskMainWindow"));
    registerProofdeskResources();
    setWindowTitle(tr("Proofdesk"));
    setWindowIcon(QIcon(QStringLiteral(":/proofdesk/icons/proofdesk.svg")));
    auto* navigation = new QListWidget;
    navigation->setObjectName(QStringLiteral("navigationListWidget"));
    auto* pages = new QStackedWidget;
    pages->setObjectName(QStringLiteral("pagesStackedWidget"));
    if (proofClient) {
        navigation->addItem(tr("Proof jobs"));
        pages->addWidget(new ProofJobsPage(proofClient));
        navigation->addItem(tr("Programs and facts"));
        pages->addWidget(new FactsPage(proofClient));
    }
    navigation->addItem(tr("Local server"));
    pages->addWidget(buildLocalServerPage(endpoints, requestLog));
    connect(navigation, &QListWidget::currentRowChanged, pages, &QStackedWidget::setCurrentIndex);
    navigation->setCurrentRow(0);

    auto* splitter = new QSplitter;
    splitter->addWidget(navigation);
    splitter->addWidget(pages);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({180, 920});
    setCentralWidget(splitter);
    statusBar()->showMessage(tr("Embedded server running at %1").arg(endpoints.proofUrl));
    resize(1100, 700);
}

} // namespace proofdesk::ui
