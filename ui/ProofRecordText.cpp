#include "ProofRecordText.h"

#include "models/ValueReading.h"

#include <QCoreApplication>
#include <QStringList>

namespace proofdesk::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ProofJobsPage", text);
}

QString jsonText(const nlohmann::json& object, const char* key) {
    const auto found = object.find(key);
    return found != object.end() && found->is_string()
               ? QString::fromStdString(found->get<std::string>())
               : QString();
}

// "96 bits of security", with " (weak)" below 80.
QString securityText(int bits) {
    return tr("%1 bits of security%2").arg(bits).arg(bits < 80 ? tr(" (weak)") : QString());
}

// The parameters a user tunes by hand with Stone, as a proof's proof_parameters give them.
QStringList chosenParameters(const nlohmann::json& parameters) {
    QStringList chosen;
    if (!parameters.is_object()) {
        return chosen;
    }
    const nlohmann::json stark = parameters.value("stark", nlohmann::json::object());
    const nlohmann::json fri = stark.value("fri", nlohmann::json::object());
    if (stark.contains("log_n_cosets")) {
        chosen << tr("blow-up %1").arg(1 << stark.value("log_n_cosets", 0));
    }
    if (fri.contains("n_queries")) {
        chosen << tr("%1 queries").arg(fri.value("n_queries", 0));
    }
    if (fri.contains("proof_of_work_bits")) {
        chosen << tr("%1 bits of proof of work").arg(fri.value("proof_of_work_bits", 0));
    }
    if (fri.contains("fri_step_list")) {
        QStringList steps;
        for (const auto& step : fri["fri_step_list"]) {
            steps << QString::number(step.get<int>());
        }
        chosen << tr("FRI steps %1").arg(steps.join(QLatin1Char(',')));
    }
    if (fri.contains("last_layer_degree_bound")) {
        chosen << tr("last layer %1").arg(fri.value("last_layer_degree_bound", 0));
    }
    return chosen;
}

} // namespace

QString outputText(const nlohmann::json& words) {
    QStringList values;
    for (const nlohmann::json& word : words) {
        const QString hex =
            word.is_string() ? QString::fromStdString(word.get<std::string>()) : QString();
        const QString decimal = models::feltToDecimal(hex);
        values << (decimal.isEmpty() ? hex : decimal);
    }
    return values.join(QStringLiteral(", "));
}

