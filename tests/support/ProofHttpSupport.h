#pragma once

// Helpers of the proof service's HTTP contract tests: projects with keys, multipart parts,
// polling a query or a bucket to its end (20 s deadline), record key sets, Stone stand-ins.

#include "TestHttp.h"
#include "TestServer.h"
#include "TestTiming.h"

#include "auth/ApiKeyRegistry.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/ProgramHash.h"
#include "crypto/Hex.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTest>

#include <set>

namespace proofdesk::test {

using nlohmann::json;

struct Project {
    QString id;
    std::string key;
};

inline Project newProject(TestServer& server, const QString& name) {
    Project project;
    project.id = server.server().apiKeys().adminProjectNamed(name);
    project.key = server.server()
                      .apiKeys()
                      .mintKey(project.id, name + QStringLiteral(" key"), QStringLiteral("#000"))
                      .apiKey;
    return project;
}

inline Headers keyHeader(const Project& project) {
    return {{"api-key", project.key}};
}

inline Part file(const std::string& name, const std::string& content, const std::string& filename) {
    return {name, content, filename, "application/octet-stream"};
}

inline Part text(const std::string& name, const std::string& value) {
    return {name, value};
}

// Polls GET /core-query/{id} until DONE or FAILED (20 s deadline unless given, scaled for the
// build); null on timeout.
inline json waitForEnd(TestHttp& http, const std::string& id, int milliseconds = 20000) {
    QDeadlineTimer deadline(scaledDeadline(milliseconds));
    while (!deadline.hasExpired()) {
        const json body = http.get("/core-query/" + id).json();
        const std::string status = body["coreQuery"].value("status", "");
        if (status == "DONE" || status == "FAILED") {
            return body;
        }
        QTest::qWait(5);
    }
    return nullptr;
}

// A bucket is read with its owner's key (`headers`).
inline json waitForBucket(TestHttp& http, const std::string& id, const std::string& status,
                          const Headers& headers, int milliseconds = 20000) {
    QDeadlineTimer deadline(scaledDeadline(milliseconds));
    while (!deadline.hasExpired()) {
        const json body = http.get("/buckets/" + id, headers).json();
        if (body["bucket"].value("status", "") == status) {
            return body;
        }
        QTest::qWait(5);
    }
    return nullptr;
}

inline std::set<std::string> keysOf(const json& object) {
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items()) {
        keys.insert(key);
    }
    return keys;
}

inline const std::set<std::string> kFullQueryFields = {"id",
                                                       "externalId",
                                                       "dedupId",
                                                       "transactionId",
                                                       "status",
                                                       "step",
                                                       "programHash",
                                                       "integrityFactHash",
                                                       "sharpFactHash",
                                                       "layout",
                                                       "isFactMocked",
                                                       "isProofMocked",
                                                       "chain",
                                                       "jobSize",
                                                       "declaredJobSize",
                                                       "cairoVm",
                                                       "cairoVersion",
                                                       "steps",
                                                       "result",
                                                       "network",
                                                       "hints",
                                                       "sharpProver",
                                                       "errorReason",
                                                       "submittedByClient",
                                                       "projectId",
                                                       "submittedByWallet",
                                                       "bucketId",
                                                       "bucketJobIndex",
                                                       "customerName",
                                                       "isJobSizeValid",
                                                       "retryCount",
                                                       "createdAt",
                                                       "completedAt",
                                                       "client",
                                                       "isRetriable",
                                                       "retryBlockedReason"};

inline std::string bytes32(const crypto::Felt& value) {
    return "0x" + crypto::toBytes32(value).toHex().toStdString();
}

inline std::string programHashOf(const std::string& programText) {
    return cairo::programHash(cairo::Program::fromText(programText)).toHex();
}

// A stand-in for Stone's binaries: a shell script doing `body` in the prover's work dir.
inline QString writeScript(const QString& dir, const QString& name, const QByteArray& body) {
    const QString path = dir + QLatin1Char('/') + name;
    QFile script(path);
    script.open(QIODevice::WriteOnly);
    script.write("#!/bin/sh\n" + body + "\n");
    script.close();
    script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return path;
}

} // namespace proofdesk::test
