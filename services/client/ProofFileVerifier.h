#pragma once

#include <nlohmann/json.hpp>

#include <QObject>
#include <QString>

namespace proofdesk::client {

// Verifies Stone proof files on this machine with Proofdesk's own verifier (services/stark), on a
// worker thread: the console's "Verify a proof" works offline and against any server. One
// verification at a time; a newer request supersedes the answer of an older one.
class ProofFileVerifier : public QObject {
    Q_OBJECT
public:
    explicit ProofFileVerifier(QObject* parent = nullptr);

    void verify(const QString& path);
    bool busy() const { return m_running > 0; }

signals:
    // The verdict as stark/verifier/VerdictJson.h writes it, with "summary" (the human text) and
    // "path"; an unreadable file gives {"valid": false, "failedCheck": why, "unreadable": true}.
    void verified(const nlohmann::json& verdict);

private:
    int m_running = 0;
    quint64 m_latest = 0;
};

} // namespace proofdesk::client