QString durationText(double seconds) {
    const qint64 total = qint64(seconds + 0.5);
    const QString minutesAndSeconds =
        QStringLiteral("%1:%2").arg(total / 60 % 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    return total >= 3600 ? QStringLiteral("%1:%2")
                               .arg(total / 3600)
                               .arg(minutesAndSeconds.rightJustified(5, QLatin1Char('0')))
                         : minutesAndSeconds;
}

QString progressText(const api::ProofProgress& progress) {
    QString text = tr("Proving: %1 — %2% · %3 elapsed")
                       .arg(QString::fromStdString(progress.phase))
                       .arg(int(progress.fraction * 100))
                       .arg(durationText(progress.elapsedSeconds));
    if (progress.remainingSeconds) {
        text += tr(" · about %1 left").arg(durationText(*progress.remainingSeconds));
    }
    return text;
}

QString proofOriginText(const nlohmann::json& proof) {
    const QString prover = jsonText(proof, "prover");
    if (proof.value("mocked", false) || prover == QStringLiteral("mock")) {
        return tr("<b>Mock proof</b> — not a STARK proof; its fact is registered as mocked.");
    }
    if (prover != QStringLiteral("proofdesk")) {
        return tr("Proved by %1.").arg(prover.toHtmlEscaped());
    }
    const QStringList chosen = chosenParameters(proof.value("proof_parameters", nlohmann::json()));
    const QString optimize = jsonText(proof, "optimize");
    const QString security =
        securityText(proof.value("security_bits", 0)) +
        (optimize.isEmpty() ? QString() : tr(", optimized for %1").arg(optimize.toHtmlEscaped()));
    return tr("<b>Proved by Proofdesk</b> in %1 s: %2, %3 steps (%4 × %5 trace), <b>%6</b>%7, "
              "%8 KiB")
        .arg(proof.value("seconds", 0.0), 0, 'f', 1)
        .arg(jsonText(proof, "layout").toHtmlEscaped())
        .arg(proof.value("n_steps", std::uint64_t(0)))
        .arg(proof.value("trace_rows", std::uint64_t(0)))
        .arg(proof.value("trace_columns", std::uint64_t(0)))
        .arg(security)
        .arg(chosen.isEmpty() ? QString()
                              : QStringLiteral(" (%1)").arg(chosen.join(QStringLiteral(", "))))
        .arg(proof.value("proof_bytes", std::uint64_t(0)) / 1024);
}

QString serverVerdictText(const nlohmann::json& verdict) {
    return verdict.value("valid", false)
               ? tr("<span style='color:#2e9d4f'>✔ Verified</span> by Proofdesk's verifier: %1, "
                    "%2")
                     .arg(jsonText(verdict, "layout").toHtmlEscaped(),
                          securityText(verdict.value("securityBits", 0)))
               : tr("<span style='color:#d93f3f'>✖ Not verified</span>: %1")
                     .arg(jsonText(verdict, "failedCheck").toHtmlEscaped());
}

QString localVerdictText(const nlohmann::json& verdict) {
    return verdict.value("valid", false)
               ? tr("<span style='color:#2e9d4f'>✔ Valid</span>, checked here by Proofdesk's "
                    "verifier in %1 ms: %2, %3")
                     .arg(verdict.value("milliseconds", 0.0), 0, 'f', 1)
                     .arg(jsonText(verdict, "layout").toHtmlEscaped(),
                          securityText(verdict.value("securityBits", 0)))
               : tr("<span style='color:#d93f3f'>✖ Not valid</span>, checked here: %1")
                     .arg(jsonText(verdict, "failedCheck").toHtmlEscaped());
}

QString stepsTimelineText(const api::ProofQuery& query) {
    QStringList items;
    bool reached = false;
    for (const std::string& step : query.steps) {
        const bool current = query.step && *query.step == step;
        QString mark;
        if (query.status == "DONE" || (!reached && !current)) {
            mark = QStringLiteral("<span style='color:#2e9d4f'>✔</span> ");
        } else if (current) {
            mark = query.status == "FAILED"
                       ? QStringLiteral("<span style='color:#d93f3f'>✖</span> ")
                       : QStringLiteral("<span style='color:#c78a12'>●</span> ");
            reached = true;
        } else {
            mark = QStringLiteral("<span style='color:gray'>○</span> ");
        }
        if (current && query.status != "DONE") {
            items << mark + QStringLiteral("<b>%1</b>").arg(QString::fromStdString(step));
        } else {
            items << mark + QString::fromStdString(step);
        }
    }
    return items.join(QStringLiteral(" &nbsp;→&nbsp; "));
}

QString registeredFactHash(const api::ProofQuery& query) {
    const std::optional<std::string>& fact =
        query.chain == "L2" ? query.integrityFactHash : query.sharpFactHash;
    return QString::fromStdString(fact.value_or(std::string()));
}

QString factHashText(const api::ProofQuery& query) {
    const QString fact = registeredFactHash(query);
    if (fact.isEmpty()) {
        return tr("No fact hash yet.");
    }
    QString text = (query.chain == "L2" ? tr("Integrity fact %1%2") : tr("SHARP fact %1%2"))
                       .arg(fact, query.isFactMocked ? tr(" (mocked)") : QString());
    // Issue #47: a verification "on L1" registers the fact in this server's own registry.
    if (query.status == "DONE" && query.chain != "OFFCHAIN") {
        text += tr(", registered for %1 in this server's local fact registry (no chain was "
                   "asked)")
                    .arg(QString::fromStdString(query.chain));
    }
    return text;
}

QString factHashesExplained(const api::ProofQuery& query) {
    QStringList lines;
    if (query.sharpFactHash) {
        lines << tr("SHARP fact %1: keccak256 of the program hash and of the output's keccak, the "
                    "fact registered on L1 and off chain.")
                     .arg(QString::fromStdString(*query.sharpFactHash));
    }
    if (query.integrityFactHash) {
        lines << tr("Integrity fact %1: the fact Integrity registers for this program run as "
                    "the one task of SHARP's bootloader (Poseidon of the bootloader's hash and "
                    "its output), registered on L2. A proof of the program itself has another "
                    "Integrity fact: Verify a proof shows that one.")
                     .arg(QString::fromStdString(*query.integrityFactHash));
    }
    return lines.join(QLatin1Char('\n'));
}

QString proofIntegrityFactExplained() {
    return tr("Integrity's fact for this proof as it stands: Poseidon of the proven program's "
              "words and of its output. A proof job's integrityFactHash is the fact of its "
              "program run as the one task of SHARP's bootloader, as an L2 verification "
              "registers it, so the two agree only for a bootloader's proof of that one task.");
}

} // namespace proofdesk::ui
