// The proof jobs page's submission form: its widgets, how they change with the kind of job, and
// the submission it builds from them (ProofJobsPage.cpp has the list, the detail and the sending).

#include "ProofJobsPage.h"

#include "PageParts.h"
#include "ProofRecordText.h"
#include "client/ProgramFileSummary.h"
#include "client/ProofFileVerifier.h"
#include "models/ProofQueryModel.h"
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
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
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

namespace proofdesk::ui {
namespace {

QLineEdit* pathEdit(const QString& objectName, const QString& placeholder) {
    auto* edit = new QLineEdit;
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

bool isZip(const QByteArray& bytes) {
    return bytes.startsWith("PK\x03\x04");
}

} // namespace

QWidget* ProofJobsPage::buildForm() {
    auto* box = new QGroupBox(tr("New job"));
    box->setObjectName(QStringLiteral("proofJobFormGroupBox"));
    m_form = new QFormLayout(box);
    // On a narrow window a label goes above its field rather than holding the form wide.
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("submissionKindComboBox"));
    // In the order of Kind; the routes are services/client's (toSubmission).
    m_kind->addItem(tr("Core query"));
    m_kind->addItem(tr("Trace generation (v1)"));
    m_kind->addItem(tr("Trace + proof generation (v1)"));
    m_kind->addItem(tr("Proof + L1 verification of a PIE (v1)"));
    m_kind->addItem(tr("L2 verification of a proof (v1)"));
    m_form->addRow(tr("Kind"), m_kind);

