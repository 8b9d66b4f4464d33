#pragma once

#include <cstddef>
#include <string_view>

namespace proofdesk::cairo {

// A Python module shipped inside the binary (resources/python, embedded at build time by
// EmbedPythonSources.cmake), so Python hints import it without any file on disk.
struct PythonSource {
    const char* name; // dotted module name
    const char* text;
    std::size_t size;
    bool isPackage; // an __init__.py
};

// The shipped module of that name, or nullptr.
const PythonSource* findPythonSource(std::string_view module);

} // namespace proofdesk::cairo
