#include "DataRequestsPage.h"

#include "ActionDagView.h"
#include "ChainIds.h"
#include "JsonView.h"
#include "PageParts.h"
#include "client/RequestClient.h"
#include "models/RequestModels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace proofdesk::ui {
namespace {

const QString kRecentKey = QStringLiteral("console/recentRequests");

QStringList splitList(const QString& text) {
    QStringList out;
    for (const QString& part :
         text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        out << part.trimmed();
    }
    return out;
}

nlohmann::json stringArray(const QStringList& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const QString& item : list) {
        out.push_back(item.toStdString());
    }
    return out;
}

} // namespace

DataRequestsPage::DataRequestsPage(client::RequestClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_queries(new models::RequestQueryModel(this)),
      m_actions(new models::RequestActionModel(this)), m_values(new models::ProvenValueModel(this)),
      m_poll(this, [this] { refresh(); }) {
    setObjectName(QStringLiteral("dataRequestsPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Data requests")));
    m_banner = errorBanner(QStringLiteral("dataRequestsErrorBannerLabel"), this);

    auto* top = new QSplitter;
    top->setObjectName(QStringLiteral("dataRequestFormSplitter"));
    top->addWidget(buildForm());
    top->addWidget(buildJsonPane());
    top->setSizes({520, 520});

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("dataRequestsSplitter"));
    splitter->addWidget(top);
    splitter->addWidget(buildResults());
    splitter->setSizes({420, 330}); // the form first: it is what the page is for
    layout->addWidget(splitter, 1);
    submitOnEnter(findChild<QWidget*>(QStringLiteral("dataRequestFormWidget")), m_submit);

    rebuildJson();
}

