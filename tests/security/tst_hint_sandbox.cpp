// Issue #18, critical findings 1-3: a submitter's Python hint runs in a sandboxed child of its own.
// Each attack below goes through the real HTTP API (cairoVm=python) and must end as a FAILED query
// with a reason, leave no trace outside the child, and leave the server answering.

#include "ProofHttpSupport.h"
#include "sandbox/Confinement.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

std::string readSample(const char* name) {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/") +
               QString::fromUtf8(name));
    file.open(QIODevice::ReadOnly);
    return file.readAll().toStdString();
}

// Our sample program (main writes ids.n to the output) with its hint replaced by `code`, which
// must end by setting ids.n.
std::string programWithHint(const std::string& code) {
    json program = json::parse(readSample("sum_of_squares.json"));
    program["hints"]["8"][0]["code"] = code;
    return program.dump();
}

// Sanitizer builds start and run the sandboxed Python several times slower.
#if defined(PROOFDESK_ADDRESS_SANITIZER)
constexpr int kWallSeconds = 12;
#else
constexpr int kWallSeconds = 4;
#endif

struct Run {
    std::string status;
    std::string reason;
    json output;
};

class Submitter {
public:
    explicit Submitter(TestServer& server, const QString& projectName)
        : m_http(server.url()), m_project(newProject(server, projectName)) {}

    std::string submit(const std::string& hintCode, const std::string& input = {}) {
        std::vector<Part> parts = {file("programFile", programWithHint(hintCode), "p.json"),
                                   text("result", "TRACE_GENERATION"), text("cairoVm", "python")};
        if (!input.empty()) {
            parts.push_back(file("inputFile", input, "input.json"));
        }
        const Reply reply = m_http.postMultipart("/core-query", parts, keyHeader(m_project));
        if (reply.status != 201) {
            qWarning("submission refused: %d %s", reply.status, reply.body.c_str());
            return {};
        }
        return reply.json()["coreQueryId"].get<std::string>();
    }

    Run wait(const std::string& id) {
        const json query = waitForEnd(m_http, id)["coreQuery"];
        Run run;
        run.status = query.value("status", "");
        if (query.contains("errorReason") && query["errorReason"].is_string()) {
            run.reason = query["errorReason"].get<std::string>();
        }
        if (run.status == "DONE") {
            run.output =
                json::parse(m_http.get("/artifacts/" + id + "/output.json").body, nullptr, false);
        }
        return run;
    }

    Run run(const std::string& hintCode, const std::string& input = {}) {
        const std::string id = submit(hintCode, input);
        if (id.empty()) {
            return {"NOT SUBMITTED", "the submission was refused", {}};
        }
        return wait(id);
    }
    TestHttp& http() { return m_http; }

private:
    TestHttp m_http;
    Project m_project;
};

// The processes whose working directory lies under `dir` (a sandboxed run's is its work
// directory under the data dir).
int processesWorkingIn(const QString& dir) {
    int found = 0;
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool isPid = false;
        entry.toInt(&isPid);
        if (!isPid) {
            continue;
        }
        const QString cwd =
            QFileInfo(QStringLiteral("/proc/") + entry + QStringLiteral("/cwd")).symLinkTarget();
        if (!canonical.isEmpty() && cwd.startsWith(canonical)) {
            ++found;
        }
    }
    return found;
}

#define VERIFY_FAILED_WITH(run, needle)                                                            \
    do {                                                                                           \
        QCOMPARE((run).status, std::string("FAILED"));                                             \
        QVERIFY2((run).reason.find(needle) != std::string::npos, (run).reason.c_str());            \
    } while (false)

} // namespace

class TstHintSandbox : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<Submitter> m_alpha;
    QTemporaryDir m_outside; // a directory the hints must not be able to write into

    void expectAlive() {
        QCOMPARE(m_alpha->http().get("/is-alive").status, 200);
        // And a harmless run still works, so nothing shared was damaged.
        const Run ok = m_alpha->run("ids.n = 5");
        QCOMPARE(ok.status, std::string("DONE"));
        COMPARE_JSON(ok.output, json::array({"0x5"}));
    }

