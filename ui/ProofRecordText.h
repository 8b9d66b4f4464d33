#pragma once

#include "api/ProofWire.h"

#include <nlohmann/json.hpp>

#include <QString>

namespace proofdesk::ui {

// The console's wording of a proof job's state and artifacts (rich text where it says so), kept
// apart from the page that shows it.

// The query's steps as a timeline (rich text): done, current (failed or running), to come.
QString stepsTimelineText(const api::ProofQuery& query);
// The fact the query registers: its Integrity fact on L2, its SHARP fact elsewhere (empty before
// it has one).
QString registeredFactHash(const api::ProofQuery& query);
// "SHARP fact 0x… (mocked)" or, on L2, "Integrity fact 0x…", with where it is registered; or
// that there is none yet.
QString factHashText(const api::ProofQuery& query);
// Both of the query's facts and what each one is (plain text, for a tooltip): the Integrity
// fact is of the program run as the one task of SHARP's bootloader, which is why it differs
// from the Integrity fact a verifier reads off a proof of the program itself.
QString factHashesExplained(const api::ProofQuery& query);
// What the Verify panel's Integrity fact is, beside a record's (plain text).
QString proofIntegrityFactExplained();
// A program's output words (hex strings) as cairo-run prints them: decimal, joined by ", " (a
// word that does not read as a felt stays as it is).
QString outputText(const nlohmann::json& words);
// 75 -> "1:15", 4000 -> "1:06:40".
QString durationText(double seconds);
// "Proving: fri — 42% · 1:15 elapsed · about 0:40 left" (plain text).
QString progressText(const api::ProofProgress& progress);
// How a proof was made, from metadata.json's "proof" object (rich text): our prover with its
// parameters and security, a mock proof said as such, or another prover named.
QString proofOriginText(const nlohmann::json& proof);
// The verdict of the query's verification.json (rich text).
QString serverVerdictText(const nlohmann::json& verdict);
// The verdict of a proof artifact checked on this machine (rich text).
QString localVerdictText(const nlohmann::json& verdict);

} // namespace proofdesk::ui