// The request's form: chains, blocks, header fields, accounts, hashing and settings; each change
// rewrites the JSON (until it is edited by hand).
QWidget* DataRequestsPage::buildForm() {
    auto* formWidget = new QWidget;
    formWidget->setObjectName(QStringLiteral("dataRequestFormWidget"));
    auto* form = new QFormLayout(formWidget);
    m_origin = new QComboBox;
    m_origin->setObjectName(QStringLiteral("originChainComboBox"));
    fillChainComboBox(m_origin, provableChainIds(), QStringLiteral("11155111"));
    form->addRow(tr("Origin chain"), m_origin);
    m_destination = new QComboBox;
    m_destination->setObjectName(QStringLiteral("destinationChainComboBox"));
    fillChainComboBox(m_destination, allChainIds(), QStringLiteral("11155111"));
    form->addRow(tr("Destination chain"), m_destination);
    auto* selector = new QHBoxLayout;
    m_selectorKind = new QComboBox;
    m_selectorKind->setObjectName(QStringLiteral("selectorKindComboBox"));
    m_selectorKind->addItem(tr("Block"), QStringLiteral("block"));
    m_selectorKind->addItem(tr("Block ranges"), QStringLiteral("block_ranges"));
    m_selectorKind->addItem(tr("Timestamp"), QStringLiteral("timestamp"));
    m_selectorValue = new QLineEdit;
    m_selectorValue->setObjectName(QStringLiteral("selectorValueLineEdit"));
    m_selectorValue->setAccessibleName(tr("Blocks"));
    m_selectorValue->setPlaceholderText(tr("e.g. 5; ranges 1-3,7; a unix time"));
    selector->addWidget(m_selectorKind);
    selector->addWidget(m_selectorValue, 1);
    form->addRow(tr("Blocks"), selector);
    m_headerFields = new QListWidget;
    m_headerFields->setObjectName(QStringLiteral("headerFieldsListWidget"));
    m_headerFields->setAccessibleName(tr("Header fields"));
    for (const QString& field : toStringList(api::request_enums::kBlockHeaderFields)) {
        auto* item = new QListWidgetItem(field, m_headerFields);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_headerFields->setMaximumHeight(120);
    form->addRow(tr("Header fields"), m_headerFields);
    m_accounts = new QTableWidget(0, 3);
    m_accounts->setObjectName(QStringLiteral("accountsTableWidget"));
    m_accounts->setAccessibleName(tr("Accounts"));
    m_accounts->setHorizontalHeaderLabels({tr("Account"), tr("Properties"), tr("Slots")});
    m_accounts->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_accounts->verticalHeader()->hide();
    m_accounts->setMaximumHeight(110);
    m_accounts->setToolTip(tr("Properties: Nonce, Balance, StorageRoot, CodeHash (empty: all "
                              "four). Slots: hex keys, separated by commas."));
    auto* accountButtons = new QHBoxLayout;
    auto* addAccount = new QPushButton(tr("Add account"));
    addAccount->setObjectName(QStringLiteral("addAccountPushButton"));
    auto* removeAccount = new QPushButton(tr("Remove"));
    removeAccount->setObjectName(QStringLiteral("removeAccountPushButton"));
    accountButtons->addWidget(addAccount);
    accountButtons->addWidget(removeAccount);
    accountButtons->addStretch(1);
    auto* accountBox = new QVBoxLayout;
    accountBox->addWidget(m_accounts);
    accountBox->addLayout(accountButtons);
    form->addRow(tr("Accounts"), accountBox);
    auto* hashing = new QHBoxLayout;
    m_keccak = new QCheckBox(QStringLiteral("KECCAK"));
    m_keccak->setObjectName(QStringLiteral("keccakCheckBox"));
    m_poseidon = new QCheckBox(QStringLiteral("POSEIDON"));
    m_poseidon->setObjectName(QStringLiteral("poseidonCheckBox"));
    hashing->addWidget(m_keccak);
    hashing->addWidget(m_poseidon);
    hashing->addStretch(1);
    auto* hashingBox = new QVBoxLayout;
    hashingBox->addLayout(hashing);
    auto* hashingHint = new QLabel(tr("None: chosen for the destination."));
    hashingHint->setWordWrap(true);
    hashingBox->addWidget(hashingHint);
    form->addRow(tr("Hashing"), hashingBox);
    m_settings = new QGroupBox(tr("Settings"));
    m_settings->setObjectName(QStringLiteral("requestSettingsGroupBox"));
    m_settings->setCheckable(true);
    m_settings->setChecked(false);
    auto* settingsForm = new QFormLayout(m_settings);
    m_maxCost = new QDoubleSpinBox;
    m_maxCost->setObjectName(QStringLiteral("maxCostDoubleSpinBox"));
    m_maxCost->setRange(0, 1e9);
    m_maxCost->setValue(1);
    settingsForm->addRow(tr("Max cost"), m_maxCost);
    m_maxTime = new QDoubleSpinBox;
    m_maxTime->setObjectName(QStringLiteral("maxTimeDoubleSpinBox"));
    m_maxTime->setRange(0, 1e9);
    m_maxTime->setValue(600);
    m_maxTime->setSuffix(tr(" s"));
    settingsForm->addRow(tr("Max time"), m_maxTime);
    m_optimize = new QComboBox;
    m_optimize->setObjectName(QStringLiteral("optimizeComboBox"));
    m_optimize->addItems({QStringLiteral("Time"), QStringLiteral("Cost")});
    settingsForm->addRow(tr("Optimize"), m_optimize);
    form->addRow(m_settings);
    // The form scrolls vertically only (issue #47: it had two scrollbars): it is as wide as its
    // narrowest layout, its labels above their fields when the window is narrow.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    letChoicesShrink(formWidget);
    auto* formScroll = new QScrollArea;
    formScroll->setWidget(formWidget);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    formScroll->setMinimumWidth(formWidget->minimumSizeHint().width() +
                                formScroll->verticalScrollBar()->sizeHint().width());

    // Live JSON: every form change rewrites it, until the user edits the JSON by hand.
    const auto changed = [this] { rebuildJson(); };
    connect(m_origin, &QComboBox::currentTextChanged, this, changed);
    connect(m_destination, &QComboBox::currentTextChanged, this, changed);
    connect(m_selectorKind, &QComboBox::currentIndexChanged, this, changed);
    connect(m_selectorValue, &QLineEdit::textChanged, this, changed);
    connect(m_headerFields, &QListWidget::itemChanged, this, changed);
    connect(m_accounts, &QTableWidget::itemChanged, this, changed);
    connect(m_keccak, &QCheckBox::toggled, this, changed);
    connect(m_poseidon, &QCheckBox::toggled, this, changed);
    connect(m_settings, &QGroupBox::toggled, this, changed);
    connect(m_maxCost, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_maxTime, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_optimize, &QComboBox::currentTextChanged, this, changed);
    connect(addAccount, &QPushButton::clicked, this, &DataRequestsPage::addAccountRow);
    connect(removeAccount, &QPushButton::clicked, this, [this] {
        m_accounts->removeRow(m_accounts->currentRow() >= 0 ? m_accounts->currentRow()
                                                            : m_accounts->rowCount() - 1);
        rebuildJson();
    });
    return formScroll;
}

// The request's JSON, as it will be sent, with Rebuild, Copy as curl and Submit.
QWidget* DataRequestsPage::buildJsonPane() {
    auto* jsonWidget = new QWidget;
    auto* jsonLayout = new QVBoxLayout(jsonWidget);
    jsonLayout->setContentsMargins(0, 0, 0, 0);
    m_json = new QPlainTextEdit;
    m_json->setObjectName(QStringLiteral("requestJsonPlainTextEdit"));
    m_json->setAccessibleName(tr("Request JSON"));
    m_json->setFont(QFont(QStringLiteral("monospace")));
    m_jsonState = new QLabel(tr("Built from the form; edit it to send something else."));
    m_jsonState->setObjectName(QStringLiteral("requestJsonStateLabel"));
    m_jsonState->setWordWrap(true);
    auto* jsonButtons = new QHBoxLayout;
    auto* rebuild = new QPushButton(tr("Rebuild from form"));
    rebuild->setObjectName(QStringLiteral("rebuildJsonPushButton"));
    m_submit = new QPushButton(tr("Submit request"));
    m_submit->setObjectName(QStringLiteral("submitRequestPushButton"));
    markPrimaryAction(m_submit);
    m_submit->setDefault(true);
    // Two rows, so that the pane stays narrow: the JSON's sources, then the actions.
    auto* sources = new QHBoxLayout;
    sources->addWidget(rebuild);
    auto* sample = new QPushButton(tr("Try the sample"));
    sample->setObjectName(QStringLiteral("trySampleRequestPushButton"));
    sample->setToolTip(tr("A ready request: three header fields of Sepolia block 1, Keccak"));
    sources->addWidget(sample);
    sources->addStretch(1);
    jsonButtons->addStretch(1);
    jsonButtons->addWidget(copyButton(QStringLiteral("copyRequestCurlPushButton"), [this] {
        const auto body =
            nlohmann::json::parse(m_json->toPlainText().toStdString(), nullptr, false);
        return body.is_discarded() ? QString() : m_client->curlCommand(body);
    }));
    jsonButtons->addWidget(m_submit);
    jsonLayout->addWidget(m_json, 1);
    jsonLayout->addWidget(m_jsonState);
    jsonLayout->addLayout(sources);
    jsonLayout->addLayout(jsonButtons);

    connect(m_json, &QPlainTextEdit::textChanged, this, [this] {
        if (m_writingJson) {
            return;
        }
        m_jsonEdited = true;
        m_jsonState->setText(tr("Edited by hand: the form no longer rewrites it (Rebuild from "
                                "form starts over)."));
    });
    connect(rebuild, &QPushButton::clicked, this, [this] {
        m_jsonEdited = false;
        m_jsonState->setText(tr("Built from the form; edit it to send something else."));
        rebuildJson();
    });
    connect(m_submit, &QPushButton::clicked, this, &DataRequestsPage::submit);
    connect(sample, &QPushButton::clicked, this, &DataRequestsPage::trySample);
    return jsonWidget;
}

void DataRequestsPage::trySample() {
    static const QStringList kSampleFields{
        QStringLiteral("ParentHash"), QStringLiteral("StateRoot"), QStringLiteral("Timestamp")};
    m_origin->setCurrentIndex(m_origin->findData(QStringLiteral("11155111")));
    m_destination->setCurrentIndex(m_destination->findData(QStringLiteral("11155111")));
    m_selectorKind->setCurrentIndex(m_selectorKind->findData(QStringLiteral("block")));
    m_selectorValue->setText(QStringLiteral("1"));
    for (int row = 0; row < m_headerFields->count(); ++row) {
        QListWidgetItem* item = m_headerFields->item(row);
        item->setCheckState(kSampleFields.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
    m_accounts->setRowCount(0);
    m_keccak->setChecked(true);
    m_poseidon->setChecked(false);
    m_settings->setChecked(false);
    m_jsonEdited = false;
    m_jsonState->setText(tr("Built from the form; edit it to send something else."));
    rebuildJson();
    m_submit->setFocus(Qt::OtherFocusReason);
}

// The requests sent (recent ones remembered), their queries with the action graph, the actions
// and the values delivered.
QWidget* DataRequestsPage::buildResults() {
    auto* requestsWidget = new QWidget;
    auto* requestsLayout = new QVBoxLayout(requestsWidget);
    requestsLayout->setContentsMargins(0, 0, 0, 0);
    requestsLayout->addWidget(new QLabel(tr("Requests")));
    m_requests = new QListWidget;
    m_requests->setObjectName(QStringLiteral("requestsListWidget"));
    m_requests->setAccessibleName(tr("Requests sent or opened"));
    requestsLayout->addWidget(m_requests, 1);
    auto* open = new QHBoxLayout;
    m_openId = new QLineEdit;
    m_openId->setObjectName(QStringLiteral("openRequestLineEdit"));
    m_openId->setAccessibleName(tr("Request id to open"));
    m_openId->setPlaceholderText(tr("request id"));
    auto* openButton = new QPushButton(tr("Open"));
    openButton->setObjectName(QStringLiteral("openRequestPushButton"));
    open->addWidget(m_openId, 1);
    open->addWidget(openButton);
    requestsLayout->addLayout(open);

    m_queryTable =
        recordTable(QStringLiteral("requestQueriesTableView"), tr("Queries of the request"),
                    m_queries, models::RequestQueryModel::IdColumn);
    showWhenEmpty(m_queryTable,
                  tr("No data requests yet. Fill in the form, or press Try the sample, then "
                     "Submit request. The origin chain needs its RPC URL in Settings."));
    m_dag = new ActionDagView;
    auto* dagScroll = new QScrollArea;
    dagScroll->setWidget(m_dag);
    dagScroll->setWidgetResizable(true);
    // Small enough for an 800×600 window (issue #47); the splitter gives it more when there is.
    dagScroll->setMinimumHeight(100);
    m_actionTable =
        recordTable(QStringLiteral("requestActionsTableView"), tr("Actions of the query"),
                    m_actions, models::RequestActionModel::OutcomeColumn);
    m_valueTable = recordTable(QStringLiteral("provenValuesTableView"), tr("Proven values"),
                               m_values, models::ProvenValueModel::ValueColumn);
    auto* valuesWidget = new QWidget;
    auto* valuesLayout = new QVBoxLayout(valuesWidget);
    valuesLayout->setContentsMargins(0, 0, 0, 0);
    auto* valueButtons = new QHBoxLayout;
    valueButtons->addWidget(new QLabel(tr("Values delivered to the destination's registry")));
    valueButtons->addStretch(1);
    auto* copyValue = copyButton(QStringLiteral("copyProvenValuePushButton"), [this] {
        const QModelIndex current = m_valueTable->currentIndex();
        return current.isValid()
                   ? m_values->index(current.row(), models::ProvenValueModel::ValueColumn)
                         .data()
                         .toString()
                   : QString();
    });
    valueButtons->addWidget(copyValue);
    valuesLayout->addLayout(valueButtons);
    valuesLayout->addWidget(m_valueTable, 1);
    addRowMenu(m_valueTable,
               {{tr("Copy value"), copyValue, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)}});
    // The queries with a caption and the selected one's id to copy, like the values below.
    auto* queriesWidget = new QWidget;
    auto* queriesLayout = new QVBoxLayout(queriesWidget);
    queriesLayout->setContentsMargins(0, 0, 0, 0);
    auto* queryButtons = new QHBoxLayout;
    queryButtons->addWidget(new QLabel(tr("Queries of the selected request")));
    queryButtons->addStretch(1);
    auto* copyQueryId = copyButton(QStringLiteral("copyRequestQueryIdPushButton"),
                                   [this] { return selectedQueryId(); });
    queryButtons->addWidget(copyQueryId);
    queriesLayout->addLayout(queryButtons);
    queriesLayout->addWidget(m_queryTable, 1);
    m_queryTable->setMinimumHeight(48); // the caption costs no height at 800×600 (issue #47)
    addRowMenu(m_queryTable, {{tr("Copy query id"), copyQueryId,
                               QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)}});
    auto* tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("requestDetailTabWidget"));
    // The selected action's whole record beside the table, as JSON is read.
    auto* actions = new QSplitter;
    actions->setObjectName(QStringLiteral("requestActionsSplitter"));
    actions->addWidget(m_actionTable);
    m_actionRecord = new JsonView;
    m_actionRecord->setObjectName(QStringLiteral("actionRecordJsonView"));
    m_actionRecord->setAccessibleName(tr("Action record"));
    actions->addWidget(m_actionRecord);
    actions->setStretchFactor(0, 3);
    actions->setStretchFactor(1, 2);
    connect(m_actionTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const api::RequestAction* action = m_actions->recordAt(current.row());
                if (action) {
                    m_actionRecord->setJson(*action);
                } else {
                    m_actionRecord->clearJson();
                }
            });
    tabs->addTab(actions, tr("Actions"));
    tabs->addTab(valuesWidget, tr("Proven values"));

    auto* queryDetail = new QSplitter(Qt::Vertical);
    queryDetail->setObjectName(QStringLiteral("requestQueryDetailSplitter"));
    queryDetail->addWidget(queriesWidget);
    queryDetail->addWidget(dagScroll);
    queryDetail->addWidget(tabs);
    queryDetail->setSizes({110, 200, 170});
    auto* bottom = new QSplitter;
    bottom->setObjectName(QStringLiteral("requestResultsSplitter"));
    bottom->addWidget(requestsWidget);
    bottom->addWidget(queryDetail);
    bottom->setSizes({260, 780});
    for (const QString& id : QSettings().value(kRecentKey).toStringList()) {
        m_requests->addItem(id);
    }

    connect(openButton, &QPushButton::clicked, this, [this] {
        if (!m_openId->text().trimmed().isEmpty()) {
            openRequest(m_openId->text().trimmed());
            m_openId->clear();
        }
    });
    connect(m_requests, &QListWidget::currentRowChanged, this, [this] {
        m_queries->update({});
        m_actions->update({});
        m_values->update({});
        m_dag->setActions({});
        refresh();
    });
    connect(m_queryTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DataRequestsPage::refreshQuery);
    return bottom;
}

