// Issue #18: every parser of outside input is bounded. Nesting, list sizes and expansion are
// refused with a clear message before any recursive walk or large allocation.

#include "ZipOfZeros.h"

#include "cairo/pie/CairoPie.h"
#include "cairo/vm/Memory.h"
#include "cairo/vm/References.h"
#include "core/BoundedJson.h"

#include <QElapsedTimer>
#include <QTest>

using namespace proofdesk;

namespace {

std::string nested(std::size_t depth, const std::string& inner = "1") {
    return std::string(depth, '[') + inner + std::string(depth, ']');
}

} // namespace

class TstBoundedParsers : public QObject {
    Q_OBJECT

private slots:
    void jsonNestingIsLimitedWhileParsing() {
        QVERIFY(!core::parseJsonBounded(nested(core::kMaxJsonDepth)).is_discarded());
        std::string why;
        QVERIFY(core::parseJsonBounded(nested(core::kMaxJsonDepth + 1), &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
        // Objects count too, mixed with arrays.
        std::string objects;
        for (int i = 0; i < 600; ++i) {
            objects += i % 2 ? "[" : "{\"k\":";
        }
        QVERIFY(core::parseJsonBounded(objects, &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
    }

    void aMillionLevelsAreRefusedAtOnce() {
        // The finding: such a body overflowed the stack in a recursive walk.
        QElapsedTimer timer;
        timer.start();
        std::string why;
        QVERIFY(core::parseJsonBounded(nested(1'000'000), &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
        QVERIFY2(timer.elapsed() < 1000, "refused while parsing, long before the end");
    }

    void syntaxErrorsNameThePlaceNotTheText() {
        std::string why;
        QVERIFY(core::parseJsonBounded("{\"secret\": tru", &why).is_discarded());
        QVERIFY2(why.rfind("not valid JSON (at byte", 0) == 0, why.c_str());
        QVERIFY(why.find("secret") == std::string::npos);
    }

    void exactIntegersStayExact() {
        const auto value = core::parseJsonBounded(
            R"({"a": 3618502788666131213697322783095070105623107215331596699973092056135872020481, "b": 7, "c": 1.5})",
            nullptr, core::JsonLimits{core::kMaxJsonDepth, true});
        QCOMPARE(
            value["a"].get<std::string>(),
            std::string(
                "3618502788666131213697322783095070105623107215331596699973092056135872020481"));
        QCOMPARE(value["b"].get<int>(), 7);
        QCOMPARE(value["c"].get<double>(), 1.5);
    }

    void truncatedDumpsStayShort() {
        const nlohmann::json big = std::string(10'000, 'x');
        QCOMPARE(core::truncatedDump(big, 50).size(), std::size_t(53));
    }

    void referenceExpressionsAreBounded() {
        cairo::Memory memory;
        const cairo::RegisterState registers{};
        try {
            cairo::evaluateReference(nested(100'000, "fp"), registers, memory);
            QFAIL("a 100,000-level reference was evaluated");
        } catch (const std::exception& error) {
            const std::string message = error.what();
            QVERIFY2(message.find("nested deeper than 128 levels") != std::string::npos,
                     message.c_str());
            QVERIFY2(message.size() < 400, "the message quotes at most 200 characters");
        }
    }

    void aZipBombIsRefusedEarly() {
        const std::string bomb = test::zipOfZeros("metadata.json", std::size_t(64) << 20);
        QVERIFY(bomb.size() < (std::size_t(1) << 20));
        try {
            cairo::CairoPie::fromZip(bomb);
            QFAIL("the bomb was read");
        } catch (const cairo::PieError& error) {
            QVERIFY2(std::string(error.what()).find("zip bomb") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TstBoundedParsers)
#include "tst_bounded_parsers.moc"
