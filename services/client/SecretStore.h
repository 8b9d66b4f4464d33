#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace proofdesk::client {

enum class SecretStatus { Ok, NotFound, Unavailable };

struct SecretAnswer {
    SecretStatus status = SecretStatus::Ok;
    QString value; // when Ok and reading
    QString error; // when Unavailable: what the user should know
};
using SecretCallback = std::function<void(SecretAnswer)>;

// Where the console keeps secrets (wallet private keys, the refresh token, the active API key):
// asynchronous, with no plain-file fallback. Callbacks run on the GUI thread unless `context` is
// gone.
class SecretStore : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void read(const QString& key, QObject* context, SecretCallback done) = 0;
    virtual void write(const QString& key, const QString& value, QObject* context,
                       SecretCallback done) = 0;
    virtual void remove(const QString& key, QObject* context, SecretCallback done) = 0;
};

// The OS keychain through QtKeychain (Secret Service, macOS Keychain, Windows Credential Store),
// entries under one service name. A missing keychain is reported as Unavailable with advice,
// never papered over with an insecure fallback.
class KeychainSecretStore : public SecretStore {
    Q_OBJECT
public:
    explicit KeychainSecretStore(QString serviceName, QObject* parent = nullptr);
    void read(const QString& key, QObject* context, SecretCallback done) override;
    void write(const QString& key, const QString& value, QObject* context,
               SecretCallback done) override;
    void remove(const QString& key, QObject* context, SecretCallback done) override;

private:
    QString m_service;
};

// In memory, for tests (the seam that stands in for the keychain) and nothing else. `available`
// false makes every call answer Unavailable, as a machine without a keychain does.
class MemorySecretStore : public SecretStore {
    Q_OBJECT
public:
    explicit MemorySecretStore(bool available = true, QObject* parent = nullptr);
    void read(const QString& key, QObject* context, SecretCallback done) override;
    void write(const QString& key, const QString& value, QObject* context,
               SecretCallback done) override;
    void remove(const QString& key, QObject* context, SecretCallback done) override;
    const QHash<QString, QString>& entries() const { return m_entries; }

private:
    void answer(QObject* context, SecretCallback done, SecretAnswer answer);

    bool m_available;
    QHash<QString, QString> m_entries;
};

} // namespace proofdesk::client
