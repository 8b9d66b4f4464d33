#include "ProofJobsPage.h"

#include "JsonView.h"
#include "PageParts.h"
#include "ProofRecordText.h"
#include "client/ProofFileVerifier.h"
#include "models/ProofQueryModel.h"
#include "models/ValueReading.h"

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
namespace {

bool isProofArtifact(const QString& fileName) {
    return fileName.endsWith(QStringLiteral("proof.json"));
}

} // namespace

ProofJobsPage::ProofJobsPage(client::ProofClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_model(new models::ProofQueryModel(this)),
      m_filter(new QSortFilterProxyModel(this)), m_poll(this, [this] { refresh(); }) {
    setObjectName(QStringLiteral("proofJobsPageWidget"));
    m_localVerifier = new client::ProofFileVerifier(this);
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
    formScroll->setMinimumWidth(formScroll->widget()->sizeHint().width() + 24);
    columns->addWidget(formScroll);

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
    columns->addWidget(right);
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

QWidget* ProofJobsPage::buildDetail() {
    auto* detail = new QWidget;
    auto* layout = new QVBoxLayout(detail);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* titleRow = new QHBoxLayout;
    m_detailTitle = new ElidedLabel(tr("Select a query to see its steps, hashes and artifacts."));
    m_detailTitle->setObjectName(QStringLiteral("queryTitleLabel"));
    QFont titleFont = m_detailTitle->font();
    titleFont.setBold(true);
    m_detailTitle->setFont(titleFont);
    m_detailTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titleRow->addWidget(m_detailTitle, 1);
    titleRow->addWidget(
        copyButton(QStringLiteral("copyQueryIdPushButton"), [this] { return currentQueryId(); }));
    m_copyCurl = new QPushButton(tr("Copy as curl"));
    m_copyCurl->setObjectName(QStringLiteral("copyQueryCurlPushButton"));
    m_copyCurl->setEnabled(false);
    titleRow->addWidget(m_copyCurl);
    m_resubmit = new QPushButton(tr("Submit again"));
    m_resubmit->setObjectName(QStringLiteral("resubmitQueryPushButton"));
    m_resubmit->setToolTip(tr("Sends the same submission again as a new query"));
    m_resubmit->setVisible(false);
    titleRow->addWidget(m_resubmit);
    m_resubmitWithPython = new QPushButton(tr("Submit again with Python hints"));
    m_resubmitWithPython->setObjectName(QStringLiteral("resubmitWithPythonHintsPushButton"));
    m_resubmitWithPython->setToolTip(
        tr("A hint of this program has no native implementation: sends the submission again "
           "with cairoVm=python, so the server runs it as Python"));
    m_resubmitWithPython->setVisible(false);
    titleRow->addWidget(m_resubmitWithPython);
    layout->addLayout(titleRow);
    m_timeline = new QLabel;
    m_timeline->setObjectName(QStringLiteral("stepsTimelineLabel"));
    m_timeline->setTextFormat(Qt::RichText);
    m_timeline->setWordWrap(true); // never widens the window
    layout->addWidget(m_timeline);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("proofProgressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    auto* factRow = new QHBoxLayout;
    m_factHash = new ElidedLabel;
    m_factHash->setObjectName(QStringLiteral("factHashLabel"));
    m_factHash->setTextInteractionFlags(Qt::TextSelectableByMouse);
    factRow->addWidget(m_factHash, 1);
    factRow->addWidget(copyButton(QStringLiteral("copyFactHashPushButton"), [this] {
        const api::ProofQuery* query =
            m_model->queryAt(m_model->rowOf(currentQueryId().toStdString()));
        return query && query->sharpFactHash ? QString::fromStdString(*query->sharpFactHash)
                                             : QString();
    }));
    layout->addLayout(factRow);
    m_verification = new QLabel;
    m_verification->setObjectName(QStringLiteral("verificationLabel"));
    m_verification->setTextFormat(Qt::RichText);
    m_verification->setVisible(false);
    layout->addWidget(m_verification);
    m_output = new QLabel;
    m_output->setObjectName(QStringLiteral("programOutputLabel"));
    m_output->setWordWrap(true);
    m_output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setVisible(false);
    layout->addWidget(m_output);
    m_proofInfo = new QLabel;
    m_proofInfo->setObjectName(QStringLiteral("proofInfoLabel"));
    m_proofInfo->setWordWrap(true);
    m_proofInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_proofInfo->setVisible(false);
    layout->addWidget(m_proofInfo);
    m_errorReason = errorBanner(QStringLiteral("errorReasonLabel"));
    layout->addWidget(m_errorReason);
    layout->addWidget(buildArtifactsPane(), 1);

    connect(m_localVerifier, &client::ProofFileVerifier::verified, this,
            &ProofJobsPage::showLocalVerdict);
    connect(m_resubmit, &QPushButton::clicked, this, &ProofJobsPage::resubmitSelected);
    connect(m_resubmitWithPython, &QPushButton::clicked, this, [this] {
        const auto found = m_submitted.constFind(currentQueryId());
        if (found == m_submitted.constEnd()) {
            return;
        }
        if (const auto python = client::withPythonHints(*found)) {
            send(*python, m_resubmitWithPython, {});
        }
    });
    connect(m_copyCurl, &QPushButton::clicked, this, [this] {
        const auto found = m_submitted.constFind(currentQueryId());
        if (found != m_submitted.constEnd()) {
            QApplication::clipboard()->setText(
                client::curlCommand(m_client->baseUrl(), *found, m_client->apiKey()));
        }
    });
    return detail;
}

// The lower half of the detail: the artifacts with Download and Verify, beside the record.
QWidget* ProofJobsPage::buildArtifactsPane() {
    auto* lower = new QSplitter;
    lower->setObjectName(QStringLiteral("proofJobDetailSplitter"));
    auto* artifactsBox = new QWidget;
    auto* artifactsLayout = new QVBoxLayout(artifactsBox);
    artifactsLayout->setContentsMargins(0, 0, 0, 0);
    artifactsLayout->addWidget(new QLabel(tr("Artifacts")));
    m_artifacts = new QListWidget;
    m_artifacts->setObjectName(QStringLiteral("artifactsListWidget"));
    m_artifacts->setAccessibleName(tr("Artifacts"));
    artifactsLayout->addWidget(m_artifacts, 1);
    m_download = new QPushButton(tr("Download…"));
    m_download->setObjectName(QStringLiteral("downloadArtifactPushButton"));
    m_download->setEnabled(false);
    m_verifyArtifact = new QPushButton(tr("Verify proof"));
    m_verifyArtifact->setObjectName(QStringLiteral("verifyArtifactPushButton"));
    m_verifyArtifact->setToolTip(
        tr("Fetches the proof and checks it here with Proofdesk's own STARK verifier"));
    m_verifyArtifact->setEnabled(false);
    auto* artifactButtons = new QHBoxLayout;
    artifactButtons->addWidget(m_download);
    artifactButtons->addWidget(m_verifyArtifact);
    artifactsLayout->addLayout(artifactButtons);
    lower->addWidget(artifactsBox);
    m_detail = new JsonView;
    m_detail->setObjectName(QStringLiteral("queryRecordJsonView"));
    m_detail->setAccessibleName(tr("Query record"));
    m_detail->setToolTip(tr("The selected query's record; right-click to copy a value or all"));
    lower->addWidget(m_detail);
    lower->setStretchFactor(1, 1);

    connect(m_artifacts, &QListWidget::currentRowChanged, this, [this](int row) {
        m_download->setEnabled(row >= 0);
        m_verifyArtifact->setEnabled(row >= 0 && !m_localVerifier->busy() &&
                                     isProofArtifact(m_artifacts->item(row)->text()));
    });
    connect(m_verifyArtifact, &QPushButton::clicked, this, &ProofJobsPage::verifySelectedArtifact);
    connect(m_artifacts, &QListWidget::itemDoubleClicked, this,
            &ProofJobsPage::downloadSelectedArtifact);
    connect(m_download, &QPushButton::clicked, this, &ProofJobsPage::downloadSelectedArtifact);
    return lower;
}

ProofJobsPage::~ProofJobsPage() = default;

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
    refresh();
}

void ProofJobsPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
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
    m_client->listQueries(100, m_search->text().trimmed(), this, [this](auto result) {
        m_inFlight = false;
        auto* error = std::get_if<client::ApiError>(&result);
        if (error) {
            showBanner(m_banner, tr("Could not load the proof jobs: %1").arg(error->message()));
        } else {
            clearPollError(m_banner, tr("Could not load"));
            m_model->update(std::get<client::QueryPage>(result).queries);
            noticeFinishedJobs();
            if (currentQueryId().isEmpty() && !m_artifactsFor.isEmpty()) {
                clearDetail(); // the shown query left the list (search, filter)
            }
        }
        m_poll.answered(error != nullptr);
    });
}

void ProofJobsPage::noticeFinishedJobs() {
    for (auto it = m_watched.begin(); it != m_watched.end();) {
        const api::ProofQuery* query = m_model->queryAt(m_model->rowOf(it->toStdString()));
        if (query && api::isTerminalStatus(query->status)) {
            const QString id = *it;
            it = m_watched.erase(it);
            emit jobFinished(id, QString::fromStdString(query->status));
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
        if (accepted) {
            accepted();
        }
        refresh();
    });
}

QString ProofJobsPage::currentQueryId() const {
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(models::ProofQueryModel::QueryIdRole).toString()
                             : QString();
}

void ProofJobsPage::showSelected() {
    const QString id = currentQueryId();
    const api::ProofQuery* query =
        id.isEmpty() ? nullptr : m_model->queryAt(m_model->rowOf(id.toStdString()));
    if (!query) {
        clearDetail(); // nothing selected, or the selected query is filtered out
        return;
    }
    m_detailTitle->setText(
        tr("%1 — %2, %3")
            .arg(id, QString::fromStdString(query->result), QString::fromStdString(query->status)));
    m_timeline->setText(stepsTimelineText(*query));
    m_factHash->setText(factHashText(*query));
    showBanner(m_errorReason,
               query->errorReason ? QString::fromStdString(*query->errorReason) : QString());
    m_copyCurl->setEnabled(m_submitted.contains(id));
    m_resubmit->setVisible(query->status == "FAILED" && m_submitted.contains(id));
    m_resubmitWithPython->setVisible(
        query->status == "FAILED" && m_submitted.contains(id) && !m_pythonHintsRefused &&
        query->errorReason &&
        client::needsPythonHints(QString::fromStdString(*query->errorReason)) &&
        client::withPythonHints(m_submitted.value(id)).has_value());
    showProgress(*query);
    m_detail->setJson(api::toJson(*query));
    if (m_artifactsFor != id ||
        (api::isTerminalStatus(query->status) && m_artifacts->count() == 0)) {
        loadArtifacts(id);
    }
}

void ProofJobsPage::clearDetail() {
    m_detailTitle->setText(tr("Select a query to see its steps, hashes and artifacts."));
    m_timeline->clear();
    m_factHash->clear();
    m_progress->setVisible(false);
    m_verification->setVisible(false);
    m_output->setVisible(false);
    m_proofInfo->setVisible(false);
    showBanner(m_errorReason, {});
    m_copyCurl->setEnabled(false);
    m_resubmit->setVisible(false);
    m_resubmitWithPython->setVisible(false);
    m_detail->clearJson();
    m_artifactsFor.clear();
    m_artifacts->clear();
    m_download->setEnabled(false);
    m_verifyArtifact->setEnabled(false);
}

void ProofJobsPage::loadArtifacts(const QString& queryId) {
    m_artifactsFor = queryId;
    m_artifacts->clear();
    m_download->setEnabled(false);
    m_verification->setVisible(false);
    m_output->setVisible(false);
    m_proofInfo->setVisible(false);
    m_verifyArtifact->setEnabled(false);
    m_client->coreQuery(queryId, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        for (const std::string& url : std::get<api::CoreQueryResponse>(answer).metadataUrls) {
            auto* item = new QListWidgetItem(QUrl(QString::fromStdString(url)).fileName());
            item->setData(Qt::UserRole, QString::fromStdString(url));
            item->setToolTip(QString::fromStdString(url));
            m_artifacts->addItem(item);
            if (item->text() == QStringLiteral("verification.json")) {
                showVerification(queryId, QUrl(QString::fromStdString(url)));
            } else if (item->text() == QStringLiteral("metadata.json")) {
                showProofMetadata(queryId, QUrl(QString::fromStdString(url)));
            } else if (item->text() == QStringLiteral("output.json")) {
                showProgramOutput(queryId, QUrl(QString::fromStdString(url)));
            }
        }
    });
}

