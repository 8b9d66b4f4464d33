#pragma once

// Text between the services' std::string and Qt's QString / QVariant (store rows, job payloads):
// the one pair of helpers every service uses.

#include <QString>
#include <QVariant>

#include <string>

namespace proofdesk::core {

inline QString qstr(const std::string& text) {
    return QString::fromStdString(text);
}

inline std::string str(const QVariant& value) {
    return value.toString().toStdString();
}

} // namespace proofdesk::core
