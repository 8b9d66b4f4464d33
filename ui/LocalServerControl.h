#pragma once

#include "ConsoleSettings.h"

#include <QObject>
#include <QString>

#include <map>

namespace proofdesk::ui {

// Where the services are, as the console shows them.
struct ServerEndpoints {
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    QString dataDir;
};

// What the console may do with the embedded server of the Local profile, without knowing what
// it is (the app provides it): start, stop, and say where it listens and how it proves.
class LocalServerControl : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual bool isRunning() const = 0;
    virtual bool start(QString* error) = 0;
    virtual void stop() = 0;
    virtual ServerEndpoints endpoints() const = 0;
    // e.g. "stone (cpu_air_prover at /usr/local/bin/...)" or "mock (proofs are mocked)".
    virtual QString proverSummary() const = 0;
    // Chain id -> JSON-RPC URL: used by the running server at once and by every later start.
    virtual void setChainRpcUrls(const std::map<QString, QString>& urls) = 0;
    // The prover and verifier of every later start; a running server restarts with them (its
    // URLs may change; runningChanged says when it stops and starts). False, with the reason,
    // when it does not start again.
    virtual bool setProvers(const ProverChoice& provers, QString* error) = 0;
    // An admin key of this server (it reads GET /admin/status), whatever key the console's
    // pages use now (a wallet sign-in's project key is not one); empty while it is stopped.
    virtual QString adminKey() const = 0;

signals:
    void runningChanged(bool running);
};

} // namespace proofdesk::ui