void ProofJobsPage::showVerification(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        m_verification->setText(serverVerdictText(std::get<nlohmann::json>(answer)));
        m_verification->setVisible(true);
    });
}

// output.json holds the program's output as hex field elements: shown as cairo-run prints them.
void ProofJobsPage::showProgramOutput(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        const nlohmann::json& output = std::get<nlohmann::json>(answer);
        if (!output.is_array()) {
            return;
        }
        QStringList values;
        for (const nlohmann::json& value : output) {
            const QString hex =
                value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
            const QString decimal = models::feltToDecimal(hex);
            values << (decimal.isEmpty() ? hex : decimal);
        }
        m_output->setText(values.isEmpty()
                              ? tr("Output: none")
                              : tr("Output: %1").arg(values.join(QStringLiteral(", "))));
        m_output->setToolTip(tr("The program's output, as cairo-run prints it (output.json holds "
                                "it in hex)"));
        m_output->setVisible(true);
    });
}

void ProofJobsPage::downloadSelectedArtifact() {
    QListWidgetItem* item = m_artifacts->currentItem();
    if (!item) {
        return;
    }
    const QUrl url(item->data(Qt::UserRole).toString());
    const QString path = m_saveLocation(m_artifactsFor + QLatin1Char('-') + url.fileName());
    if (path.isEmpty()) {
        return;
    }
    m_download->setEnabled(false);
    m_client->download(url, path, this, [this, path](auto answer) {
        m_download->setEnabled(m_artifacts->currentRow() >= 0);
        if (auto* failure = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The download failed: %1").arg(failure->message()));
            return;
        }
        showBanner(m_banner, {});
        emit artifactSaved(path, std::get<qint64>(answer));
    });
}

