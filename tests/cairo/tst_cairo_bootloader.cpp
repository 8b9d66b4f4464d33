// The bootloader: its input (tasks, config, packed outputs), fact topologies and output pages,
// programs loaded at run time (vm_load_program) with hints of their own, and, over
// ../shared/fixtures (skipped when absent), cairo-lang's bootloader running the fixture programs
// as tasks.

#include "TestPrograms.h"
#include "cairo/Runner.h"
#include "cairo/hints/BootloaderInput.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/python/PythonHints.h"
#include "cairo/vm/ExactJson.h"
#include "cairo/vm/ProgramHash.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace proofdesk::cairo;
using proofdesk::test::Asm;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");
const QString kBootloader =
    kFixtures +
    QStringLiteral(
        "/runs/moonsong_bootloader_fibonacci_starknet_with_keccak/bootloader-v0.13.0.json");

nlohmann::json readJson(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? parseExactJson(file.readAll().toStdString())
                                          : nlohmann::json();
}

nlohmann::json runProgramTask(const nlohmann::json& program,
                              nlohmann::json input = nlohmann::json::object()) {
    return {{"type", "RunProgramTask"}, {"program", program}, {"program_input", input}};
}

nlohmann::json bootloaderInput(const nlohmann::json& tasks) {
    nlohmann::json packed = nlohmann::json::array();
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        packed.push_back({{"type", "PlainPackedOutput"}});
    }
    return {{"tasks", tasks},
            {"fact_topologies_path", nullptr},
            {"single_page", false},
            {"bootloader_config",
             {{"simple_bootloader_program_hash", 0},
              {"supported_cairo_verifier_program_hashes", nlohmann::json::array()}}},
            {"packed_outputs", packed}};
}

std::string errorOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const VmError& error) {
        return error.what();
    }
    return "(no error)";
}

OutputBuiltin makeOutput(Memory& memory) {
    OutputBuiltin output("output", 1, 1, LayoutBuiltin{"output", 0, 1}, true);
    output.initializeSegment(memory);
    return output;
}

std::vector<std::string> hexes(const std::vector<Felt>& values) {
    std::vector<std::string> out;
    for (const Felt& value : values) {
        out.push_back(value.toHex());
    }
    return out;
}

const char* kPedersenZeroZero = "0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804";

nlohmann::json cairoPieTask(const std::string& path) {
    return {{"type", "CairoPiePath"}, {"path", path}};
}

// A fixture program run by our VM (not in proof mode), as a PIE read back from its zip.
CairoPie pieOfRun(const nlohmann::json& program, const nlohmann::json& input) {
    const Program compiled = Program::fromJson(program);
    RunOptions options;
    options.layout = "starknet_with_keccak";
    options.programInput = input;
    CairoRunner runner(compiled, options);
    runner.run();
    return CairoPie::fromZip(runner.pie().toZip());
}

// The bootloader's output and fact topologies (proof mode, starknet_with_keccak) for `tasks`,
// whose CairoPiePath tasks name entries of `pies`.
struct BootloaderRun {
    std::vector<std::string> output;
    nlohmann::json factTopologies;
};
BootloaderRun runBootloader(const nlohmann::json& tasks,
                            const std::map<std::string, CairoPie>& pies) {
    QTemporaryDir temp;
    const std::string topologiesPath = temp.filePath(QStringLiteral("ft.json")).toStdString();
    nlohmann::json input = bootloaderInput(tasks);
    input["fact_topologies_path"] = topologiesPath;
    const Program bootloader = Program::fromFile(kBootloader.toStdString());
    RunOptions options;
    options.layout = "starknet_with_keccak";
    options.proofMode = true;
    options.programInput = input;
    options.hints.allowFileReads = false;
    options.hints.cairoPies = [&pies](const std::string& path) {
        auto it = pies.find(path);
        if (it == pies.end()) {
            throw PieError("no PIE named " + path);
        }
        return std::make_shared<const CairoPie>(it->second);
    };
    CairoRunner runner(bootloader, options);
    runner.run();
    return {hexes(runner.output()),
            readJson(QString::fromStdString(topologiesPath))["fact_topologies"]};
}

} // namespace

