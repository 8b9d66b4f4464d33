// The proof service's stage bookkeeping (services/proof/StageRecorder) and stored queries
// (services/proof/ProofQueries) as units, without HTTP or a sandbox: what a stage produced is
// written only with its move to the next step, a failure drops it, and a bucket member's end is
// told to its bucket.

#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "proof/ArtifactStore.h"
#include "proof/FactRegistry.h"
#include "proof/ProjectCredits.h"
#include "proof/ProofQueries.h"
#include "proof/StageRecorder.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace proofdesk;
using namespace proofdesk::proof;

namespace {

// The units over a fresh store; the job engine is never started, so an enqueued job stays
// queued where the test can read it.
struct Units {
    QTemporaryDir dir;
    core::ManualClock clock;
    std::unique_ptr<core::Store> store;
    std::unique_ptr<ProjectCredits> credits; // applies the proof service's migrations
    std::unique_ptr<core::JobEngine> jobs;
    std::unique_ptr<ArtifactStore> artifacts;
    std::unique_ptr<FactRegistry> facts;
    std::unique_ptr<ProofQueries> queries;
    std::unique_ptr<StageRecorder> stages;

    Units() {
        store = std::make_unique<core::Store>(dir.filePath(QStringLiteral("store.sqlite")));
        credits = std::make_unique<ProjectCredits>(*store);
        jobs = std::make_unique<core::JobEngine>(*store, clock, 1);
        artifacts = std::make_unique<ArtifactStore>(dir.filePath(QStringLiteral("artifacts")));
        facts = std::make_unique<FactRegistry>(*store, clock);
        queries = std::make_unique<ProofQueries>(*store, *artifacts);
        queries->setPublicUrl("http://127.0.0.1:1/proof");
        stages =
            std::make_unique<StageRecorder>(*store, clock, *jobs, *artifacts, *queries, *facts);
    }

    // A query of two steps, stored and loaded back as the pipeline would work on it.
    WorkingQuery storedQuery(const std::string& id, std::optional<std::string> bucketId = {}) {
        api::ProofQuery query;
        query.id = id;
        query.projectId = "project-1";
        query.createdAt = "2026-11-27T00:00:00.000Z";
        query.steps = {"TRACE_GENERATION", "PROOF_GENERATION"};
        query.step = "TRACE_GENERATION";
        query.bucketId = std::move(bucketId);
        if (query.bucketId) {
            query.bucketJobIndex = 0;
        }
        QueryInputs inputs;
        inputs.source = SourceKind::Program;
        store->write([&](QSqlDatabase&) { queries->insertIn(query, inputs); });
        return *queries->load(id);
    }
};

} // namespace

class ProofStagesTest : public QObject {
    Q_OBJECT
private slots:
    void aFinishedStageNamesItsArtifactsAndEnqueuesTheNextStep() {
        Units units;
        WorkingQuery working = units.storedQuery("01QUERYONE");
        units.stages->addArtifact(working, "metadata.json", R"({"n_steps":16})");
        // Produced but not yet recorded: the query's artifacts are unchanged until the write.
        QCOMPARE(units.queries->coreQuery("01QUERYONE").metadataUrls.size(), std::size_t(0));
        units.store->write([&](QSqlDatabase&) { units.stages->finishStageIn(working); });

        const api::CoreQueryResponse read = units.queries->coreQuery("01QUERYONE");
        QCOMPARE(read.coreQuery.step.value_or(""), std::string("PROOF_GENERATION"));
        QCOMPARE(read.coreQuery.status, std::string("RECEIVED"));
        QCOMPARE(read.metadataUrls,
                 std::vector<std::string>{
                     "http://127.0.0.1:1/proof/artifacts/01QUERYONE/metadata.json"});
        QCOMPARE(units.queries->artifact("01QUERYONE", "metadata.json").bytes,
                 std::string(R"({"n_steps":16})"));
        const std::string jobId = units.queries->load("01QUERYONE")->inputs.job;
        const std::optional<core::JobRecord> job = units.jobs->job(QString::fromStdString(jobId));
        QVERIFY(job);
        QCOMPARE(job->kind, kStageJob);
        QCOMPARE(job->payload.value("stage", ""), std::string("PROOF_GENERATION"));
        QCOMPARE(job->state, core::JobState::Queued);
        // The body the hot read path serves follows the write.
        QVERIFY(units.queries->coreQueryBody("01QUERYONE").find("\"PROOF_GENERATION\"") !=
                std::string::npos);
    }

    void theLastStepEndsDoneAndRegistersItsFact() {
        Units units;
        WorkingQuery working = units.storedQuery("01QUERYTWO");
        working.query.step = "PROOF_GENERATION";
        const std::string fact =
            "0x0000000000000000000000000000000000000000000000000000000000000abc";
        working.newFact = NewFact{"L1", fact, true};
        units.store->write([&](QSqlDatabase&) { units.stages->finishStageIn(working); });
        const api::ProofQuery done = units.queries->coreQuery("01QUERYTWO").coreQuery;
        QCOMPARE(done.status, std::string("DONE"));
        QVERIFY(done.isFactMocked);
        QVERIFY(done.completedAt);
        QVERIFY(units.facts->find("L1", fact, true));
        QVERIFY(!units.facts->find("L1", fact, false)); // mocked facts stay mocked
    }

    void aFailureDropsWhatTheStageProducedAndTellsTheBucket() {
        Units units;
        std::vector<std::string> told;
        units.stages->onMemberEnded([&](const std::string& bucketId) { told.push_back(bucketId); });
        WorkingQuery working = units.storedQuery("01QUERYTHREE", "01BUCKET");
        units.stages->addArtifact(working, "pie.zip", "not recorded");
        units.store->write([&](QSqlDatabase&) {
            units.stages->failIn(working, "the program failed", "NON_RETRIABLE_ERROR");
        });
        const api::CoreQueryResponse read = units.queries->coreQuery("01QUERYTHREE");
        QCOMPARE(read.coreQuery.status, std::string("FAILED"));
        QCOMPARE(read.coreQuery.errorReason.value_or(""), std::string("the program failed"));
        QVERIFY(!read.coreQuery.isRetriable);
        QCOMPARE(read.metadataUrls.size(), std::size_t(0));
        QCOMPARE(told, std::vector<std::string>{"01BUCKET"});
        QCOMPARE(units.queries->statusesInBucket("01BUCKET", "none"),
                 std::vector<std::string>{"FAILED"});
        QCOMPARE(units.queries->unfinishedIds(), std::vector<std::string>{});
    }
};

QTEST_GUILESS_MAIN(ProofStagesTest)
#include "tst_proof_stages.moc"