    const auto fileRow = [this](QLineEdit* edit, const QString& browseName, const QString& filter) {
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        auto* browseButton = new QPushButton(tr("Browse…"));
        browseButton->setObjectName(browseName);
        browseButton->setAccessibleName(tr("Browse for the %1").arg(edit->accessibleName()));
        connect(browseButton, &QPushButton::clicked, this,
                [this, edit, filter] { browse(edit, filter); });
        row->addWidget(browseButton);
        return row;
    };
    m_programPath = pathEdit(QStringLiteral("programPathLineEdit"),
                             tr("program .json, PIE .zip or proof .json — or drop it here"));
    m_programPath->setAccessibleName(tr("File"));
    m_form->addRow(tr("File"), fileRow(m_programPath, QStringLiteral("browseProgramPushButton"),
                                       tr("Cairo programs, Scarb executables, PIEs and proofs "
                                          "(*.json *.zip);;All files (*)")));
    m_fileKind = new QLabel;
    m_fileKind->setObjectName(QStringLiteral("fileKindLabel"));
    m_fileKind->setWordWrap(true);
    m_fileKind->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->addRow(QString(), m_fileKind);
    m_arguments = new QLineEdit;
    m_arguments->setObjectName(QStringLiteral("argumentsLineEdit"));
    m_arguments->setAccessibleName(tr("Arguments"));
    m_arguments->setPlaceholderText(tr("felts, comma-separated: 10, 0x2a (as scarb execute "
                                       "--arguments)"));
    m_arguments->setToolTip(tr("The flat Serde serialization of the program's parameters: a "
                               "felt252 or u128 is one felt, a u256 two (low, high), an array "
                               "its length then its items."));
    m_form->addRow(tr("Arguments"), m_arguments);
    m_inputPath = pathEdit(QStringLiteral("inputPathLineEdit"), tr("optional program input .json"));
    m_inputPath->setAccessibleName(tr("Input"));
    m_inputRow = fileRow(m_inputPath, QStringLiteral("browseInputPushButton"),
                         tr("JSON (*.json);;All files (*)"));
    m_form->addRow(tr("Input"), m_inputRow);
    m_programHash = new QLineEdit;
    m_programHash->setObjectName(QStringLiteral("programHashLineEdit"));
    m_programHash->setPlaceholderText(tr("or a registered program hash (0x…)"));
    m_form->addRow(tr("Program hash"), m_programHash);
    m_result = new QComboBox;
    m_result->setObjectName(QStringLiteral("resultComboBox"));
    for (const std::string& result : api::proof_enums::kResults) {
        m_result->addItem(QString::fromStdString(result));
    }
    m_result->setCurrentText(QStringLiteral("PROOF_GENERATION"));
    m_form->addRow(tr("Result"), m_result);
    m_layout = new QComboBox;
    m_layout->setObjectName(QStringLiteral("layoutComboBox"));
    m_layout->addItems({QStringLiteral("auto"), QStringLiteral("plain"), QStringLiteral("small"),
                        QStringLiteral("dex"), QStringLiteral("recursive"),
                        QStringLiteral("recursive_with_poseidon"),
                        QStringLiteral("recursive_large_output"), QStringLiteral("starknet"),
                        QStringLiteral("starknet_with_keccak"), QStringLiteral("all_solidity"),
                        QStringLiteral("dynamic"), QStringLiteral("all_cairo")});
    m_form->addRow(tr("Layout"), m_layout);
    m_optimize = new QComboBox;
    m_optimize->setObjectName(QStringLiteral("optimizeComboBox"));
    m_optimize->addItem(tr("Server default (fastest; smallest on L2)"), QString());
    m_optimize->addItem(tr("Fastest proof (time)"), QStringLiteral("time"));
    m_optimize->addItem(tr("Smallest proof (size)"), QStringLiteral("size"));
    m_optimize->setToolTip(
        tr("optimize: what the proof's parameters favour at the server's security target. time: "
           "a faster prover and a larger proof; size: the smallest proof, what an on-chain "
           "verifier pays for. Both verify the same way."));
    m_form->addRow(tr("Optimize"), m_optimize);
    m_cairoVm = new QComboBox;
    m_cairoVm->setObjectName(QStringLiteral("cairoVmComboBox"));
    m_cairoVm->addItem(tr("Native hints only (rust)"), QStringLiteral("rust"));
    m_cairoVm->addItem(tr("Native and Python hints (python)"), QStringLiteral("python"));
    m_cairoVm->setToolTip(
        tr("cairoVm. With python, the server runs the program's hints that have no native "
           "implementation as Python (needed when your own hints read the input file)."));
    m_form->addRow(tr("Hints"), m_cairoVm);
    m_stoneVersion = new QComboBox;
    m_stoneVersion->setObjectName(QStringLiteral("stoneVersionComboBox"));
    m_stoneVersion->addItems({QStringLiteral("stone6"), QStringLiteral("stone5")});
    m_form->addRow(tr("Stone version"), m_stoneVersion);
    m_memoryVerification = new QComboBox;
    m_memoryVerification->setObjectName(QStringLiteral("memoryVerificationComboBox"));
    m_memoryVerification->addItems(
        {QStringLiteral("strict"), QStringLiteral("relaxed"), QStringLiteral("cairo1")});
    m_form->addRow(tr("Memory verification"), m_memoryVerification);
    m_mockFact = new QCheckBox(tr("Mock the fact hash"));
    m_mockFact->setToolTip(tr("mockFactHash: the fact is registered as mocked, with no proof and "
                              "no on-chain verification"));
    m_mockFact->setObjectName(QStringLiteral("mockFactHashCheckBox"));
    m_form->addRow(QString(), m_mockFact);
    m_dedupId = new QLineEdit;
    m_dedupId->setObjectName(QStringLiteral("dedupIdLineEdit"));
    m_dedupId->setPlaceholderText(tr("optional: a repeat is refused"));
    m_form->addRow(tr("Dedup id"), m_dedupId);
    m_externalId = new QLineEdit;
    m_externalId->setObjectName(QStringLiteral("externalIdLineEdit"));
    m_externalId->setPlaceholderText(tr("optional: your own reference"));
    m_form->addRow(tr("External id"), m_externalId);
    m_bucketId = new QLineEdit;
    m_bucketId->setObjectName(QStringLiteral("bucketIdLineEdit"));
    m_bucketId->setPlaceholderText(tr("optional: an OPEN bucket to join"));
    m_form->addRow(tr("Bucket"), m_bucketId);
    // Two rows of buttons, so that the form stays narrow: the samples, then the actions.
    auto* samples = new QHBoxLayout;
    auto* buttons = new QHBoxLayout;
    auto* curl = new QPushButton(tr("Copy as curl"));
    curl->setObjectName(QStringLiteral("copyFormCurlPushButton"));
    buttons->addWidget(curl);
    auto* sample = new QPushButton(tr("Try the sample"));
    sample->setObjectName(QStringLiteral("trySamplePushButton"));
    sample->setToolTip(tr("Fill the form with Proofdesk's sample program (it writes the 11th "
                          "Fibonacci number, 89), to run, prove and verify it"));
    samples->addWidget(sample);
    auto* cairo1Sample = new QPushButton(tr("Try Cairo 1"));
    cairo1Sample->setObjectName(QStringLiteral("tryCairo1SamplePushButton"));
    cairo1Sample->setToolTip(tr("Fill the form with Proofdesk's Cairo 1 sample, an executable "
                                "assembled by hand that writes the n-th Fibonacci number (n = "
                                "90 here), to prove it"));
    samples->addWidget(cairo1Sample);
    samples->addStretch(1);
    m_form->addRow(samples);
    buttons->addStretch(1);
    m_submit = new QPushButton(tr("Submit"));
    m_submit->setObjectName(QStringLiteral("submitPushButton"));
    markPrimaryAction(m_submit);
    m_submit->setDefault(true);
    buttons->addWidget(m_submit);
    m_form->addRow(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProofJobsPage::kindChanged);
    connect(m_submit, &QPushButton::clicked, this, &ProofJobsPage::submit);
    submitOnEnter(box, m_submit);
    connect(curl, &QPushButton::clicked, this, &ProofJobsPage::copyFormAsCurl);
    connect(sample, &QPushButton::clicked, this, &ProofJobsPage::trySample);
    connect(cairo1Sample, &QPushButton::clicked, this, &ProofJobsPage::tryCairo1Sample);
    connect(m_programPath, &QLineEdit::textChanged, this, &ProofJobsPage::describeChosenFile);
    describeChosenFile();
    letChoicesShrink(box); // before the page measures the form
    return box;
}

namespace {

// A sample shipped in the resources, as a file the form can name: copied once into the app's data
// folder (a form sends files by path). Empty with `error` set when it cannot be written.
QString sampleFile(const QString& name, QString* error) {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                           QStringLiteral("/samples");
    const QString path = folder + QLatin1Char('/') + name;
    QFile resource(QStringLiteral(":/proofdesk/samples/") + name);
    if (!QDir().mkpath(folder) || !resource.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("Could not prepare the sample in %1.").arg(folder);
        return {};
    }
    const QByteArray bytes = resource.readAll();
    QFile file(path);
    if (file.open(QIODevice::ReadOnly) && file.readAll() == bytes) {
        return path; // already there, unchanged
    }
    file.close();
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(bytes) != bytes.size()) {
        *error = QObject::tr("Could not write the sample to %1: %2").arg(path, file.errorString());
        return {};
    }
    return path;
}

// A Cairo 1 program's arguments as the file a form sends (named by their digest, in the app's
// data folder); empty with `error` set when it cannot be written.
QString argumentsFile(const QByteArray& json, QString* error) {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                           QStringLiteral("/arguments");
    const QString path =
        folder +
        QStringLiteral("/%1.json")
            .arg(QString::fromLatin1(
                QCryptographicHash::hash(json, QCryptographicHash::Sha256).toHex().left(16)));
    QFile file(path);
    if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(json) != json.size()) {
        *error = QObject::tr("Could not write the arguments to %1.").arg(path);
        return {};
    }
    return path;
}

} // namespace