void ProofJobsPage::showProgress(const api::ProofQuery& query) {
    if (!query.proofProgress || api::isTerminalStatus(query.status)) {
        m_progress->setVisible(false);
        return;
    }
    const api::ProofProgress& progress = *query.proofProgress;
    m_progress->setValue(int(std::clamp(progress.fraction, 0.0, 1.0) * 1000));
    const QString text = progressText(progress);
    // QProgressBar's format takes %p and friends; a literal percent sign is doubled.
    m_progress->setFormat(QString(text).replace(QLatin1Char('%'), QStringLiteral("%%")));
    m_progress->setToolTip(text);
    m_progress->setVisible(true);
}

void ProofJobsPage::showProofMetadata(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        const nlohmann::json& metadata = std::get<nlohmann::json>(answer);
        const auto proof = metadata.find("proof");
        if (proof == metadata.end() || !proof->is_object()) {
            return;
        }
        m_proofInfo->setText(proofOriginText(*proof));
        m_proofInfo->setVisible(true);
    });
}

void ProofJobsPage::verifySelectedArtifact() {
    QListWidgetItem* item = m_artifacts->currentItem();
    if (!item || m_localVerifier->busy()) {
        return;
    }
    if (!m_downloads) {
        m_downloads = std::make_unique<QTemporaryDir>();
    }
    if (!m_downloads->isValid()) {
        showBanner(m_banner, tr("Could not create a temporary folder for the proof: %1")
                                 .arg(m_downloads->errorString()));
        return;
    }
    const QUrl url(item->data(Qt::UserRole).toString());
    const QString queryId = m_artifactsFor;
    const QString path = m_downloads->filePath(queryId + QLatin1Char('-') + url.fileName());
    m_verifyArtifact->setEnabled(false);
    m_verification->setText(tr("Fetching and verifying %1…").arg(url.fileName()));
    m_verification->setVisible(true);
    m_client->download(url, path, this, [this, path, queryId](auto answer) {
        if (auto* failure = std::get_if<client::ApiError>(&answer)) {
            m_verifyArtifact->setEnabled(true);
            showBanner(m_banner, tr("Could not fetch the proof: %1").arg(failure->message()));
            m_verification->setVisible(false);
            return;
        }
        m_verifyingFor = queryId;
        m_localVerifier->verify(path);
    });
}

void ProofJobsPage::showLocalVerdict(const nlohmann::json& verdict) {
    QListWidgetItem* item = m_artifacts->currentItem();
    m_verifyArtifact->setEnabled(item && isProofArtifact(item->text()));
    if (m_verifyingFor != m_artifactsFor) {
        return; // another query is shown by now
    }
    m_verification->setText(localVerdictText(verdict));
    m_verification->setVisible(true);
}

void ProofJobsPage::resubmitSelected() {
    const auto found = m_submitted.constFind(currentQueryId());
    if (found != m_submitted.constEnd()) {
        send(*found, m_resubmit, {});
    }
}

} // namespace proofdesk::ui
