#pragma once

#include "core/Store.h"

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
//
// On a shared store (a team's PostgreSQL: workers and front ends on several machines) every file
// is also kept in the store, in chunks of 1 MiB (artifact_blobs, artifact_chunks), written after
// the local file and before any row names it; a machine that lacks a file locally fetches it
// chunk by chunk into its own directory (never whole in memory) and checks its SHA-256 before
// using it. The directory is then a cache of the store.
class ArtifactStore {
public:
    explicit ArtifactStore(QString directory, core::Store* shared = nullptr);

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
    // Where the file is (or would be) in the local directory; call contains() first, which
    // fetches it from a shared store when only the store has it.
    QString pathOf(const std::string& sha256) const;
    bool contains(const std::string& sha256) const;

    static std::string sha256Of(const std::string& bytes);
    static std::string sha256OfFile(const std::string& path);

    // On a shared store: copies every local file the store lacks into it (`store copy`); the
    // number of files the directory holds.
    int publishAll();

    static constexpr qint64 kChunkBytes = 1 << 20;

private:
    bool inShared(const std::string& sha256) const;
    // Copies a local file into the shared store, unless it is there already.
    void publish(const std::string& sha256) const;
    // Fetches a file from the shared store into the directory; false when the store lacks it.
    bool fetch(const std::string& sha256) const;

    QString m_directory;
    core::Store* m_shared;
    std::mutex m_pinsMutex;
    std::map<std::string, int> m_pins;
};

} // namespace proofdesk::proof
