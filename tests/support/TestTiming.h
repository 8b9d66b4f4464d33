#pragma once

// Deadlines of tests that wait on a server's work. Sanitizer builds run that work several times
// slower (and CI runs two such suites side by side), so their deadlines stretch accordingly; a
// deadline still ends every wait, it is only longer where the code is slower.

namespace proofdesk::test {

#if defined(PROOFDESK_ADDRESS_SANITIZER)
constexpr int kSlowdown = 5;
#else
constexpr int kSlowdown = 1;
#endif

// `milliseconds` as a wait on the server's work needs it in this build.
constexpr int scaledDeadline(int milliseconds) {
    return milliseconds * kSlowdown;
}

} // namespace proofdesk::test
