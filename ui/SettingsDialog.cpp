#include "SettingsDialog.h"

#include "ChainIds.h"
#include "PageParts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace proofdesk::ui {

SettingsDialog::SettingsDialog(const ConsoleSettings& current, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_profile = new QComboBox;
    m_profile->setObjectName(QStringLiteral("profileComboBox"));
    m_profile->addItem(tr("Local — embedded server on loopback"), QStringLiteral("Local"));
    m_profile->addItem(tr("Remote — a deployment"), QStringLiteral("Remote"));
    m_profile->setCurrentIndex(current.isRemote() ? 1 : 0);
    form->addRow(tr("Profile"), m_profile);
    m_oneServer = new QCheckBox(tr("One server runs all three services (as proofdesk serve does)"));
    m_oneServer->setObjectName(QStringLiteral("oneServerCheckBox"));
    m_oneServer->setChecked(!current.requestUrl.isEmpty() &&
                            current.requestUrl == current.proofUrl &&
                            current.requestUrl == current.authUrl);
    form->addRow(QString(), m_oneServer);
    const auto urlEdit = [](const QString& name, const QString& value, const QString& example) {
        auto* edit = new QLineEdit(value);
        edit->setObjectName(name);
        edit->setPlaceholderText(example);
        return edit;
    };
    m_requestUrl = urlEdit(QStringLiteral("requestUrlLineEdit"), current.requestUrl,
                           QStringLiteral("https://requests.example.org"));
    m_proofUrl = urlEdit(QStringLiteral("proofUrlLineEdit"), current.proofUrl,
                         QStringLiteral("https://proofs.example.org"));
    m_authUrl = urlEdit(QStringLiteral("authUrlLineEdit"), current.authUrl,
                        QStringLiteral("https://auth.example.org"));
    form->addRow(tr("Request service URL"), m_requestUrl);
    form->addRow(tr("Proof service URL"), m_proofUrl);
    form->addRow(tr("Sign-in service URL"), m_authUrl);
    m_poll = new QSpinBox;
    m_poll->setObjectName(QStringLiteral("pollIntervalSpinBox"));
    m_poll->setRange(250, 60000);
    m_poll->setSingleStep(250);
    m_poll->setSuffix(tr(" ms"));
    m_poll->setValue(current.pollIntervalMs);
    form->addRow(tr("Polling interval"), m_poll);
    m_chainRpc = new QPlainTextEdit;
    m_chainRpc->setObjectName(QStringLiteral("chainRpcPlainTextEdit"));
    m_chainRpc->setPlaceholderText(QStringLiteral("11155111=http://127.0.0.1:8545\n"
                                                  "1=https://mainnet.example.org/rpc"));
    m_chainRpc->setToolTip(tr("One chain per line, CHAIN_ID=URL: where the embedded server "
                              "fetches blocks and proofs for data requests and grow orders."));
    QStringList lines;
    for (const auto& [chainId, url] : current.chainRpcUrls) {
        lines << chainId + QLatin1Char('=') + url;
    }
    m_chainRpc->setPlainText(lines.join(QLatin1Char('\n')));
    m_chainRpc->setMaximumHeight(90);
    form->addRow(tr("Chain RPC URLs"), m_chainRpc);
    addProverFields(form, current.prover);
    layout->addLayout(form);
    auto* note = new QLabel(tr("The polling interval and the chain RPC URLs apply at once, and new "
                               "Remote URLs reconnect at once; a new prover restarts the embedded "
                               "server; a change of profile needs a restart. The theme follows the "
                               "system. proofdesk serve reads the chain RPC URLs and the prover "
                               "too."));
    note->setObjectName(QStringLiteral("settingsNoteLabel"));
    note->setWordWrap(true);
    layout->addWidget(note);
    m_banner = reservedBanner(QStringLiteral("settingsErrorBannerLabel"));
    layout->addWidget(m_banner);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &SettingsDialog::profileChanged);
    connect(m_oneServer, &QCheckBox::toggled, this, &SettingsDialog::profileChanged);
    // With one server, the other two fields show the URL they will use.
    const auto mirror = [this] {
        if (oneUrl()) {
            m_proofUrl->setText(m_requestUrl->text());
            m_authUrl->setText(m_requestUrl->text());
        }
    };
    connect(m_requestUrl, &QLineEdit::textChanged, this, mirror);
    connect(m_oneServer, &QCheckBox::toggled, this, mirror);
    profileChanged();
    resize(560, 0);
}

