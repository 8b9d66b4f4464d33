#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace proofdesk::client {

// What a file chosen in a form is, read locally before it is sent (nothing of it runs): the
// console says what it will submit, and asks for arguments when a Cairo 1 program takes them.
struct ProgramFileSummary {
    enum class Kind { Cairo0Program, Cairo1Executable, Sierra, CairoPie, Json, Unknown };
    Kind kind = Kind::Unknown;
    QStringList entryPoints; // "Standalone at 0", "Bootloader at 6" (Cairo 1)
    QStringList builtins;
    qsizetype bytecodeWords = 0;
    QString problem; // why the service would refuse it (a Sierra file, a malformed executable)
};
ProgramFileSummary summarizeProgramFile(const QByteArray& bytes);

// A Cairo 1 program's arguments as a form takes them ("1, 0x2", as `scarb execute --arguments`)
// in the JSON array the proof service takes as inputFile; nullopt with `error` naming the item
// that is not a felt.
std::optional<QByteArray> argumentsAsInputFile(const QString& list, QString* error);

} // namespace proofdesk::client
