#include "ProofFileVerifier.h"

#include "core/BoundedJson.h"
#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/VerdictJson.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace proofdesk::client {
namespace {

constexpr std::uint64_t kMaxProofFile = std::uint64_t(256) << 20;

nlohmann::json verifyFile(const QString& path) {
    std::string text;
    if (!core::readFileBounded(path.toStdString(), kMaxProofFile, &text)) {
        return {{"valid", false},
                {"unreadable", true},
                {"failedCheck", "cannot read the file (missing, not a file, or over 256 MiB)"}};
    }
    std::string why;
    const nlohmann::json proof = core::parseJsonBounded(text, &why);
    if (proof.is_discarded()) {
        return {{"valid", false}, {"unreadable", true}, {"failedCheck", "not JSON: " + why}};
    }
    const stark::Verdict verdict = stark::verifyStoneProof(proof);
    nlohmann::json out = stark::verdictJson(verdict);
    out["summary"] = stark::verdictSummary(verdict);
    return out;
}

} // namespace

ProofFileVerifier::ProofFileVerifier(QObject* parent) : QObject(parent) {}

void ProofFileVerifier::verify(const QString& path) {
    const quint64 request = ++m_latest;
    ++m_running;
    auto* watcher = new QFutureWatcher<nlohmann::json>(this);
    connect(watcher, &QFutureWatcher<nlohmann::json>::finished, this,
            [this, watcher, request, path] {
                --m_running;
                nlohmann::json verdict = watcher->result();
                watcher->deleteLater();
                if (request == m_latest) {
                    verdict["path"] = path.toStdString();
                    emit verified(verdict);
                }
            });
    watcher->setFuture(QtConcurrent::run([path] { return verifyFile(path); }));
}

} // namespace proofdesk::client