void SettingsDialog::addProverFields(QFormLayout* form, const ProverChoice& current) {
    const auto combo = [](const QString& name, const QList<std::pair<QString, QString>>& items,
                          const QString& chosen) {
        auto* box = new QComboBox;
        box->setObjectName(name);
        for (const auto& [text, value] : items) {
            box->addItem(text, value);
        }
        box->setCurrentIndex(std::max(0, box->findData(chosen)));
        return box;
    };
    m_engine =
        combo(QStringLiteral("proverEngineComboBox"),
              {{tr("builtin — Proofdesk's own STARK prover"), QStringLiteral("builtin")},
               {tr("stone — Stone's cpu_air_prover"), QStringLiteral("stone")},
               {tr("mock — proofs are mocked (marked isProofMocked)"), QStringLiteral("mock")},
               {tr("none — proof requests fail"), QStringLiteral("none")}},
              current.engine);
    m_verifier = combo(QStringLiteral("verifierComboBox"),
                       {{tr("builtin — Proofdesk's own verifier"), QStringLiteral("builtin")},
                        {tr("stone — Stone's cpu_air_verifier"), QStringLiteral("stone")}},
                       current.verifier);
    // A path with a Browse… button beside it.
    const auto pathRow = [this](QLineEdit*& edit, const QString& name, const QString& value,
                                const QString& placeholder, const QString& title) {
        edit = new QLineEdit(value);
        edit->setObjectName(name + QStringLiteral("LineEdit"));
        edit->setPlaceholderText(placeholder);
        edit->setAccessibleName(title); // its form label names the row, not the field
        auto* browse = new QToolButton;
        browse->setObjectName(name + QStringLiteral("BrowseButton"));
        browse->setText(tr("Browse…"));
        browse->setAccessibleName(tr("Browse for %1").arg(title));
        QLineEdit* target = edit;
        connect(browse, &QToolButton::clicked, this, [this, target, title] {
            const QString path = QFileDialog::getOpenFileName(this, title, target->text());
            if (!path.isEmpty()) {
                target->setText(path);
            }
        });
        auto* row = new QWidget;
        auto* box = new QHBoxLayout(row);
        box->setContentsMargins(0, 0, 0, 0);
        box->addWidget(edit, 1);
        box->addWidget(browse);
        return row;
    };
    QWidget* stoneProver =
        pathRow(m_stoneProver, QStringLiteral("stoneProver"), current.stoneProver,
                QStringLiteral("/usr/local/bin/cpu_air_prover"), tr("Stone's cpu_air_prover"));
    QWidget* stoneVerifier =
        pathRow(m_stoneVerifier, QStringLiteral("stoneVerifier"), current.stoneVerifier,
                QStringLiteral("/usr/local/bin/cpu_air_verifier"), tr("Stone's cpu_air_verifier"));
    QWidget* bootloader =
        pathRow(m_bootloader, QStringLiteral("bootloaderProgram"), current.bootloaderProgram,
                tr("bootloader.json, compiled with --proof_mode"), tr("The bootloader program"));
    m_bootloader->setToolTip(tr("cairo-lang's bootloader, compiled with --proof_mode: Cairo PIEs "
                                "are proven as its task, the way SHARP proves them. Without it a "
                                "PIE is not proven."));
    form->addRow(tr("Prover"), m_engine);
    form->addRow(tr("Verifier"), m_verifier);
    form->addRow(tr("Stone prover"), stoneProver);
    form->addRow(tr("Stone verifier"), stoneVerifier);
    form->addRow(tr("Bootloader program"), bootloader);
    m_proverFields = {m_engine, m_verifier, stoneProver, stoneVerifier, bootloader};
}

void SettingsDialog::profileChanged() {
    const bool remote = m_profile->currentData().toString() == QLatin1String("Remote");
    for (QWidget* field : m_proverFields) {
        field->setEnabled(!remote); // a deployment proves with its own
    }
    m_oneServer->setEnabled(remote);
    m_requestUrl->setEnabled(remote);
    m_requestUrl->setPlaceholderText(oneUrl() ? QStringLiteral("https://proofdesk.example.org")
                                              : QStringLiteral("https://requests.example.org"));
    for (QLineEdit* edit : {m_proofUrl, m_authUrl}) {
        edit->setEnabled(remote && !oneUrl());
    }
}