void DataRequestsPage::addAccountRow() {
    const int row = m_accounts->rowCount();
    m_accounts->insertRow(row);
    m_accounts->setItem(row, 0, new QTableWidgetItem(QStringLiteral("0x")));
    m_accounts->setItem(row, 1, new QTableWidgetItem(QStringLiteral("Balance, Nonce")));
    m_accounts->setItem(row, 2, new QTableWidgetItem(QString()));
    m_accounts->setCurrentCell(row, 0);
    rebuildJson();
}

nlohmann::json DataRequestsPage::formRequest() const {
    nlohmann::json proving = nlohmann::json::object();
    QStringList header;
    for (int i = 0; i < m_headerFields->count(); ++i) {
        if (m_headerFields->item(i)->checkState() == Qt::Checked) {
            header << m_headerFields->item(i)->text();
        }
    }
    if (!header.isEmpty()) {
        proving["header"] = stringArray(header);
    }
    nlohmann::json accounts = nlohmann::json::object();
    for (int row = 0; row < m_accounts->rowCount(); ++row) {
        const auto text = [this, row](int column) {
            const QTableWidgetItem* item = m_accounts->item(row, column);
            return item ? item->text().trimmed() : QString();
        };
        if (text(0).isEmpty()) {
            continue;
        }
        nlohmann::json account = nlohmann::json::object();
        if (!splitList(text(1)).isEmpty()) {
            account["props"] = stringArray(splitList(text(1)));
        }
        if (!splitList(text(2)).isEmpty()) {
            account["slots"] = stringArray(splitList(text(2)));
        }
        accounts[text(0).toStdString()] = account;
    }
    if (!accounts.empty()) {
        proving["accounts"] = accounts;
    }
    QStringList hashing;
    if (m_keccak->isChecked()) {
        hashing << QStringLiteral("KECCAK");
    }
    if (m_poseidon->isChecked()) {
        hashing << QStringLiteral("POSEIDON");
    }
    if (!hashing.isEmpty()) {
        proving["hashing_functions"] = stringArray(hashing);
    }
    const QString selector = m_selectorKind->currentData().toString() + QLatin1Char(':') +
                             m_selectorValue->text().remove(QLatin1Char(' '));
    nlohmann::json body{
        {"destination_chain_id", chainIdOf(m_destination).toStdString()},
        {"data",
         {{chainIdOf(m_origin).toStdString(),
           {{"proving",
             {{selector.toStdString(), proving.empty() ? nlohmann::json(nullptr) : proving}}},
            {"fact_hashes", nlohmann::json::array()}}}}}};
    if (m_settings->isChecked()) {
        body["settings"] = {{"max_cost", m_maxCost->value()},
                            {"max_time", m_maxTime->value()},
                            {"optimize", m_optimize->currentText().toStdString()}};
    }
    return body;
}