class CairoBootloaderTest : public QObject {
    Q_OBJECT
private slots:
    void inputReadsTasksConfigAndPackedOutputs() {
        nlohmann::json json = bootloaderInput(nlohmann::json::array(
            {runProgramTask(Asm::writesOutput(7).program({"output"}), {{"n", 3}})}));
        json["bootloader_config"]["simple_bootloader_program_hash"] = "0x1234";
        json["bootloader_config"]["supported_cairo_verifier_program_hashes"] = {
            5, "3618502788666131213697322783095070105623107215331596699973092056135872020480"};
        json["fact_topologies_path"] = "/tmp/topologies.json";
        json["packed_outputs"] = {{{"type", "CompositePackedOutput"},
                                   {"outputs", {1, "0x2"}},
                                   {"subtasks", {{{"type", "PlainPackedOutput"}}}},
                                   {"fact_topologies", nlohmann::json::array()}}};
        const BootloaderInput input = BootloaderInput::fromJson(json, true);
        QCOMPARE(input.tasks.size(), std::size_t(1));
        QCOMPARE(input.tasks[0].program->builtins, std::vector<std::string>{"output"});
        QVERIFY(input.tasks[0].programInput == nlohmann::json({{"n", 3}}));
        QCOMPARE(input.factTopologiesPath.value_or(""), std::string("/tmp/topologies.json"));
        QCOMPARE(input.simpleBootloaderProgramHash.toHex(), std::string("0x1234"));
        QCOMPARE(hexes(input.supportedCairoVerifierProgramHashes),
                 (std::vector<std::string>{"0x5", (-Felt::one()).toHex()}));
        QCOMPARE(input.packedOutputs.size(), std::size_t(1));
        QVERIFY(!input.packedOutputs[0].plain);
        QCOMPARE(hexes(input.packedOutputs[0].elementsForHash()),
                 (std::vector<std::string>{"0x1", "0x2"}));
        QCOMPARE(input.packedOutputs[0].subtasks.size(), std::size_t(1));
        QVERIFY(input.packedOutputs[0].subtasks[0].plain);
    }

    void simpleBootloaderInputNeedsNoConfig() {
        const nlohmann::json json = {
            {"tasks", {runProgramTask(Asm::writesOutput(7).program({"output"}))}},
            {"single_page", true}};
        const BootloaderInput input = BootloaderInput::fromJson(json, false);
        QCOMPARE(input.tasks.size(), std::size_t(1));
        QVERIFY(input.singlePage);
        QVERIFY(!input.factTopologiesPath);
        QVERIFY(errorOf([&] {
                    BootloaderInput::fromJson(json, true);
                }).find("has no \"bootloader_config\"") != std::string::npos);
    }

    void inputErrors_data() {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << "array"
                                       << "program_input is not a JSON object";
        QTest::newRow("no tasks") << "no tasks"
                                  << "program_input has no \"tasks\"";
        QTest::newRow("pie task, no PIE source")
            << "pie task"
            << "tasks[0] is a CairoPiePath task, which this run does not read";
        QTest::newRow("pie path") << "pie path"
                                  << "tasks[0].path is not a string";
        QTest::newRow("unknown task type")
            << "cairo1 task"
            << "tasks[0] has type \"Cairo1Task\" (expected RunProgramTask or CairoPiePath)";
        QTest::newRow("bad program") << "bad program"
                                     << "tasks[0].program: ";
        QTest::newRow("poseidon hash") << "use_poseidon"
                                       << "tasks[0] asks for use_poseidon";
        QTest::newRow("bad hash") << "bad hash"
                                  << "bootloader_config.simple_bootloader_program_hash is not "
                                     "an integer";
        QTest::newRow("bad packed output")
            << "bad packed"
            << "packed_outputs[0] has type \"Packed\" (expected PlainPackedOutput";
        QTest::newRow("bad path") << "bad path"
                                  << "fact_topologies_path is not a string";
    }

