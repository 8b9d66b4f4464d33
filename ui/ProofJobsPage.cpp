// The proof jobs page: the list of jobs with its search, the sending of a submission, polling
// (ProofJobsForm.cpp has the form, ProofJobDetail.cpp the selected job's detail).

#include "ProofJobsPage.h"

#include "JsonView.h"
#include "PageParts.h"
#include "ProofRecordText.h"
#include "client/ProofFileVerifier.h"
#include "models/ProofQueryModel.h"
#include "models/ValueReading.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace proofdesk::ui {

ProofJobsPage::ProofJobsPage(client::ProofClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_model(new models::ProofQueryModel(this)),
      m_filter(new QSortFilterProxyModel(this)), m_poll(this, [this] { refresh(); }) {
    setObjectName(QStringLiteral("proofJobsPageWidget"));
    m_localVerifier = new client::ProofFileVerifier(this);
    connect(m_client, &client::ProofClient::apiKeyChanged, this, &ProofJobsPage::keyChanged);
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Proof jobs")));
    m_banner = errorBanner(QStringLiteral("errorBannerLabel"), this);
    m_submitWithPython = new QPushButton(tr("Submit with Python hints"));
    m_submitWithPython->setObjectName(QStringLiteral("submitWithPythonHintsPushButton"));
    m_submitWithPython->setToolTip(
        tr("Sends the refused submission again with cairoVm=python: the server runs the hints "
           "that have no native implementation as Python, in its sandbox"));
    m_submitWithPython->setVisible(false);
    layout->addWidget(m_submitWithPython, 0, Qt::AlignLeft);
    connect(m_submitWithPython, &QPushButton::clicked, this, [this] {
        if (m_refusedForHints) {
            send(*m_refusedForHints, m_submitWithPython, {});
        }
    });

    auto* columns = new QSplitter;
    columns->setObjectName(QStringLiteral("proofJobFormSplitter"));
    auto* formScroll = new QScrollArea;
    formScroll->setWidget(buildForm());
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    formScroll->setMinimumWidth(formScroll->widget()->minimumSizeHint().width() + 24);
    columns->addWidget(formScroll);

    columns->addWidget(buildJobList());
    columns->setStretchFactor(1, 1);
    columns->setSizes({440, 800});
    layout->addWidget(columns, 1);

    connect(m_search, &QLineEdit::textChanged, this, &ProofJobsPage::refresh);
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, [this] {
        const QString status = m_statusFilter->currentData().toString();
        m_filter->setFilterRegularExpression(
            status.isEmpty() ? QString() : QLatin1Char('^') + status + QLatin1Char('$'));
        if (currentQueryId().isEmpty()) {
            clearDetail(); // the shown query is filtered out
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProofJobsPage::showSelected);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ProofJobsPage::showSelected);
    m_saveLocation = [this](const QString& suggested) {
        return QFileDialog::getSaveFileName(this, tr("Save artifact"), suggested);
    };
    kindChanged();
    addJobRowMenu();
    addJobAction(tr("Try the &sample"), "trySampleAction",
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this] { trySample(); });
    addJobAction(tr("Copy the job's &id"), "copyQueryIdAction",
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), [this] {
                     pressIfAvailable(
                         findChild<QPushButton*>(QStringLiteral("copyQueryIdPushButton")));
                 });
    addJobAction(tr("Copy as &curl"), "copyQueryCurlAction",
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U),
                 [this] { pressIfAvailable(m_copyCurl); });
    addJobAction(tr("Submit &again"), "resubmitQueryAction",
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                 [this] { pressIfAvailable(m_resubmit); });
    addJobAction(tr("&Verify the proof"), "verifyProofAction",
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V), [this] {
                     selectProofArtifactIfNone();
                     pressIfAvailable(m_verifyArtifact);
                 });
    addJobAction(tr("&Download the artifact…"), "downloadArtifactAction",
                 QKeySequence(Qt::CTRL | Qt::Key_S), [this] {
                     selectProofArtifactIfNone();
                     pressIfAvailable(m_download);
                 });
}