private slots:
    void initTestCase() {
        server::ServerOptions options;
        options.provers.sandboxLimits.wallSeconds = kWallSeconds;
        options.provers.sandboxLimits.memoryBytes = std::uint64_t{1} << 30;
        m_server = std::make_unique<TestServer>(options);
        QVERIFY2(m_server->ok(), qPrintable(m_server->error()));
        m_alpha = std::make_unique<Submitter>(*m_server, QStringLiteral("alpha"));
    }

    void subprocessIsRefused() {
        const std::string marker = m_outside.filePath(QStringLiteral("subprocess")).toStdString();
        const Run run = m_alpha->run("import subprocess\nsubprocess.run(['touch', '" + marker +
                                     "'])\nids.n = 1");
        VERIFY_FAILED_WITH(run, "Python hint at pc 8 raised:");
        QVERIFY(!QFile::exists(QString::fromStdString(marker)));
        expectAlive();
    }

    void forkExecBelowTheAuditHookIsRefused() {
        // The in-process guard never saw this one; the child's seccomp filter does.
        const std::string marker = m_outside.filePath(QStringLiteral("forkexec")).toStdString();
        const Run run = m_alpha->run(
            "import _posixsubprocess, os\n"
            "r, w = os.pipe()\n"
            "_posixsubprocess.fork_exec([b'/usr/bin/touch', b'" +
            marker +
            "'], [b'/usr/bin/touch'], True, (), None, None, -1, -1, -1, -1, -1, -1, r, w, "
            "True, False, 0, None, None, None, -1, None, False)\n"
            "ids.n = 1");
        VERIFY_FAILED_WITH(run, "PermissionError");
        QVERIFY(!QFile::exists(QString::fromStdString(marker)));
        expectAlive();
    }

    void osSystemAndSocketsAreRefused() {
        VERIFY_FAILED_WITH(m_alpha->run("import os\nos.system('true')\nids.n = 1"),
                           "Python hint at pc 8 raised:");
        VERIFY_FAILED_WITH(
            m_alpha->run("import _socket\n_socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n"
                         "ids.n = 1"),
            "Python hint at pc 8 raised:");
        expectAlive();
    }

    void theDataDirAndOtherFilesAreOutOfReach() {
        const std::string database =
            QDir(m_server->dataDir()).filePath(QStringLiteral("proofdesk.sqlite")).toStdString();
        QVERIFY(QFile::exists(QString::fromStdString(database)));
        VERIFY_FAILED_WITH(m_alpha->run("ids.n = len(open('" + database + "', 'rb').read())"),
                           "PermissionError");
        VERIFY_FAILED_WITH(m_alpha->run("ids.n = len(open('/proc/self/mem', 'r+b').read(1))"),
                           "PermissionError");
        const std::string outside = m_outside.filePath(QStringLiteral("written")).toStdString();
        VERIFY_FAILED_WITH(m_alpha->run("open('" + outside + "', 'w').write('x')\nids.n = 1"),
                           "PermissionError");
        QVERIFY(!QFile::exists(QString::fromStdString(outside)));
        expectAlive();
    }

    void theEnvironmentHoldsNothingOfTheServer() {
        qputenv("PROOFDESK_TEST_SECRET", "hunter2");
        const Run run = m_alpha->run("import os\nraise RuntimeError(repr(dict(os.environ)))");
        qunsetenv("PROOFDESK_TEST_SECRET");
        VERIFY_FAILED_WITH(run, "RuntimeError");
        QVERIFY2(run.reason.find("hunter2") == std::string::npos, run.reason.c_str());
        QVERIFY2(run.reason.find("PROOFDESK_TEST_SECRET") == std::string::npos, run.reason.c_str());
    }

    void signalsToTheServerAreRefused() {
        const Run run = m_alpha->run("import os, signal\nos.kill(" + std::to_string(::getpid()) +
                                     ", signal.SIGTERM)\nids.n = 1");
        VERIFY_FAILED_WITH(run, "PermissionError");
        expectAlive();
    }

    void osExitFailsOnlyItsQuery() {
        const Run run = m_alpha->run("import os\nos._exit(0)");
        VERIFY_FAILED_WITH(run, "exited with code 0 before writing its result");
        expectAlive();
    }

    void aHintBlockedInCIsKilledAtTheTimeLimit() {
        const Run run = m_alpha->run("import time\ntime.sleep(10**6)\nids.n = 1");
        VERIFY_FAILED_WITH(run, "did not finish within its time limit of " +
                                    std::to_string(kWallSeconds) + " s");
        expectAlive();
    }

    // Issue #43, finding 3: the hint left its process group (the kill was the group's) and
    // caught the time-out; it lived on and held the job worker. Leaving the group is refused
    // now, and the kill is of the run's PID namespace, whatever the run does.
    void aRunawayHintDiesWithEverythingItStartedAtItsLimit() {
        QElapsedTimer timer;
        timer.start();
        const Run run = m_alpha->run("import os, time\n"
                                     "for leave in (lambda: os.setpgid(0, 0), os.setsid):\n"
                                     "    try:\n"
                                     "        leave()\n"
                                     "    except BaseException:\n"
                                     "        pass\n"
                                     "while True:\n"
                                     "    try:\n"
                                     "        time.sleep(1000)\n"
                                     "    except BaseException:\n"
                                     "        pass\n");
        const double seconds = double(timer.elapsed()) / 1000;
        VERIFY_FAILED_WITH(run, "did not finish within its time limit of " +
                                    std::to_string(kWallSeconds) + " s");
        qInfo("the runaway hint ended %.2f s after its submission, %.2f s past its %d s limit",
              seconds, seconds - kWallSeconds, kWallSeconds);
        QVERIFY2(seconds < kWallSeconds + 4, qPrintable(QString::number(seconds)));
        // Nothing of it is left running.
        const QString sandboxes = m_server->dataDir() + QStringLiteral("/work/sandbox");
        QDeadlineTimer gone(3000);
        while (processesWorkingIn(sandboxes) > 0 && !gone.hasExpired()) {
            QTest::qWait(20);
        }
        QCOMPARE(processesWorkingIn(sandboxes), 0);
        expectAlive();
    }

    void leavingItsProcessGroupOrSessionIsRefused() {
        VERIFY_FAILED_WITH(m_alpha->run("import os\nos.setpgid(0, 0)\nids.n = 1"),
                           "PermissionError");
        VERIFY_FAILED_WITH(m_alpha->run("import os\nos.setsid()\nids.n = 1"), "PermissionError");
        VERIFY_FAILED_WITH(
            m_alpha->run("import ctypes\n"
                         "libc = ctypes.CDLL(None, use_errno=True)\n"
                         "if libc.prctl(1, 0, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG, 0\n"
                         "    raise PermissionError(ctypes.get_errno(), 'prctl refused')\n"
                         "ids.n = 1"),
            "PermissionError");
    }

    // Issue #43, finding 4: 3,000 threads from one hint. A run has a task limit of its own.
    void threadsAreBounded() {
        // The hint reports how many it started in its failure (a run at its task limit is in no
        // state to go on).
        const Run run = m_alpha->run("import threading, time\n"
                                     "threading.stack_size(64 * 1024)  # memory is not the bound\n"
                                     "n = 0\n"
                                     "try:\n"
                                     "    while n < 3000:\n"
                                     "        threading.Thread(target=time.sleep, args=(1,),\n"
                                     "                         daemon=True).start()\n"
                                     "        n += 1\n"
                                     "except RuntimeError:\n"
                                     "    pass\n"
                                     "raise ValueError('started %d threads' % n)");
        VERIFY_FAILED_WITH(run, "started ");
        const std::size_t at = run.reason.rfind("started ") + 8; // the message, not the source
        const int started = std::stoi(run.reason.substr(at));
        qInfo("the hint started %d threads of the %d it asked for", started, 3000);
        QVERIFY2(started > 0 && started < sandbox::Limits::defaultTaskLimit(),
                 qPrintable(QString::number(started)));
        expectAlive();
    }

    // Issue #43, finding 6: a hint changed the stored input file's metadata through the
    // descriptor it was given. The run gets a sealed copy, and such calls are refused.
    void theStoredInputFilesCannotBeChanged() {
        const std::string input = R"({"values": [1, 2]})";
        const Run run =
            m_alpha->run("import os\n"
                         "changed = []\n"
                         "for fd in (3, 4):\n"
                         "    for name, change in (\n"
                         "            ('chmod', lambda fd=fd: os.fchmod(fd, 0o777)),\n"
                         "            ('utime', lambda fd=fd: os.utime(fd, (0, 0))),\n"
                         "            ('xattr', lambda fd=fd: os.setxattr(fd, 'user.pd', b'1')),\n"
                         "            ('chown', lambda fd=fd: os.fchown(fd, 0, 0)),\n"
                         "            ('write', lambda fd=fd: os.write(fd, b'x')),\n"
                         "            ('truncate', lambda fd=fd: os.ftruncate(fd, 0))):\n"
                         "        try:\n"
                         "            change()\n"
                         "            changed.append(name)\n"
                         "        except OSError:\n"
                         "            pass\n"
                         "if changed:\n"
                         "    raise RuntimeError('changed: ' + ', '.join(changed))\n"
                         "ids.n = 1",
                         input);
        QVERIFY2(run.status == "DONE", run.reason.c_str());
        const QString stored =
            m_server->dataDir() + QStringLiteral("/artifacts/") +
            QString::fromLatin1(QCryptographicHash::hash(QByteArray::fromStdString(input),
                                                         QCryptographicHash::Sha256)
                                    .toHex());
        struct stat info {};
        QCOMPARE(::stat(stored.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(int(info.st_mode & 07777), 0600);
        QVERIFY(info.st_mtime > 1'700'000'000); // not set back to 1970
        QCOMPARE(std::uint64_t(info.st_size), std::uint64_t(input.size()));
    }

    // A tenant whose hints hold job workers for their whole time limit leaves one worker for the
    // other tenants: a victim's tiny run is done while the hostile runs still run.
    void aHostileTenantLeavesAWorkerForOthers() {
        Submitter hostile(*m_server, QStringLiteral("hostile"));
        std::vector<std::string> held;
        for (int i = 0; i < 3; ++i) {
            held.push_back(hostile.submit("import time\ntime.sleep(10**6)\nids.n = 1"));
        }
        // Once two of them run, the third waits: the project may not take every worker.
        QDeadlineTimer running(scaledDeadline(10000));
        const auto statusOf = [&](const std::string& id) {
            return hostile.http().get("/core-query/" + id).json()["coreQuery"]["status"];
        };
        while (!running.hasExpired() &&
               std::count_if(held.begin(), held.end(), [&](const std::string& id) {
                   return statusOf(id) == "IN_PROGRESS";
               }) < 2) {
            QTest::qWait(20);
        }
        QElapsedTimer timer;
        timer.start();
        Submitter victim(*m_server, QStringLiteral("victim"));
        const Run tiny = victim.run("ids.n = 9");
        const double waited = double(timer.elapsed()) / 1000;
        QCOMPARE(tiny.status, std::string("DONE"));
        qInfo("the victim's tiny run took %.2f s while the hostile tenant's runs held two "
              "workers",
              waited);
        QVERIFY2(statusOf(held[0]) == "IN_PROGRESS" || statusOf(held[1]) == "IN_PROGRESS",
                 "the hostile runs ended before the victim's: the test shows nothing");
        for (const std::string& id : held) {
            hostile.wait(id);
        }
    }

    void aMemoryBlowUpIsStopped() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("sanitizer builds run sandboxed children without the address-space limit");
#endif
        const Run run = m_alpha->run("x = bytearray(8 << 30)\nids.n = len(x)");
        QCOMPARE(run.status, std::string("FAILED"));
        QVERIFY2(run.reason.find("MemoryError") != std::string::npos ||
                     run.reason.find("crashed") != std::string::npos,
                 run.reason.c_str());
        expectAlive();
    }

    void projectsDoNotShareAnInterpreter() {
        // alpha's hint rewrites a helper module and a builtin; beta's runs after it (and beside
        // it) must see neither.
        Submitter beta(*m_server, QStringLiteral("beta"));
        const std::string patch = "import builtins\n"
                                  "import starkware.cairo.common.math_utils as m\n"
                                  "m.assert_integer = lambda *a, **k: None\n"
                                  "builtins.pwned = True\n"
                                  "ids.n = 1";
        const std::string probe =
            "import builtins\n"
            "import starkware.cairo.common.math_utils as m\n"
            "ids.n = 2 if (hasattr(builtins, 'pwned') or m.assert_integer.__name__ == '<lambda>')"
            " else 3";
        const std::string first = m_alpha->submit(patch);
        const std::string beside = beta.submit(probe);
        QCOMPARE(m_alpha->wait(first).status, std::string("DONE"));
        COMPARE_JSON(beta.wait(beside).output, json::array({"0x3"}));
        COMPARE_JSON(beta.run(probe).output, json::array({"0x3"}));
    }
};

QTEST_GUILESS_MAIN(TstHintSandbox)
#include "tst_hint_sandbox.moc"
