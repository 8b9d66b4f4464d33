#include "ChainRegistry.h"

#include "api/RequestWire.h"

#include <QUrl>

namespace proofdesk::chain {

const QStringList& knownChainIds() {
    static const QStringList ids = [] {
        QStringList list;
        for (const std::string& id : api::request_enums::kChainIds) {
            list << QString::fromStdString(id);
        }
        return list;
    }();
    return ids;
}

std::optional<ChainKind> chainKind(const QString& chainId) {
    return api::chainKindOf(chainId.toStdString());
}

bool canBeOrigin(const QString& chainId) {
    return api::canBeOrigin(chainId.toStdString());
}

ChainRegistry& ChainRegistry::operator=(const ChainRegistry& other) {
    if (this != &other) {
        replaceAll(other.all());
    }
    return *this;
}

void ChainRegistry::setRpcUrl(const QString& chainId, const QString& url) {
    const std::lock_guard lock(m_mutex);
    m_urls[chainId] = url;
}

void ChainRegistry::replaceAll(std::map<QString, QString> urls) {
    const std::lock_guard lock(m_mutex);
    m_urls = std::move(urls);
}

std::map<QString, QString> ChainRegistry::all() const {
    const std::lock_guard lock(m_mutex);
    return m_urls;
}

std::optional<QString> ChainRegistry::rpcUrl(const QString& chainId) const {
    const std::lock_guard lock(m_mutex);
    const auto it = m_urls.find(chainId);
    if (it == m_urls.end() || it->second.isEmpty()) {
        return std::nullopt;
    }
    return it->second;
}

bool ChainRegistry::addAssignment(const QString& assignment, QString* error) {
    const qsizetype equals = assignment.indexOf(QLatin1Char('='));
    if (equals <= 0) {
        *error = QStringLiteral("expected CHAIN_ID=URL, got %1").arg(assignment);
        return false;
    }
    const QString chainId = assignment.left(equals).trimmed();
    const QString url = assignment.mid(equals + 1).trimmed();
    if (!knownChainIds().contains(chainId)) {
        *error = QStringLiteral("%1 is not a chain id of the spec (%2)")
                     .arg(chainId, knownChainIds().join(QStringLiteral(", ")));
        return false;
    }
    const QUrl parsed(url);
    if (!parsed.isValid() || parsed.host().isEmpty() ||
        (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https"))) {
        *error = QStringLiteral("%1 is not an http(s) URL").arg(url);
        return false;
    }
    setRpcUrl(chainId, url);
    return true;
}

} // namespace proofdesk::chain
