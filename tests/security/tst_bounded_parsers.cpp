// Issue #18: every parser of outside input is bounded. Nesting, list sizes and expansion are
// refused with a clear message before any recursive walk or large allocation.

#include "cairo/outputs/CairoPie.h"
#include "cairo/vm/Memory.h"
#include "cairo/vm/References.h"
#include "core/BoundedJson.h"

#include <zip.h>

#include <QElapsedTimer>
#include <QTest>

using namespace proofdesk;

namespace {

std::string nested(std::size_t depth, const std::string& inner = "1") {
    return std::string(depth, '[') + inner + std::string(depth, ']');
}

// A zip holding one entry of `size` zero bytes (it compresses about a thousand times).
std::string zipOfZeros(const char* name, std::size_t size) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &error);
    zip_source_keep(out);
    zip_t* archive = zip_open_from_source(out, ZIP_TRUNCATE, &error);
    static std::string zeros;
    zeros.assign(size, '\0');
    zip_source_t* entry = zip_source_buffer(archive, zeros.data(), zeros.size(), 0);
    zip_file_add(archive, name, entry, ZIP_FL_OVERWRITE);
    zip_close(archive);
    zip_source_open(out);
    zip_source_seek(out, 0, SEEK_END);
    const auto length = static_cast<std::size_t>(zip_source_tell(out));
    zip_source_seek(out, 0, SEEK_SET);
    std::string bytes(length, '\0');
    zip_source_read(out, bytes.data(), length);
    zip_source_close(out);
    zip_source_free(out);
    zip_error_fini(&error);
    return bytes;
}

} // namespace

class TstBoundedParsers : public QObject {
    Q_OBJECT

private slots:
    void jsonNestingIsLimitedWhileParsing() {
        QVERIFY(!parseJsonBounded(nested(kMaxJsonDepth)).is_discarded());
        std::string why;
        QVERIFY(parseJsonBounded(nested(kMaxJsonDepth + 1), &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
        // Objects count too, mixed with arrays.
        std::string objects;
        for (int i = 0; i < 600; ++i) {
            objects += i % 2 ? "[" : "{\"k\":";
        }
        QVERIFY(parseJsonBounded(objects, &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
    }

    void aMillionLevelsAreRefusedAtOnce() {
        // The finding: such a body overflowed the stack in a recursive walk.
        QElapsedTimer timer;
        timer.start();
        std::string why;
        QVERIFY(parseJsonBounded(nested(1'000'000), &why).is_discarded());
        QCOMPARE(why, std::string("nested deeper than 512 levels"));
        QVERIFY2(timer.elapsed() < 1000, "refused while parsing, long before the end");
    }

    void syntaxErrorsNameThePlaceNotTheText() {
        std::string why;
        QVERIFY(parseJsonBounded("{\"secret\": tru", &why).is_discarded());
        QVERIFY2(why.rfind("not valid JSON (at byte", 0) == 0, why.c_str());
        QVERIFY(why.find("secret") == std::string::npos);
    }

    void exactIntegersStayExact() {
        const auto value = parseJsonBounded(
            R"({"a": 3618502788666131213697322783095070105623107215331596699973092056135872020481, "b": 7, "c": 1.5})",
            nullptr, JsonLimits{kMaxJsonDepth, true});
        QCOMPARE(
            value["a"].get<std::string>(),
            std::string(
                "3618502788666131213697322783095070105623107215331596699973092056135872020481"));
        QCOMPARE(value["b"].get<int>(), 7);
        QCOMPARE(value["c"].get<double>(), 1.5);
    }

    void truncatedDumpsStayShort() {
        const nlohmann::json big = std::string(10'000, 'x');
        QCOMPARE(truncatedDump(big, 50).size(), std::size_t(53));
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
        const std::string bomb = zipOfZeros("metadata.json", std::size_t(64) << 20);
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
