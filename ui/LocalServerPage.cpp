#include "LocalServerPage.h"

#include "PageParts.h"
#include "client/ProofClient.h"
#include "models/RequestLogModel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace proofdesk::ui {
namespace {

// A value that may be long (the prover's summary, a data folder's path): wrapped at spaces and
// never setting the window's minimum width (issue #47: the prover's one line made it 1,120 px
// wide); the whole text is also its tooltip.
QLabel* selectableLabel(const QString& objectName) {
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setMinimumWidth(120);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    return label;
}

// The server's store, job workers and queue, a line each, as `proofdesk store status` prints them.
QString jobsText(const api::ServerStatus& status) {
    QStringList lines;
    lines << (status.shared ? QObject::tr("Team store %1")
                            : QObject::tr("Store %1 (this machine's)"))
                 .arg(QString::fromStdString(status.store));
    if (status.workers.empty()) {
        lines << QObject::tr("No job worker alive: submitted jobs wait until one starts.");
    }
    for (const api::WorkerStatus& worker : status.workers) {
        const QString threads = worker.threads == 1 ? QObject::tr("1 thread")
                                                    : QObject::tr("%1 threads").arg(worker.threads);
        QString line =
            QObject::tr("Worker %1 on %2: %3, heartbeat %4 s ago")
                .arg(QString::fromStdString(worker.name), QString::fromStdString(worker.host),
                     threads, QString::number(worker.lastHeartbeatMsAgo / 1000));
        if (!worker.runningJob.empty()) {
            line += QObject::tr(", running job %1").arg(QString::fromStdString(worker.runningJob));
        }
        lines << line;
    }
    if (status.queue.empty()) {
        lines << QObject::tr("Queue empty.");
    }
    for (const api::QueueDepth& depth : status.queue) {
        QString line =
            QObject::tr("Queue %1 of %2: %3 waiting, %4 running")
                .arg(QString::fromStdString(depth.kind), QString::fromStdString(depth.project))
                .arg(depth.queued)
                .arg(depth.running);
        if (!depth.oldestQueuedAt.empty()) {
            line += QObject::tr(", the oldest since %1")
                        .arg(QString::fromStdString(depth.oldestQueuedAt));
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

constexpr int kJobsRefreshMs = 5000;

} // namespace

LocalServerPage::LocalServerPage(LocalServerControl* server, const ServerEndpoints& remote,
                                 models::RequestLogModel* requestLog, client::ProofClient* proofs,
                                 QWidget* parent)
    : QWidget(parent), m_server(server), m_proofs(proofs) {
    setObjectName(QStringLiteral("localServerPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(m_server ? tr("Local server") : tr("Remote deployment")));
    m_banner = errorBanner(QStringLiteral("serverErrorBannerLabel"), this);

    auto* stateRow = new QHBoxLayout;
    m_state = selectableLabel(QStringLiteral("serverStateLabel"));
    stateRow->addWidget(m_state, 1);
    m_toggle = new QPushButton;
    m_toggle->setObjectName(QStringLiteral("serverStartStopPushButton"));
    m_toggle->setVisible(m_server != nullptr);
    stateRow->addWidget(m_toggle);
    layout->addLayout(stateRow);

    auto* form = new QFormLayout;
    m_requestUrl = selectableLabel(QStringLiteral("requestUrlLabel"));
    m_proofUrl = selectableLabel(QStringLiteral("proofUrlLabel"));
    m_authUrl = selectableLabel(QStringLiteral("authUrlLabel"));
    m_dataDir = selectableLabel(QStringLiteral("dataDirLabel"));
    m_prover = selectableLabel(QStringLiteral("proverLabel"));
    form->addRow(tr("Request service"), m_requestUrl);
    form->addRow(tr("Proof service"), m_proofUrl);
    form->addRow(tr("Sign-in service"), m_authUrl);
    form->addRow(tr("Data dir"), m_dataDir);
    form->addRow(tr("Prover"), m_prover);
    m_credits = selectableLabel(QStringLiteral("creditsLabel"));
    form->addRow(tr("Credits"), m_credits);
    m_jobs = selectableLabel(QStringLiteral("serverJobsLabel"));
    m_jobs->setTextFormat(Qt::PlainText);
    form->addRow(tr("Jobs"), m_jobs);
    m_jobsTimer = new QTimer(this);
    m_jobsTimer->setInterval(kJobsRefreshMs);
    connect(m_jobsTimer, &QTimer::timeout, this, &LocalServerPage::refreshJobs);
    layout->addLayout(form);
    if (!m_server) {
        setRemoteEndpoints(remote);
        m_dataDir->setText(tr("(on the deployment)"));
        m_prover->setText(tr("(on the deployment)"));
    }

    layout->addWidget(new QLabel(m_server ? tr("Request log") : tr("Request log (local only)")));
    auto* table = recordTable(QStringLiteral("requestLogTableView"), tr("Request log"), requestLog,
                              models::RequestLogModel::PathColumn);
    showWhenEmpty(table, tr("Each request the server answers appears here as it is served."));
    connect(requestLog, &QAbstractItemModel::rowsInserted, table,
            [table] { table->scrollToBottom(); });
    layout->addWidget(table, 1);

    if (m_server) {
        connect(m_toggle, &QPushButton::clicked, this, &LocalServerPage::toggle);
        connect(m_server, &LocalServerControl::runningChanged, this, &LocalServerPage::showState);
        connect(m_server, &LocalServerControl::runningChanged, this, [this] {
            if (isVisible()) {
                refreshJobs();
            }
        });
    }
    if (m_proofs) {
        // Hidden, the page asks when it is next shown (showEvent): the status bar's identity
        // asks about every new key already.
        connect(m_proofs, &client::ProofClient::apiKeyChanged, this, [this] {
            if (isVisible()) {
                refreshCredits();
            }
        });
    }
    showState();
}

void LocalServerPage::setRemoteEndpoints(const ServerEndpoints& remote) {
    m_requestUrl->setText(remote.requestUrl);
    m_proofUrl->setText(remote.proofUrl);
    m_authUrl->setText(remote.authUrl);
    if (isVisible()) {
        refreshCredits();
    }
}

void LocalServerPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refreshCredits();
    refreshJobs();
    m_jobsTimer->start();
}

void LocalServerPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_jobsTimer->stop();
}

void LocalServerPage::refreshJobs() {
    if (m_server && !m_server->isRunning()) {
        m_jobs->setText(tr("(stopped)"));
        return;
    }
    const QString key = m_server ? m_server->adminKey() : QString();
    if (!m_proofs || (key.isEmpty() && m_proofs->apiKey().isEmpty())) {
        m_jobs->setText(tr("(no API key yet)"));
        return;
    }
    m_proofs->serverStatus(
        this,
        [this](client::Result<api::ServerStatus> answer) {
            if (auto* error = std::get_if<client::ApiError>(&answer)) {
                if (error->status == 403) {
                    m_jobs->setText(tr("Only an admin key reads this server's jobs. Its operator "
                                       "makes one with: proofdesk keys create --admin (with the "
                                       "server's --store); paste it with Paste key."));
                } else if (error->status == 404) {
                    m_jobs->setText(tr("This server does not report its jobs (it has no "
                                       "/admin/status)."));
                } else {
                    m_jobs->setText(tr("unknown: %1").arg(error->message()));
                }
                return;
            }
            m_jobs->setText(jobsText(std::get<api::ServerStatus>(answer)));
        },
        key);
}

void LocalServerPage::refreshCredits() {
    if (!m_proofs || m_proofs->apiKey().isEmpty()) {
        m_credits->setText(tr("(no API key yet)"));
        return;
    }
    m_proofs->credits(this, [this](client::Result<api::ProjectCredits> answer) {
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            m_credits->setText(tr("unknown: %1").arg(error->message()));
            return;
        }
        const auto& credits = std::get<api::ProjectCredits>(answer).credits;
        m_credits->setText(
            credits ? tr("%1 left for this key's project (one per submission)").arg(*credits)
                    : tr("unlimited for this key's project"));
    });
}

void LocalServerPage::showState() {
    if (!m_server) {
        m_state->setText(tr("The console talks to a remote deployment (Remote profile); the "
                            "embedded server is not running. Change it in Settings."));
        return;
    }
    const bool running = m_server->isRunning();
    const ServerEndpoints endpoints = m_server->endpoints();
    m_state->setText(running ? tr("<b>Running</b> on loopback.")
                             : tr("<b>Stopped.</b> The pages cannot reach the services until "
                                  "it runs again."));
    m_toggle->setText(running ? tr("Stop server") : tr("Start server"));
    const QString stopped = tr("(stopped)");
    m_requestUrl->setText(running ? endpoints.requestUrl : stopped);
    m_proofUrl->setText(running ? endpoints.proofUrl : stopped);
    m_authUrl->setText(running ? endpoints.authUrl : stopped);
    m_dataDir->setText(endpoints.dataDir);
    m_dataDir->setToolTip(endpoints.dataDir);
    m_prover->setText(m_server->proverSummary());
    m_prover->setToolTip(m_server->proverSummary());
}

void LocalServerPage::toggle() {
    if (m_server->isRunning()) {
        m_server->stop();
        showBanner(m_banner, {});
        return;
    }
    QString error;
    showBanner(m_banner,
               m_server->start(&error) ? QString() : tr("The server did not start: %1").arg(error));
}

} // namespace proofdesk::ui
