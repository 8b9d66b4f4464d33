#include "ProgramFileSummary.h"

#include "cairo/ProgramFiles.h"
#include "cairo/cairo1/Executable.h"
#include "cairo/vm/ExactJson.h"

#include <nlohmann/json.hpp>

namespace proofdesk::client {

ProgramFileSummary summarizeProgramFile(const QByteArray& bytes) {
    ProgramFileSummary summary;
    if (bytes.startsWith("PK\x03\x04")) {
        summary.kind = ProgramFileSummary::Kind::CairoPie;
        return summary;
    }
    const nlohmann::json json = cairo::parseExactJson(bytes.toStdString());
    if (json.is_discarded()) {
        return summary;
    }
    switch (cairo::programFormatOf(json)) {
    case cairo::ProgramFormat::Cairo0:
        summary.kind = ProgramFileSummary::Kind::Cairo0Program;
        break;
    case cairo::ProgramFormat::Sierra:
        summary.kind = ProgramFileSummary::Kind::Sierra;
        summary.problem = QString::fromStdString(cairo::sierraRefusal());
        break;
    case cairo::ProgramFormat::Cairo1Executable:
        summary.kind = ProgramFileSummary::Kind::Cairo1Executable;
        try {
            const cairo::Executable executable = cairo::Executable::fromJson(json);
            summary.bytecodeWords = static_cast<qsizetype>(executable.bytecode.size());
            for (const cairo::Executable::Entrypoint& point : executable.entrypoints) {
                summary.entryPoints.append(QStringLiteral("%1 at %2")
                                               .arg(QLatin1String(cairo::entryKindName(point.kind)),
                                                    QString::number(point.offset)));
            }
            for (const std::string& name :
                 executable.entrypoint(cairo::Executable::EntryKind::Bootloader).builtins) {
                summary.builtins.append(QString::fromStdString(name));
            }
        } catch (const std::exception& error) {
            summary.problem = QString::fromUtf8(error.what());
        }
        break;
    case cairo::ProgramFormat::Unknown:
        summary.kind = ProgramFileSummary::Kind::Json;
        break;
    }
    return summary;
}

std::optional<QByteArray> argumentsAsInputFile(const QString& list, QString* error) {
    try {
        nlohmann::json array = nlohmann::json::array();
        for (const cairo::Felt& felt : cairo::argumentsFromList(list.toStdString())) {
            array.push_back(felt.toHex());
        }
        return QByteArray::fromStdString(array.dump());
    } catch (const std::invalid_argument& failure) {
        *error = QString::fromUtf8(failure.what());
        return std::nullopt;
    }
}

} // namespace proofdesk::client