    void inputErrors() {
        QFETCH(QString, mutation);
        QFETCH(QString, message);
        nlohmann::json json = bootloaderInput(
            nlohmann::json::array({runProgramTask(Asm::writesOutput(7).program({"output"}))}));
        const std::string m = mutation.toStdString();
        if (m == "array") {
            json = nlohmann::json::array();
        } else if (m == "no tasks") {
            json.erase("tasks");
        } else if (m == "pie task") {
            json["tasks"][0] = {{"type", "CairoPiePath"}, {"path", "x.zip"}};
        } else if (m == "pie path") {
            json["tasks"][0] = {{"type", "CairoPiePath"}, {"path", 7}};
        } else if (m == "cairo1 task") {
            json["tasks"][0]["type"] = "Cairo1Task";
        } else if (m == "bad program") {
            json["tasks"][0]["program"] = {{"data", 3}};
        } else if (m == "use_poseidon") {
            json["tasks"][0]["use_poseidon"] = true;
        } else if (m == "bad hash") {
            json["bootloader_config"]["simple_bootloader_program_hash"] = "0xnope";
        } else if (m == "bad packed") {
            json["packed_outputs"][0]["type"] = "Packed";
        } else if (m == "bad path") {
            json["fact_topologies_path"] = 3;
        }
        const std::string error = errorOf([&] { BootloaderInput::fromJson(json, true); });
        QVERIFY2(error.rfind("bootloader input: " + message.toStdString(), 0) == 0, error.c_str());
    }

    void taskWithoutPagesHasOnePage() {
        const FactTopology topology = taskFactTopology(5, OutputBuiltinState{});
        QCOMPARE(topology.treeStructure, (std::vector<std::uint64_t>{1, 0}));
        QCOMPARE(topology.pageSizes, (std::vector<std::uint64_t>{5}));
        QVERIFY(topology.toJson() ==
                nlohmann::json({{"tree_structure", {1, 0}}, {"page_sizes", {5}}}));
    }

    void taskPagesFollowItsFactTopologyAttribute() {
        OutputBuiltinState state;
        state.pages = {{1, {2, 3}}, {2, {5, 4}}};
        state.attributes = {{"gps_fact_topology", {2, 1, 0, 2}}};
        const FactTopology topology = taskFactTopology(9, state);
        QCOMPARE(topology.treeStructure, (std::vector<std::uint64_t>{2, 1, 0, 2}));
        QCOMPARE(topology.pageSizes, (std::vector<std::uint64_t>{2, 3, 4}));
    }

    void inconsistentTaskPagesAreRefused_data() {
        QTest::addColumn<int>("variant");
        QTest::addColumn<QString>("message");
        QTest::newRow("pages without attribute") << 0 << "must set the gps_fact_topology";
        QTest::newRow("gap between pages") << 1 << "page 2 starts at 6, not where page 1 ends (5)";
        QTest::newRow("short of the end") << 2 << "last output page ends at 9, not at the end";
        QTest::newRow("skipped id") << 3 << "skip from 1 to 3";
        QTest::newRow("odd attribute") << 4 << "gps_fact_topology attribute is not a list";
    }

    void inconsistentTaskPagesAreRefused() {
        QFETCH(int, variant);
        QFETCH(QString, message);
        OutputBuiltinState state;
        state.attributes = {{"gps_fact_topology", {2, 1, 0, 2}}};
        std::uint64_t size = 9;
        switch (variant) {
        case 0:
            state.attributes = nlohmann::json::object();
            state.pages = {{1, {2, 7}}};
            break;
        case 1:
            state.pages = {{1, {2, 3}}, {2, {6, 3}}};
            break;
        case 2:
            state.pages = {{1, {2, 3}}, {2, {5, 4}}};
            size = 12;
            break;
        case 3:
            state.pages = {{1, {2, 3}}, {3, {5, 4}}};
            break;
        default:
            state.attributes = {{"gps_fact_topology", {2, 1, 0}}};
            break;
        }
        const std::string error = errorOf([&] { taskFactTopology(size, state); });
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
    }

