#pragma once

#include <QString>

#include <optional>
#include <string>

namespace proofdesk::proof {

// Content-addressed files under <data dir>/artifacts: uploads and pipeline outputs are stored once
// per SHA-256 and never change. A file is written to a temporary name, flushed to disk and renamed,
// so a crash never leaves a partial file under a digest.
class ArtifactStore {
public:
    explicit ArtifactStore(QString directory);

    // Stores the bytes (if not already there) and returns their SHA-256 (lower-case hex).
    std::string put(const std::string& bytes);
    // The same, for bytes whose SHA-256 the caller has computed already.
    void put(const std::string& bytes, const std::string& sha256);
    // The same for a file's content, copied in a block at a time (uploads streamed to disk).
    void putFile(const std::string& path, const std::string& sha256);
    std::optional<std::string> get(const std::string& sha256) const;
    QString pathOf(const std::string& sha256) const;
    bool contains(const std::string& sha256) const;

    static std::string sha256Of(const std::string& bytes);
    static std::string sha256OfFile(const std::string& path);

private:
    QString m_directory;
};

} // namespace proofdesk::proof
