#pragma once

#include <zip.h>

#include <cstddef>
#include <string>

namespace proofdesk::test {

// A zip holding one entry of `size` zero bytes (it compresses about a thousand times).
inline std::string zipOfZeros(const char* name, std::size_t size) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &error);
    zip_source_keep(out);
    zip_t* archive = zip_open_from_source(out, ZIP_TRUNCATE, &error);
    static std::string zeros;
    zeros.assign(size, '\0');
    zip_source_t* entry = zip_source_buffer(archive, zeros.data(), zeros.size(), 0);
    zip_file_add(archive, name, entry, ZIP_FL_OVERWRITE);
    zip_close(archive);
    zip_source_open(out);
    zip_source_seek(out, 0, SEEK_END);
    const auto length = static_cast<std::size_t>(zip_source_tell(out));
    zip_source_seek(out, 0, SEEK_SET);
    std::string bytes(length, '\0');
    zip_source_read(out, bytes.data(), length);
    zip_source_close(out);
    zip_source_free(out);
    zip_error_fini(&error);
    return bytes;
}

} // namespace proofdesk::test