    void factTopologiesBecomeOutputPages() {
        Memory memory;
        memory.addSegment();
        OutputBuiltin output = makeOutput(memory);
        const FactTopology first{{1, 0}, {2}};
        const FactTopology second{{2, 1, 0, 2}, {1, 3}};
        // Bootloader output: [n_tasks] then per task [size, hash, output...].
        configureFactTopologies({first, second}, output.base() + 1, output);
        const auto& pages = output.pages();
        QCOMPARE(pages.size(), std::size_t(3));
        QCOMPARE(pages.at(1).start, std::uint64_t(3));
        QCOMPARE(pages.at(1).size, std::uint64_t(2));
        QCOMPARE(pages.at(2).start, std::uint64_t(7));
        QCOMPARE(pages.at(2).size, std::uint64_t(1));
        QCOMPARE(pages.at(3).start, std::uint64_t(8));
        QCOMPARE(pages.at(3).size, std::uint64_t(3));
        QCOMPARE(output.pageOf(0), std::uint64_t(0));
        QCOMPARE(output.pageOf(4), std::uint64_t(1));
        QCOMPARE(output.pageOf(5), std::uint64_t(0));
        QCOMPARE(output.pageOf(10), std::uint64_t(3));
        QVERIFY(output.additionalData() ==
                nlohmann::json({{"pages", {{"1", {3, 2}}, {"2", {7, 1}}, {"3", {8, 3}}}},
                                {"attributes", nlohmann::json::object()}}));
        QVERIFY(errorOf([&] {
                    output.addPage(2, output.base() + 20, 1);
                }).find("output page 2 was already added") != std::string::npos);
        QVERIFY(errorOf([&] {
                    output.addPage(9, Relocatable{0, 0}, 1);
                }).find("outside the output") != std::string::npos);
    }

    void plainFactTopologiesMatchPackedOutputs() {
        const std::vector<FactTopology> topologies{{{1, 0}, {2}}};
        QCOMPARE(plainFactTopologies({PackedOutput{}}, topologies).size(), std::size_t(1));
        QVERIFY(errorOf([&] {
                    plainFactTopologies({PackedOutput{}, PackedOutput{}}, topologies);
                }).find("2 packed outputs but ran 1 tasks") != std::string::npos);
        PackedOutput composite;
        composite.plain = false;
        QVERIFY(errorOf([&] {
                    plainFactTopologies({composite}, topologies);
                }).find("CompositePackedOutput are not computed natively") != std::string::npos);
    }

    void outputStateIsSavedAndRestored() {
        Memory memory;
        memory.addSegment();
        OutputBuiltin output = makeOutput(memory);
        const Relocatable original = output.base();
        output.addPage(1, original + 2, 3);
        output.addAttribute("gps_fact_topology", {1, 0});
        const OutputBuiltinState saved = output.state();

        const Relocatable elsewhere = memory.addSegment() + 4;
        output.newState(elsewhere);
        QVERIFY(output.base() == elsewhere);
        QVERIFY(output.pages().empty());
        QVERIFY(output.attributes().empty());
        output.addPage(1, elsewhere + 1, 2); // relative to the new base
        QCOMPARE(output.pages().at(1).start, std::uint64_t(1));
        QCOMPARE(output.pageOf(5), std::uint64_t(1));

        output.setState(saved);
        QVERIFY(output.base() == original);
        QCOMPARE(output.pages().at(1).start, std::uint64_t(2));
        QVERIFY(output.attributes() == nlohmann::json({{"gps_fact_topology", {1, 0}}}));
    }

    void loadedProgramRunsItsOwnHints() {
        // A program placed in a segment of its own at run time, with a hint at its pc 0.
        Memory memory;
        memory.addSegment(); // program
        const Relocatable execution = memory.addSegment();
        const Program outer = Program::fromJson(Asm().ret().program());
        memory.set({0, 0}, outer.data[0]);
        std::vector<std::unique_ptr<BuiltinRunner>> builtins;
        Vm vm(memory, outer.data.size());
        HintProcessor hints(outer, nlohmann::json::object());
        hints.attach(vm, builtins);

        Asm code;
        code.pushImm(5).ret();
        auto task = std::make_shared<const Program>(Program::fromJson(
            code.program({}, {{"0",
                               {{{"code", "memory[ap] = segments.add()"},
                                 {"accessible_scopes", {"__main__"}},
                                 {"flow_tracking_data",
                                  {{"ap_tracking", {{"group", 0}, {"offset", 0}}},
                                   {"reference_ids", nlohmann::json::object()}}}}}}})));
        const Relocatable base = memory.addSegment();
        for (std::size_t i = 0; i < task->data.size(); ++i) {
            memory.set(base + static_cast<std::int64_t>(i), task->data[i]);
        }
        hints.loadProgram(vm, task, base);
        QVERIFY(errorOf([&] { hints.loadProgram(vm, task, base); }).find("already has hints") !=
                std::string::npos);
        QVERIFY(errorOf([&] {
                    hints.loadProgram(vm, task, Relocatable{0, 0});
                }).find("segment of its own") != std::string::npos);

        const std::size_t segmentsBefore = memory.segmentCount();
        vm.pc = base;
        vm.ap = execution;
        vm.fp = execution;
        // The hint wrote a new segment's address at ap; the instruction then asserts [ap] = 5,
        // which fails on the hint's value: the hint ran first, at the loaded pc.
        const std::string error = errorOf([&] { vm.step(); });
        QCOMPARE(memory.segmentCount(), segmentsBefore + 1);
        QVERIFY(memory.get(execution).isAddress());
        QVERIFY2(!error.empty() && error != "(no error)", error.c_str());
    }