// The search row, the jobs table and, under it, the selected job's detail.
QWidget* ProofJobsPage::buildJobList() {
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* searchRow = new QHBoxLayout;
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("searchLineEdit"));
    m_search->setAccessibleName(tr("Search proof jobs"));
    markSearchField(m_search);
    m_search->setPlaceholderText(tr("Search by id, dedup id or external id prefix"));
    m_search->setClearButtonEnabled(true);
    searchRow->addWidget(m_search, 1);
    m_statusFilter = new QComboBox;
    m_statusFilter->setObjectName(QStringLiteral("statusFilterComboBox"));
    m_statusFilter->addItem(tr("All statuses"), QString());
    for (const std::string& status : api::proof_enums::kStatuses) {
        m_statusFilter->addItem(QString::fromStdString(status), QString::fromStdString(status));
    }
    searchRow->addWidget(m_statusFilter);
    rightLayout->addLayout(searchRow);

    m_filter->setSourceModel(m_model);
    m_filter->setFilterRole(models::ProofQueryModel::StatusRole);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("proofJobsSplitter"));
    m_table = recordTable(QStringLiteral("proofQueriesTableView"), tr("Proof jobs"), m_filter,
                          models::ProofQueryModel::FactHashColumn);
    m_table->horizontalHeader()->setSectionResizeMode(models::ProofQueryModel::IdColumn,
                                                      QHeaderView::ResizeToContents);
    QLabel* empty = showWhenEmpty(
        m_table, tr("No proof jobs yet. Choose a compiled Cairo 0 program, or press Try the "
                    "sample, then Submit: the job appears here and follows its steps live."));
    const QString emptyText = empty->text();
    const auto emptyBecause = [this, empty, emptyText] {
        const bool filtered = !m_search->text().trimmed().isEmpty() ||
                              !m_statusFilter->currentData().toString().isEmpty();
        empty->setText(filtered ? tr("No query matches the search or the status filter.")
                                : emptyText);
    };
    connect(m_search, &QLineEdit::textChanged, empty, emptyBecause);
    connect(m_statusFilter, &QComboBox::currentIndexChanged, empty, emptyBecause);
    splitter->addWidget(m_table);
    splitter->addWidget(buildDetail());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    rightLayout->addWidget(splitter, 1);
    return right;
}

// The jobs table's right-click menu: the detail's copy buttons, resubmission, and each of the
// selected job's artifacts to download.
void ProofJobsPage::addJobRowMenu() {
    addRowMenu(m_table,
               {{tr("Copy id"), findChild<QPushButton*>(QStringLiteral("copyQueryIdPushButton"))},
                {tr("Copy as curl"), m_copyCurl},
                {tr("Copy the fact hash"),
                 findChild<QPushButton*>(QStringLiteral("copyFactHashPushButton"))},
                {tr("Submit again"), m_resubmit}},
               [this](QMenu* menu) {
                   // The selected query's artifacts, each to download; listed as the submenu opens,
                   // as they load after the row is selected.
                   QMenu* artifacts = menu->addMenu(tr("Download artifact"));
                   artifacts->setObjectName(QStringLiteral("downloadArtifactMenu"));
                   connect(artifacts, &QMenu::aboutToShow, this, [this, artifacts] {
                       artifacts->clear();
                       for (int row = 0; row < m_artifacts->count(); ++row) {
                           QAction* download =
                               artifacts->addAction(m_artifacts->item(row)->text() + tr("…"));
                           connect(download, &QAction::triggered, this, [this, row] {
                               m_artifacts->setCurrentRow(row);
                               downloadSelectedArtifact();
                           });
                       }
                       if (artifacts->isEmpty()) {
                           artifacts->addAction(tr("(none yet)"))->setEnabled(false);
                       }
                   });
               });
}

void ProofJobsPage::addJobAction(const QString& text, const char* objectName,
                                 const QKeySequence& shortcut, std::function<void()> run) {
    auto* action = new QAction(text, this);
    action->setObjectName(QLatin1String(objectName));
    action->setShortcut(shortcut);
    action->setEnabled(isVisible());
    connect(action, &QAction::triggered, this, [this, run = std::move(run)] {
        if (isVisible()) {
            run();
        }
    });
    m_jobActions.push_back(action);
}

void ProofJobsPage::pressIfAvailable(QPushButton* button) {
    if (button && button->isVisible() && button->isEnabled()) {
        button->click();
    }
}

void ProofJobsPage::selectProofArtifactIfNone() {
    if (m_artifacts->currentItem()) {
        return;
    }
    const QList<QListWidgetItem*> proofs =
        m_artifacts->findItems(QStringLiteral("proof.json"), Qt::MatchExactly);
    if (!proofs.isEmpty()) {
        m_artifacts->setCurrentItem(proofs.first());
    }
}

void ProofJobsPage::setPollInterval(int milliseconds) {
    m_poll.setInterval(milliseconds);
}

void ProofJobsPage::setSaveLocationProvider(std::function<QString(const QString&)> provider) {
    m_saveLocation = std::move(provider);
}

void ProofJobsPage::useProgramHash(const QString& programHash) {
    m_kind->setCurrentIndex(static_cast<int>(Kind::CoreQuery));
    m_programPath->clear();
    m_programHash->setText(programHash);
}

void ProofJobsPage::useBucket(const QString& bucketId) {
    m_kind->setCurrentIndex(static_cast<int>(Kind::CoreQuery));
    m_bucketId->setText(bucketId);
}

void ProofJobsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The Job menu's shortcuts are this page's: elsewhere they are free for the other pages'
    // tables (their Ctrl+Shift+I copies their own row's id).
    for (QAction* action : std::as_const(m_jobActions)) {
        action->setEnabled(true);
    }
    refresh();
}

void ProofJobsPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    for (QAction* action : std::as_const(m_jobActions)) {
        action->setEnabled(false);
    }
    m_poll.stop(); // poll only what is visible
}