bool SettingsDialog::oneUrl() const {
    return m_oneServer->isChecked();
}

ConsoleSettings SettingsDialog::settings() const {
    ConsoleSettings chosen;
    chosen.profile = m_profile->currentData().toString();
    chosen.requestUrl = m_requestUrl->text().trimmed();
    chosen.proofUrl = oneUrl() ? chosen.requestUrl : m_proofUrl->text().trimmed();
    chosen.authUrl = oneUrl() ? chosen.requestUrl : m_authUrl->text().trimmed();
    chosen.pollIntervalMs = m_poll->value();
    for (const QString& line :
         m_chainRpc->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        chosen.chainRpcUrls[line.left(equals).trimmed()] =
            equals < 0 ? QString() : line.mid(equals + 1).trimmed();
    }
    chosen.prover = {m_engine->currentData().toString(), m_verifier->currentData().toString(),
                     m_stoneProver->text().trimmed(), m_stoneVerifier->text().trimmed(),
                     m_bootloader->text().trimmed()};
    return chosen;
}

std::pair<QString, QWidget*> SettingsDialog::proverProblem(const ProverChoice& prover) const {
    const bool stoneProves = prover.engine == QLatin1String("stone");
    const bool stoneVerifies = prover.verifier == QLatin1String("stone");
    if (stoneProves && prover.stoneProver.isEmpty()) {
        return {tr("The stone prover needs the path of Stone's cpu_air_prover."), m_stoneProver};
    }
    if (stoneVerifies && prover.stoneVerifier.isEmpty()) {
        return {tr("The stone verifier needs the path of Stone's cpu_air_verifier."),
                m_stoneVerifier};
    }
    for (const auto& [path, edit] : {std::pair{prover.stoneProver, m_stoneProver},
                                     std::pair{prover.stoneVerifier, m_stoneVerifier}}) {
        const QFileInfo info(path);
        if (!path.isEmpty() && !(info.isFile() && info.isExecutable())) {
            return {tr("\"%1\" is not an executable file.").arg(path), edit};
        }
    }
    const QFileInfo bootloader(prover.bootloaderProgram);
    if (!prover.bootloaderProgram.isEmpty() && !(bootloader.isFile() && bootloader.isReadable())) {
        return {tr("\"%1\" is not a readable file (the bootloader program: cairo-lang's "
                   "bootloader, compiled with --proof_mode).")
                    .arg(prover.bootloaderProgram),
                m_bootloader};
    }
    return {};
}

void SettingsDialog::accept() {
    const ConsoleSettings chosen = settings();
    const auto isHttpUrl = [](const QString& text) {
        const QUrl url(text, QUrl::StrictMode);
        return url.isValid() && !url.host().isEmpty() &&
               (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"));
    };
    for (const auto& [chainId, url] : chosen.chainRpcUrls) {
        if (!allChainIds().contains(chainId)) {
            showBanner(m_banner,
                       tr("\"%1\" is not a chain id (%2).")
                           .arg(chainId, allChainIds().join(QStringLiteral(", "))),
                       m_chainRpc);
            return;
        }
        if (!isHttpUrl(url)) {
            showBanner(
                m_banner,
                tr("The RPC URL of chain %1, \"%2\", is not an http(s) URL.").arg(chainId, url),
                m_chainRpc);
            return;
        }
    }
    if (!chosen.isRemote()) {
        if (const auto [problem, field] = proverProblem(chosen.prover); !problem.isEmpty()) {
            showBanner(m_banner, problem, field);
            return;
        }
    }
    if (chosen.isRemote()) {
        for (QLineEdit* edit : {m_requestUrl, m_proofUrl, m_authUrl}) {
            const QString text = edit->text().trimmed();
            if (!isHttpUrl(text)) {
                // With one server for all three, the request URL's field is the one to fix.
                showBanner(m_banner, tr("\"%1\" is not an http(s) URL.").arg(text),
                           oneUrl() ? m_requestUrl : edit);
                return;
            }
        }
    }
    QDialog::accept();
}

} // namespace proofdesk::ui
