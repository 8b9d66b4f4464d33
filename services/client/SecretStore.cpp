#include "SecretStore.h"

#include <qt6keychain/keychain.h>

#include <QPointer>
#include <QTimer>

namespace proofdesk::client {
namespace {

QString unavailableAdvice(const QString& detail) {
    return QObject::tr("The OS keychain is not available (%1). Proofdesk keeps wallet keys and "
                       "sessions only there: start a Secret Service provider such as GNOME "
                       "Keyring or KWallet, or sign in with an external signer.")
        .arg(detail);
}

// Runs a QtKeychain job and turns its outcome into a SecretAnswer.
void runJob(QKeychain::Job* job, QObject* context, SecretCallback done,
            std::function<QString(QKeychain::Job*)> valueOf) {
    QPointer<QObject> guard(context);
    QObject::connect(
        job, &QKeychain::Job::finished, job,
        [guard, done = std::move(done), valueOf = std::move(valueOf)](QKeychain::Job* finished) {
            if (!guard) {
                return;
            }
            SecretAnswer answer;
            switch (finished->error()) {
            case QKeychain::NoError:
                answer.value = valueOf ? valueOf(finished) : QString();
                break;
            case QKeychain::EntryNotFound:
                answer.status = SecretStatus::NotFound;
                break;
            default:
                answer.status = SecretStatus::Unavailable;
                answer.error = unavailableAdvice(finished->errorString());
                break;
            }
            done(answer);
        });
    job->setAutoDelete(true);
    job->start();
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString serviceName, QObject* parent)
    : SecretStore(parent), m_service(std::move(serviceName)) {}

void KeychainSecretStore::read(const QString& key, QObject* context, SecretCallback done) {
    auto* job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setInsecureFallback(false);
    job->setKey(key);
    runJob(job, context, std::move(done), [](QKeychain::Job* finished) {
        return static_cast<QKeychain::ReadPasswordJob*>(finished)->textData();
    });
}

void KeychainSecretStore::write(const QString& key, const QString& value, QObject* context,
                                SecretCallback done) {
    auto* job = new QKeychain::WritePasswordJob(m_service, this);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->setTextData(value);
    runJob(job, context, std::move(done), {});
}

void KeychainSecretStore::remove(const QString& key, QObject* context, SecretCallback done) {
    auto* job = new QKeychain::DeletePasswordJob(m_service, this);
    job->setInsecureFallback(false);
    job->setKey(key);
    runJob(job, context, std::move(done), {});
}

MemorySecretStore::MemorySecretStore(bool available, QObject* parent)
    : SecretStore(parent), m_available(available) {}

void MemorySecretStore::answer(QObject* context, SecretCallback done, SecretAnswer result) {
    if (!m_available) {
        result = {SecretStatus::Unavailable, {}, unavailableAdvice(QStringLiteral("test seam"))};
    }
    // Asynchronous like the keychain: the caller's callback never runs inside its own call.
    QPointer<QObject> guard(context);
    QTimer::singleShot(0, this, [guard, done = std::move(done), result] {
        if (guard) {
            done(result);
        }
    });
}

void MemorySecretStore::read(const QString& key, QObject* context, SecretCallback done) {
    const auto found = m_entries.constFind(key);
    answer(context, std::move(done),
           found == m_entries.constEnd() ? SecretAnswer{SecretStatus::NotFound, {}, {}}
                                         : SecretAnswer{SecretStatus::Ok, *found, {}});
}

void MemorySecretStore::write(const QString& key, const QString& value, QObject* context,
                              SecretCallback done) {
    if (m_available) {
        m_entries.insert(key, value);
    }
    answer(context, std::move(done), {});
}

void MemorySecretStore::remove(const QString& key, QObject* context, SecretCallback done) {
    const bool existed = m_available && m_entries.remove(key) > 0;
    answer(context, std::move(done),
           existed ? SecretAnswer{} : SecretAnswer{SecretStatus::NotFound, {}, {}});
}

} // namespace proofdesk::client