void DataRequestsPage::rebuildJson() {
    if (m_jsonEdited) {
        return;
    }
    m_writingJson = true;
    m_json->setPlainText(QString::fromStdString(formRequest().dump(2)));
    m_writingJson = false;
}

void DataRequestsPage::openRequest(const QString& requestId) {
    const auto existing = m_requests->findItems(requestId, Qt::MatchExactly);
    if (existing.isEmpty()) {
        m_requests->insertItem(0, requestId);
        QStringList recent;
        for (int i = 0; i < std::min(m_requests->count(), 50); ++i) {
            recent << m_requests->item(i)->text();
        }
        QSettings().setValue(kRecentKey, recent);
        m_requests->setCurrentRow(0);
    } else {
        m_requests->setCurrentItem(existing.first());
    }
}

void DataRequestsPage::submit() {
    const auto body = nlohmann::json::parse(m_json->toPlainText().toStdString(), nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        showBanner(m_banner,
                   tr("The request JSON does not parse; fix it or rebuild it from the form."),
                   m_json);
        return;
    }
    m_submit->setEnabled(false);
    m_client->submit(body, this, [this](client::Result<QString> answer) {
        m_submit->setEnabled(true);
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The request was refused: %1").arg(error->message()));
            return;
        }
        showBanner(m_banner, {});
        openRequest(std::get<QString>(answer));
    });
}

void DataRequestsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void DataRequestsPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_poll.stop();
}

QString DataRequestsPage::selectedRequestId() const {
    const QListWidgetItem* item = m_requests->currentItem();
    return item ? item->text() : QString();
}

QString DataRequestsPage::selectedQueryId() const {
    const QModelIndex current = m_queryTable->currentIndex();
    const api::RequestQuery* query =
        current.isValid() ? m_queries->recordAt(current.row()) : nullptr;
    return query ? QString::fromStdString(query->internalId) : QString();
}

void DataRequestsPage::refresh() {
    const QString requestId = selectedRequestId();
    if (requestId.isEmpty() || m_inFlight) {
        m_poll.answered(false);
        return;
    }
    m_inFlight = true;
    m_client->queries(requestId, this, [this, requestId](auto answer) {
        m_inFlight = false;
        if (requestId != selectedRequestId()) {
            m_poll.answered(false);
            return;
        }
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not load the queries: %1").arg(error->message()));
            m_poll.answered(true);
            return;
        }
        clearPollError(m_banner, tr("Could not load"));
        const auto& queries = std::get<std::vector<api::RequestQuery>>(answer);
        m_queries->update(queries);
        for (const api::RequestQuery& query : queries) {
            const QString id = QString::fromStdString(query.internalId);
            const QString status = QString::fromStdString(query.status);
            if ((status == QLatin1String("COMPLETED") || status == QLatin1String("FAILED")) &&
                !m_finished.count(id)) {
                m_finished[id] = status;
                announceFinished(id, status);
            }
        }
        if (!m_queryTable->currentIndex().isValid() && !queries.empty()) {
            m_queryTable->selectRow(0);
        }
        refreshQuery();
        m_poll.answered(false);
    });
}