void ProofJobsPage::trySample() {
    QString error;
    const QString program = sampleFile(QStringLiteral("fibonacci.json"), &error);
    if (program.isEmpty()) {
        showBanner(m_banner, error);
        return;
    }
    m_kind->setCurrentIndex(static_cast<int>(Kind::CoreQuery));
    m_programPath->setText(program);
    m_inputPath->clear();
    m_programHash->clear();
    // The whole journey at once: run, prove and verify (issue #47: a first run made no proof).
    m_result->setCurrentText(QStringLiteral("PROOF_VERIFICATION_ON_L1"));
    showBanner(m_banner, {});
    m_submit->setFocus(Qt::OtherFocusReason);
}

void ProofJobsPage::tryCairo1Sample() {
    QString error;
    const QString program = sampleFile(QStringLiteral("fibonacci.executable.json"), &error);
    if (program.isEmpty()) {
        showBanner(m_banner, error);
        return;
    }
    m_kind->setCurrentIndex(static_cast<int>(Kind::CoreQuery));
    m_programPath->setText(program);
    m_inputPath->clear();
    m_programHash->clear();
    m_arguments->setText(QStringLiteral("90"));
    m_result->setCurrentText(QStringLiteral("PROOF_VERIFICATION_ON_L1"));
    showBanner(m_banner, {});
    m_submit->setFocus(Qt::OtherFocusReason);
}