    void everyBootloaderHintIsNative() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        const Program bootloader = Program::fromFile(kBootloader.toStdString());
        std::size_t sites = 0;
        for (const auto& [pc, hints] : bootloader.hints) {
            for (const HintSpec& hint : hints) {
                QVERIFY2(HintProcessor::hasNativeImplementation(hint.code), hint.code.c_str());
                ++sites;
            }
        }
        QCOMPARE(sites, std::size_t(38));
    }

    void bootloaderRunsFixtureProgramsAsTasks() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        // Tasks with native hints in their own code (unsafe_keccak, find_element, dict), an input
        // of their own (fibonacci_program_input), and builtins to select (pedersen_test).
        const QString dir = kFixtures + QStringLiteral("/programs/proof_mode/");
        const nlohmann::json fibonacciInput = {{"fibonacci_claim_index", 10}};
        const std::vector<std::pair<std::string, nlohmann::json>> tasks = {
            {"unsafe_keccak", nlohmann::json::object()},
            {"fibonacci_program_input", fibonacciInput},
            {"pedersen_test", nlohmann::json::object()},
            {"find_element", nlohmann::json::object()},
            {"dict", nlohmann::json::object()}};
        nlohmann::json taskList = nlohmann::json::array();
        std::vector<Felt> expected = {Felt::fromU64(0x1234), *Felt::parse(kPedersenZeroZero),
                                      Felt::fromU64(tasks.size())};
        const std::map<std::string, std::vector<std::string>> outputs = {
            {"unsafe_keccak",
             {"182565855334575837944615807286777833262", "90044356407795786957420814893241941221"}},
            {"fibonacci_program_input", {"10", "144"}},
            {"pedersen_test", {kPedersenZeroZero}}};
        for (const auto& [name, input] : tasks) {
            const nlohmann::json program =
                readJson(dir + QString::fromStdString(name) + QStringLiteral(".json"));
            taskList.push_back(runProgramTask(program, input));
            const auto found = outputs.find(name);
            const std::vector<std::string> taskOutput =
                found == outputs.end() ? std::vector<std::string>{} : found->second;
            expected.push_back(Felt::fromU64(2 + taskOutput.size()));
            expected.push_back(programHash(Program::fromJson(program)));
            for (const std::string& value : taskOutput) {
                expected.push_back(*Felt::parse(value));
            }
        }
        QTemporaryDir temp;
        const std::string topologiesPath = temp.filePath(QStringLiteral("ft.json")).toStdString();
        nlohmann::json input = bootloaderInput(taskList);
        input["bootloader_config"]["simple_bootloader_program_hash"] = "0x1234";
        input["fact_topologies_path"] = topologiesPath;

        const Program bootloader = Program::fromFile(kBootloader.toStdString());
        RunOptions options;
        options.layout = "starknet_with_keccak";
        options.proofMode = true;
        options.programInput = input;
        CairoRunner runner(bootloader, options);
        runner.run();
        QCOMPARE(hexes(runner.output()), hexes(expected));

        // One page per task output after its two header words; the header stays on page 0.
        const nlohmann::json topologies = readJson(QString::fromStdString(topologiesPath));
        QCOMPARE(topologies["fact_topologies"].size(), tasks.size());
        QVERIFY(topologies["fact_topologies"][0] ==
                nlohmann::json({{"tree_structure", {1, 0}}, {"page_sizes", {2}}}));
        QVERIFY(topologies["fact_topologies"][3]["page_sizes"] == nlohmann::json::array({0}));
        const nlohmann::json pub = nlohmann::json::parse(runner.airPublicInput().dump());
        const std::uint64_t outputBase = pub["memory_segments"]["output"]["begin_addr"];
        std::map<std::uint64_t, int> pageOf;
        for (const auto& entry : pub["public_memory"]) {
            pageOf[entry["address"].get<std::uint64_t>()] = entry["page"].get<int>();
        }
        const std::vector<int> wantPages = {0, 0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 3, 0, 0, 0, 0};
        for (std::size_t i = 0; i < wantPages.size(); ++i) {
            QCOMPARE(pageOf.at(outputBase + i), wantPages[i]);
        }
    }

    void bootloaderRunsCairoPieTasks() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        // PIEs of our own runs (an input, native hints, pedersen, ecdsa signatures) give the
        // bootloader the output their programs give as RunProgramTasks, without their hints.
        const QString dir = kFixtures + QStringLiteral("/programs/proof_mode/");
        const std::vector<std::pair<std::string, nlohmann::json>> programs = {
            {"fibonacci_program_input", {{"fibonacci_claim_index", 10}}},
            {"pedersen_test", nlohmann::json::object()},
            {"common_signature", nlohmann::json::object()},
            {"dict", nlohmann::json::object()}};
        std::map<std::string, CairoPie> pies;
        nlohmann::json programTasks = nlohmann::json::array();
        nlohmann::json pieTasks = nlohmann::json::array();
        for (const auto& [name, input] : programs) {
            const nlohmann::json program =
                readJson(dir + QString::fromStdString(name) + QStringLiteral(".json"));
            pies.emplace(name, pieOfRun(program, input));
            programTasks.push_back(runProgramTask(program, input));
            pieTasks.push_back(cairoPieTask(name));
        }
        QVERIFY(!pies.at("common_signature").additionalData["ecdsa_builtin"].empty());
        const BootloaderRun asPrograms = runBootloader(programTasks, pies);
        const BootloaderRun asPies = runBootloader(pieTasks, pies);
        QCOMPARE(asPies.output, asPrograms.output);
        QVERIFY(asPies.factTopologies == asPrograms.factTopologies);
        QCOMPARE(asPies.output.at(5), std::string("0xa")); // fibonacci's claim index
        QCOMPARE(asPies.output.at(6), std::string("0x90"));

        // cairo-lang's own PIE, after a program task: its output, hash and size follow.
        const CairoPie external = CairoPie::fromFile(
            QString(kFixtures + QStringLiteral("/pies/fibonacci_pie.zip")).toStdString());
        pies.emplace("cairo-lang", external);
        const BootloaderRun mixed = runBootloader(
            nlohmann::json::array({programTasks[1], cairoPieTask("cairo-lang")}), pies);
        std::vector<std::string> tail = {Felt::fromU64(2 + external.output().size()).toHex(),
                                         external.programHash().toHex()};
        for (const std::string& word : hexes(external.output())) {
            tail.push_back(word);
        }
        QCOMPARE(
            std::vector<std::string>(mixed.output.end() - static_cast<std::ptrdiff_t>(tail.size()),
                                     mixed.output.end()),
            tail);
    }

    void tamperedPieTasksAreRefused_data() {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("message");
        QTest::newRow("output the program contradicts") << "output"
                                                        << "an ASSERT_EQ instruction failed at pc";
        QTest::newRow("builtin usage") << "usage"
                                       << "Builtin usage is inconsistent with the CairoPie";
        QTest::newRow("cell outside its segment") << "outside"
                                                  << "is outside the segments it declares";
        QTest::newRow("builtin base inside a segment")
            << "base"
            << "output builtin start address is not the base of a segment";
        QTest::newRow("forged signature") << "signature"
                                          << "Signature (";
        QTest::newRow("simulated builtins")
            << "simulated"
            << "the PIE simulates builtins, which this bootloader does not load";
    }

    void tamperedPieTasksAreRefused() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        QFETCH(QString, tamper);
        QFETCH(QString, message);
        const std::string t = tamper.toStdString();
        const QString dir = kFixtures + QStringLiteral("/programs/proof_mode/");
        CairoPie pie =
            t == "signature"
                ? pieOfRun(readJson(dir + QStringLiteral("common_signature.json")), {})
                : pieOfRun(readJson(dir + QStringLiteral("fibonacci_program_input.json")),
                           {{"fibonacci_claim_index", 10}});
        const std::int64_t outputSegment = pie.builtinSegments.at(0).second.index;
        if (t == "output") {
            for (auto& [address, value] : pie.memory) {
                if (address.segment == outputSegment && address.offset == 1) {
                    value = Felt::fromU64(145); // F(10) is 144
                }
            }
        } else if (t == "usage") {
            pie.builtinSegments.at(0).second.size += 1;
        } else if (t == "outside") {
            pie.memory.emplace_back(
                Relocatable{pie.executionSegment.index, pie.executionSegment.size + 5},
                Felt::one());
        } else if (t == "base") {
            for (auto& [address, value] : pie.memory) {
                if (address.segment == pie.executionSegment.index && address.offset == 0) {
                    value = Relocatable{outputSegment, 1};
                }
            }
        } else if (t == "signature") {
            nlohmann::json& signatures = pie.additionalData["ecdsa_builtin"];
            QVERIFY(!signatures.empty());
            signatures[0][1][0] = "12345";
        } else if (t == "simulated") {
            pie.simulatedBuiltins = {"ecdsa"};
        }
        const std::string error = errorOf([&] {
            runBootloader(nlohmann::json::array({cairoPieTask("x")}), {{"x", pie}});
        });
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
    }

    void serverRunsDoNotWriteFactTopologies() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        QTemporaryDir temp;
        const QString path = temp.filePath(QStringLiteral("ft.json"));
        nlohmann::json input = bootloaderInput(nlohmann::json::array({runProgramTask(
            readJson(kFixtures + QStringLiteral("/programs/proof_mode/pedersen_test.json")))}));
        input["fact_topologies_path"] = path.toStdString();
        const Program bootloader = Program::fromFile(kBootloader.toStdString());
        RunOptions options;
        options.layout = "starknet_with_keccak";
        options.programInput = input;
        options.hints.allowFileWrites = false;
        CairoRunner runner(bootloader, options);
        const std::string error = errorOf([&] { runner.run(); });
        QVERIFY2(error.find("fact_topologies_path is not written by this run") != std::string::npos,
                 error.c_str());
        QVERIFY(!QFile::exists(path));
    }

    void taskPythonHintsReadTheTaskInput() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        // Our sample's hint reads program_input['values'] and has no native implementation.
        const nlohmann::json sample =
            readJson(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/sum_of_squares.json"));
        const nlohmann::json input = bootloaderInput(
            nlohmann::json::array({runProgramTask(sample, {{"values", {3, 4, 12}}})}));
        const Program bootloader = Program::fromFile(kBootloader.toStdString());
        RunOptions options;
        options.layout = "starknet_with_keccak";
        options.programInput = input;
        {
            CairoRunner native(bootloader, options);
            const std::string error = errorOf([&] { native.run(); });
            QVERIFY2(error.find("of a loaded program) (no native implementation; run with "
                                "cairoVm=python") != std::string::npos,
                     error.c_str());
        }
        if (!pythonHintsAvailable()) {
            QSKIP("the embedded Python interpreter is not available");
        }
        options.hints.execution = HintExecution::NativeThenPython;
        CairoRunner runner(bootloader, options);
        runner.run();
        QCOMPARE(
            hexes(runner.output()),
            hexes({Felt::zero(), *Felt::parse(kPedersenZeroZero), Felt::one(), Felt::fromU64(3),
                   programHash(Program::fromJson(sample)), Felt::fromU64(169)}));
    }

    void badTaskFailsTheRunWithItsReason() {
        if (!QFile::exists(kBootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        const nlohmann::json input =
            bootloaderInput(nlohmann::json::array({cairoPieTask("/nonexistent/pie.zip")}));
        const Program bootloader = Program::fromFile(kBootloader.toStdString());
        RunOptions options;
        options.layout = "starknet_with_keccak";
        options.programInput = input;
        {
            CairoRunner runner(bootloader, options);
            const std::string error = errorOf([&] { runner.run(); });
            QVERIFY2(error.find("hint at pc 546 failed: bootloader input: tasks[0].path: cannot "
                                "read /nonexistent/pie.zip") != std::string::npos,
                     error.c_str());
        }
        // A server reads no file its input names.
        options.hints.allowFileReads = false;
        CairoRunner runner(bootloader, options);
        const std::string error = errorOf([&] { runner.run(); });
        QVERIFY2(error.find("tasks[0] is a CairoPiePath task, which this run does not read (a "
                            "server reads no files its input names)") != std::string::npos,
                 error.c_str());
    }
};

QTEST_GUILESS_MAIN(CairoBootloaderTest)
#include "tst_cairo_bootloader.moc"