void DataRequestsPage::announceFinished(const QString& queryId, const QString& status) {
    if (status != QLatin1String("FAILED")) {
        emit queryFinished(queryId, status, QString());
        return;
    }
    // The reason is on the action that failed: read them once, whichever query is selected.
    m_client->actions(queryId, this, [this, queryId, status](auto answer) {
        QString reason;
        if (const auto* actions = std::get_if<std::vector<api::RequestAction>>(&answer)) {
            for (const api::RequestAction& action : *actions) {
                if (const auto error = api::actionError(action)) {
                    reason = QString::fromStdString(*error);
                    break;
                }
            }
        }
        emit queryFinished(queryId, status, reason);
    });
}

void DataRequestsPage::refreshQuery() {
    const QString queryId = selectedQueryId();
    if (queryId.isEmpty()) {
        return;
    }
    const api::RequestQuery* query = m_queries->recordAt(m_queryTable->currentIndex().row());
    const std::string destination = query->typ.value(
        "destination_chain_id", query->typ.value("settle_chain_id", std::string()));
    m_client->actions(queryId, this, [this, queryId](auto answer) {
        if (queryId != selectedQueryId()) {
            return;
        }
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not load the actions: %1").arg(error->message()));
            return;
        }
        const auto& actions = std::get<std::vector<api::RequestAction>>(answer);
        m_actions->update(actions);
        m_dag->setActions(actions);
    });
    m_client->provenValues(
        QString::fromStdString(destination), queryId, this, [this, queryId](auto answer) {
            if (queryId != selectedQueryId() || std::holds_alternative<client::ApiError>(answer)) {
                return;
            }
            m_values->update(std::get<std::vector<api::ProvenValue>>(answer));
        });
}

} // namespace proofdesk::ui