void ProofJobsPage::describeChosenFile() {
    const QString path = m_programPath->text().trimmed();
    QFile file(path);
    client::ProgramFileSummary summary;
    constexpr qint64 kLargestDescribed = qint64(64) << 20;
    if (!path.isEmpty() && file.open(QIODevice::ReadOnly) && file.size() <= kLargestDescribed) {
        summary = client::summarizeProgramFile(file.readAll());
    }
    using Kind = client::ProgramFileSummary::Kind;
    m_cairo1 = summary.kind == Kind::Cairo1Executable && summary.problem.isEmpty();
    QString text;
    switch (summary.kind) {
    case Kind::Cairo1Executable:
        text =
            summary.problem.isEmpty()
                ? tr("Cairo 1 executable: %n words of CASM; entry points %1; builtins %2.", nullptr,
                     static_cast<int>(summary.bytecodeWords))
                      .arg(summary.entryPoints.join(QStringLiteral(", ")),
                           summary.builtins.isEmpty() ? tr("none")
                                                      : summary.builtins.join(QStringLiteral(", ")))
                : tr("Not a valid Cairo 1 executable: %1").arg(summary.problem);
        break;
    case Kind::Sierra:
        text = summary.problem;
        break;
    case Kind::Cairo0Program:
        text = tr("Cairo 0 program.");
        break;
    case Kind::CairoPie:
        text = tr("Cairo PIE.");
        break;
    case Kind::Json:
    case Kind::Unknown:
        break;
    }
    m_fileKind->setText(text);
    m_form->setRowVisible(m_fileKind, !text.isEmpty());
    kindChanged();
}

ProofJobsPage::Kind ProofJobsPage::kind() const {
    return static_cast<Kind>(m_kind->currentIndex());
}

void ProofJobsPage::kindChanged() {
    const Kind k = kind();
    const bool runsProgram =
        k == Kind::CoreQuery || k == Kind::TraceGeneration || k == Kind::TraceAndProof;
    m_form->setRowVisible(m_inputRow, runsProgram);
    m_form->setRowVisible(m_programHash, runsProgram);
    m_form->setRowVisible(m_result, k == Kind::CoreQuery);
    m_form->setRowVisible(m_layout, k == Kind::CoreQuery || k == Kind::TraceAndProof);
    m_form->setRowVisible(m_optimize, k == Kind::CoreQuery || k == Kind::TraceAndProof);
    // A Cairo 1 program's hints are all native, and its input is its arguments.
    m_form->setRowVisible(m_cairoVm, k == Kind::CoreQuery && !m_cairo1);
    m_form->setRowVisible(m_arguments, runsProgram && m_cairo1);
    m_form->setRowVisible(m_stoneVersion, k == Kind::VerificationL2);
    m_form->setRowVisible(m_memoryVerification, k == Kind::VerificationL2);
    m_form->setRowVisible(m_mockFact, k == Kind::CoreQuery || k == Kind::ProofAndVerificationL1 ||
                                          k == Kind::VerificationL2);
    for (QWidget* coreOnly : {static_cast<QWidget*>(m_dedupId), static_cast<QWidget*>(m_externalId),
                              static_cast<QWidget*>(m_bucketId)}) {
        m_form->setRowVisible(coreOnly, k == Kind::CoreQuery);
    }
}

void ProofJobsPage::browse(QLineEdit* target, const QString& filter) {
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a file"), QString(), filter);
    if (!path.isEmpty()) {
        target->setText(path);
    }
}

