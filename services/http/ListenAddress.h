#pragma once

#include <QString>

#include <optional>

namespace proofdesk::http {

struct ListenAddress {
    QString host = QStringLiteral("127.0.0.1");
    int port = 7300;
};

// "127.0.0.1:7300", "localhost:0", "[::1]:7300"; nullopt if malformed.
std::optional<ListenAddress> parseListenAddress(const QString& text);

// Loopback hosts: 127.0.0.0/8, ::1, localhost.
bool isLoopbackHost(const QString& host);

} // namespace proofdesk::http