void ProofJobsPage::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile()) {
        event->acceptProposedAction();
    }
}

void ProofJobsPage::dropEvent(QDropEvent* event) {
    const QString path = event->mimeData()->urls().first().toLocalFile();
    const bool input = QFileInfo(path).fileName().contains(QStringLiteral("input"));
    (input && m_inputPath->isVisible() ? m_inputPath : m_programPath)->setText(path);
    event->acceptProposedAction();
}

void ProofJobsPage::refresh() {
    if (m_inFlight) {
        return;
    }
    m_inFlight = true;
    const int generation = m_keyGeneration;
    m_client->listQueries(100, m_search->text().trimmed(), this, [this, generation](auto result) {
        if (generation != m_keyGeneration) {
            return; // asked with the key before the last switch
        }
        m_inFlight = false;
        auto* error = std::get_if<client::ApiError>(&result);
        if (error) {
            showBanner(m_banner, tr("Could not load the proof jobs: %1").arg(error->message()));
        } else {
            clearPollError(m_banner, tr("Could not load"));
            m_model->update(std::get<client::QueryPage>(result).queries);
            selectSubmittedJob();
            noticeFinishedJobs();
            if (currentQueryId().isEmpty() && !m_artifactsFor.isEmpty()) {
                clearDetail(); // the shown query left the list (search, filter)
            }
        }
        m_poll.answered(error != nullptr);
    });
}

void ProofJobsPage::keyChanged() {
    ++m_keyGeneration;
    m_inFlight = false;
    m_watched.clear();
    m_selectWhenListed.clear();
    m_bucketId->clear();
    clearDetail();
    m_model->update({});
    if (isVisible()) {
        refresh();
    }
}

void ProofJobsPage::noticeFinishedJobs() {
    for (auto it = m_watched.begin(); it != m_watched.end();) {
        const api::ProofQuery* query = m_model->queryAt(m_model->rowOf(it->toStdString()));
        if (query && api::isTerminalStatus(query->status)) {
            const QString id = *it;
            it = m_watched.erase(it);
            emit jobFinished(id, QString::fromStdString(query->status),
                             QString::fromStdString(query->errorReason.value_or(std::string())));
        } else {
            ++it;
        }
    }
}

void ProofJobsPage::copyFormAsCurl() {
    FormError error;
    const auto submission = buildSubmission(&error);
    if (!submission) {
        showBanner(m_banner, error.message, error.field);
        return;
    }
    showBanner(m_banner, {});
    QApplication::clipboard()->setText(
        client::curlCommand(m_client->baseUrl(), *submission, m_client->apiKey()));
}

void ProofJobsPage::submit() {
    FormError error;
    const auto submission = buildSubmission(&error);
    if (!submission) {
        showBanner(m_banner, error.message, error.field);
        return;
    }
    send(*submission, m_submit, [this] { m_dedupId->clear(); });
}

// Submits and watches the new query; `button` is disabled while the request is out.
void ProofJobsPage::send(const client::Submission& submission, QPushButton* button,
                         const std::function<void()>& accepted) {
    button->setEnabled(false);
    m_client->submit(submission, this, [this, submission, button, accepted](auto result) {
        button->setEnabled(true);
        if (auto* failure = std::get_if<client::ApiError>(&result)) {
            showBanner(m_banner, tr("The submission was refused: %1").arg(failure->message()));
            if (failure->code.startsWith(QLatin1String("CAIRO_VM_PYTHON_"))) {
                m_pythonHintsRefused = true; // turned off or unavailable on this server
            }
            m_refusedForHints = m_pythonHintsRefused || !client::needsPythonHints(failure->code)
                                    ? std::nullopt
                                    : client::withPythonHints(submission);
            m_submitWithPython->setVisible(m_refusedForHints.has_value());
            showSelected();
            return;
        }
        showBanner(m_banner, {});
        m_refusedForHints.reset();
        m_submitWithPython->setVisible(false);
        const QString id = std::get<QString>(result);
        m_submitted.insert(id, submission);
        m_watched.insert(id);
        m_selectWhenListed = id; // its detail follows it from the next list on
        if (accepted) {
            accepted();
        }
        refresh();
    });
}

void ProofJobsPage::selectSubmittedJob() {
    if (m_selectWhenListed.isEmpty()) {
        return;
    }
    const int row = m_model->rowOf(m_selectWhenListed.toStdString());
    if (row < 0) {
        return; // not listed yet (or filtered out): the next list tries again
    }
    const QModelIndex shown = m_filter->mapFromSource(m_model->index(row, 0));
    if (shown.isValid()) {
        m_table->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
    }
    m_selectWhenListed.clear();
}

QString ProofJobsPage::currentQueryId() const {
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(models::ProofQueryModel::QueryIdRole).toString()
                             : QString();
}

void ProofJobsPage::resubmitSelected() {
    const auto found = m_submitted.constFind(currentQueryId());
    if (found != m_submitted.constEnd()) {
        send(*found, m_resubmit, {});
    }
}

} // namespace proofdesk::ui