std::optional<client::Submission> ProofJobsPage::buildSubmission(FormError* error) const {
    const Kind k = kind();
    const QString path = m_programPath->text().trimmed();
    const QString input = m_inputPath->text().trimmed();
    const QString programHash = m_programHash->text().trimmed();
    const bool runsProgram =
        k == Kind::CoreQuery || k == Kind::TraceGeneration || k == Kind::TraceAndProof;
    if (path.isEmpty() && !(runsProgram && !programHash.isEmpty())) {
        *error = {runsProgram ? tr("Choose a compiled program (.json) or a Cairo PIE (.zip), or "
                                   "give a registered program hash.")
                              : tr("Choose the file to submit."),
                  m_programPath};
        return std::nullopt;
    }
    // Validate before sending: a PIE is a zip; programs, inputs and proofs are JSON.
    QString filePart;
    if (!path.isEmpty()) {
        error->field = m_programPath;
        const auto bytes = client::readFormFile(path, &error->message);
        if (!bytes) {
            return std::nullopt;
        }
        const bool zip = isZip(*bytes);
        if (!zip && !nlohmann::json::accept(bytes->toStdString())) {
            error->message = tr("%1 is neither JSON nor a zip archive.").arg(path);
            return std::nullopt;
        }
        if (zip && !(k == Kind::CoreQuery || k == Kind::ProofAndVerificationL1)) {
            error->message =
                tr("This kind of job takes a JSON file, and %1 is a zip archive.").arg(path);
            return std::nullopt;
        }
        if (!zip && k == Kind::ProofAndVerificationL1) {
            error->message = tr("This kind of job takes a Cairo PIE (.zip).");
            return std::nullopt;
        }
        filePart = zip                         ? QStringLiteral("pieFile")
                   : k == Kind::VerificationL2 ? QStringLiteral("proofFile")
                                               : QStringLiteral("programFile");
    }
    if (m_cairo1 && k != Kind::CoreQuery) {
        *error = {tr("A Cairo 1 executable is submitted as a core query (the /v1 routes take "
                     "Cairo 0 programs)."),
                  m_kind};
        return std::nullopt;
    }
    QString inputFile = input;
    if (runsProgram && m_cairo1 && !m_arguments->text().trimmed().isEmpty()) {
        error->field = m_arguments;
        if (!input.isEmpty()) {
            error->message = tr("Give the arguments here or as an input file, not both.");
            return std::nullopt;
        }
        const auto json = client::argumentsAsInputFile(m_arguments->text(), &error->message);
        if (!json) {
            return std::nullopt;
        }
        inputFile = argumentsFile(*json, &error->message);
        if (inputFile.isEmpty()) {
            return std::nullopt;
        }
    } else if (runsProgram && !input.isEmpty()) {
        error->field = m_inputPath;
        const auto bytes = client::readFormFile(input, &error->message);
        if (!bytes) {
            return std::nullopt;
        }
        if (!nlohmann::json::accept(bytes->toStdString())) {
            error->message = tr("The program input %1 is not JSON.").arg(input);
            return std::nullopt;
        }
    }
    *error = {};
    if (k == Kind::CoreQuery) {
        client::CoreQueryForm form;
        (filePart == QLatin1String("pieFile") ? form.pieFilePath : form.programFilePath) = path;
        form.inputFilePath = inputFile;
        form.programHash = path.isEmpty() ? programHash : QString();
        form.result = m_result->currentText();
        form.layout = m_layout->currentText();
        form.optimize = m_optimize->currentData().toString();
        form.cairoVm = m_cairoVm->currentData().toString();
        if (m_cairo1 && filePart == QLatin1String("programFile")) {
            form.cairoVersion = QStringLiteral("cairo1");
        }
        form.mockFactHash = m_mockFact->isChecked();
        form.dedupId = m_dedupId->text().trimmed();
        form.externalId = m_externalId->text().trimmed();
        form.bucketId = m_bucketId->text().trimmed();
        return client::toSubmission(form);
    }
    client::V1Form form;
    form.route = k == Kind::TraceGeneration ? client::V1Form::Route::TraceGeneration
                 : k == Kind::TraceAndProof ? client::V1Form::Route::TraceAndProofGeneration
                 : k == Kind::ProofAndVerificationL1
                     ? client::V1Form::Route::PieProofAndVerificationL1
                     : client::V1Form::Route::ProofVerificationL2;
    (filePart == QLatin1String("pieFile")     ? form.pieFilePath
     : filePart == QLatin1String("proofFile") ? form.proofFilePath
                                              : form.programFilePath) = path;
    form.programHash = path.isEmpty() ? programHash : QString();
    form.inputFilePath = input;
    form.layout = m_layout->currentText();
    form.optimize = m_optimize->currentData().toString();
    form.mockFactHash = m_mockFact->isChecked();
    form.stoneVersion = m_stoneVersion->currentText();
    form.memoryVerification = m_memoryVerification->currentText();
    return client::toSubmission(form);
}

} // namespace proofdesk::ui
