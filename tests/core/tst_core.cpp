#include "core/Clock.h"
#include "core/SecureRandom.h"
#include "core/ServiceError.h"
#include "core/Store.h"
#include "core/Ulid.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace proofdesk;

class CoreTest : public QObject {
    Q_OBJECT
private slots:
    void ulidsAreSortableAndWellFormed() {
        const QString a = core::newUlid(1700000000000);
        const QString b = core::newUlid(1700000000001);
        QVERIFY(core::isUlid(a));
        QVERIFY(core::isUlid(b));
        QVERIFY(a < b);
        QCOMPARE(a.left(10), core::newUlid(1700000000000).left(10));           // the time part
        QVERIFY(core::newUlid(1700000000000) != core::newUlid(1700000000000)); // the random part
        // 1700000000000 ms = 0x018BCFE56800 -> Crockford "01HF7YAT00".
        QCOMPARE(a.left(10), QStringLiteral("01HF7YAT00"));
        QVERIFY(!core::isUlid(QStringLiteral("01HF7YAT00ILOU000000000000")));
        QVERIFY(!core::isUlid(QStringLiteral("81HF7YAT0000000000000000000").left(26)));

        // Within one millisecond (a burst of requests, a test's stopped clock) ids still sort in
        // the order they were made, so a list ordered by id is the creation order.
        QString previous = core::newUlid(1700000000500);
        for (int i = 0; i < 2000; ++i) {
            const QString next = core::newUlid(1700000000500);
            QVERIFY2(previous < next, qPrintable(previous + QStringLiteral(" then ") + next));
            QCOMPARE(next.left(10), previous.left(10));
            previous = next;
        }
    }

    void timestampsAreIsoUtcWithMilliseconds() {
        QCOMPARE(core::toIsoTimestampMs(1700000000123), QStringLiteral("2023-11-14T22:13:20.123Z"));
        core::ManualClock clock(1700000000000);
        clock.advanceSeconds(60);
        QCOMPARE(core::toIsoTimestamp(clock.now()), QStringLiteral("2023-11-14T22:14:20.000Z"));
    }

    void tokensAreRandomAndPrefixed() {
        const QString a = core::secureRandomToken(QStringLiteral("pdk_"), 24);
        const QString b = core::secureRandomToken(QStringLiteral("pdk_"), 24);
        QVERIFY(a != b);
        QVERIFY(QRegularExpression(QStringLiteral("^pdk_[A-Za-z0-9_-]{32}$")).match(a).hasMatch());
        QCOMPARE(
            core::sha256Hex(QStringLiteral("abc")),
            QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QVERIFY(core::constantTimeEquals("abc", "abc"));
        QVERIFY(!core::constantTimeEquals("abc", "abd"));
        QVERIFY(!core::constantTimeEquals("abc", "abcd"));
    }

    void storeUsesWalAndOwnerOnlyFiles() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.sqlite"));
        core::Store store(path);
        QSqlQuery mode = store.exec(QStringLiteral("PRAGMA journal_mode"));
        QVERIFY(mode.next());
        QCOMPARE(mode.value(0).toString(), QStringLiteral("wal"));
        QSqlQuery sync = store.exec(QStringLiteral("PRAGMA synchronous"));
        QVERIFY(sync.next());
        QCOMPARE(sync.value(0).toInt(), 2); // FULL
        QCOMPARE(QFileInfo(path).permissions() &
                     (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteOther),
                 QFileDevice::Permissions());
    }

    void migrationsApplyOnceInOrder() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.sqlite"));
        const std::vector<core::Migration> v1 = {
            {1, QStringLiteral("t"), {QStringLiteral("CREATE TABLE t (a INTEGER)")}}};
        std::vector<core::Migration> v2 = v1;
        v2.push_back({2, QStringLiteral("t.b"), {QStringLiteral("ALTER TABLE t ADD COLUMN b")}});
        {
            core::Store store(path);
            store.migrate(QStringLiteral("demo"), v1);
            store.migrate(QStringLiteral("demo"), v1); // idempotent
            QCOMPARE(store.schemaVersion(QStringLiteral("demo")), 1);
            store.exec(QStringLiteral("INSERT INTO t (a) VALUES (7)"));
        }
        core::Store reopened(path);
        reopened.migrate(QStringLiteral("demo"), v2);
        QCOMPARE(reopened.schemaVersion(QStringLiteral("demo")), 2);
        QCOMPARE(reopened.schemaVersion(QStringLiteral("other")), 0);
        QSqlQuery q = reopened.exec(QStringLiteral("SELECT a, b FROM t"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 7);
    }

    void failingMigrationLeavesNothingBehind() {
        QTemporaryDir dir;
        core::Store store(dir.filePath(QStringLiteral("s.sqlite")));
        const std::vector<core::Migration> broken = {
            {1,
             QStringLiteral("half"),
             {QStringLiteral("CREATE TABLE half (a)"), QStringLiteral("NOT SQL AT ALL")}}};
        QVERIFY_THROWS_EXCEPTION(core::ServiceError, store.migrate(QStringLiteral("x"), broken));
        QCOMPARE(store.schemaVersion(QStringLiteral("x")), 0);
        QVERIFY_THROWS_EXCEPTION(core::ServiceError,
                                 store.exec(QStringLiteral("SELECT * FROM half")));
    }

    void writeRollsBackWhenWorkThrows() {
        QTemporaryDir dir;
        core::Store store(dir.filePath(QStringLiteral("s.sqlite")));
        store.exec(QStringLiteral("CREATE TABLE t (a INTEGER)"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, store.write([&](QSqlDatabase&) {
            store.exec(QStringLiteral("INSERT INTO t VALUES (1)"));
            throw std::runtime_error("abort");
        }));
        QSqlQuery q = store.exec(QStringLiteral("SELECT COUNT(*) FROM t"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }

    void eachThreadGetsItsOwnConnection() {
        QTemporaryDir dir;
        core::Store store(dir.filePath(QStringLiteral("s.sqlite")));
        store.exec(QStringLiteral("CREATE TABLE t (a INTEGER)"));
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&store, t] {
                for (int i = 0; i < 25; ++i) {
                    store.write([&](QSqlDatabase&) {
                        store.exec(QStringLiteral("INSERT INTO t VALUES (?)"), {t * 100 + i});
                    });
                }
            });
        }
        for (auto& thread : threads) {
            thread.join();
        }
        QSqlQuery q = store.exec(QStringLiteral("SELECT COUNT(DISTINCT a) FROM t"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 100);
    }
};

QTEST_GUILESS_MAIN(CoreTest)
#include "tst_core.moc"
