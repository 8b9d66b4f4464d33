#pragma once

#include <QString>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::proof {

// Content-addressed files under <data dir>/artifacts: uploads and pipeline outputs are stored once
// per SHA-256 and never change. A file is written to a temporary name, flushed to disk and renamed,
// so a crash never leaves a partial file under a digest.
//
// A file stays until nothing names it: the rows that name a file are written after it, so a file
// being stored for rows not yet committed is pinned meanwhile (`Pin`), and removeUnlessPinned
// (the collector's, ArtifactCollector) never takes a pinned file.
class ArtifactStore {
public:
    explicit ArtifactStore(QString directory);

    // While a pin lives, its file is not removed. Take it before storing: a removal that raced
    // the store then either ran before (and the file is written again) or sees the pin.
    using Pin = std::shared_ptr<const void>;
    [[nodiscard]] Pin pin(const std::string& sha256);

    // Stores the bytes (if not already there) and returns their SHA-256 (lower-case hex).
    std::string put(const std::string& bytes);
    // The same, for bytes whose SHA-256 the caller has computed already; true when this call
    // created the file.
    bool put(const std::string& bytes, const std::string& sha256);
    // The same for a file's content, copied in a block at a time (uploads streamed to disk).
    bool putFile(const std::string& path, const std::string& sha256);
    // Removes a stored file unless it is pinned. True when it is gone.
    bool removeUnlessPinned(const std::string& sha256);
    // Every stored file: its digest, size and age in seconds.
    struct Stored {
        std::string sha256;
        qint64 size = 0;
        qint64 ageSeconds = 0;
    };
    std::vector<Stored> list() const;
    std::optional<std::string> get(const std::string& sha256) const;
    QString pathOf(const std::string& sha256) const;
    bool contains(const std::string& sha256) const;

    static std::string sha256Of(const std::string& bytes);
    static std::string sha256OfFile(const std::string& path);

private:
    QString m_directory;
    std::mutex m_pinsMutex;
    std::map<std::string, int> m_pins;
};

} // namespace proofdesk::proof
