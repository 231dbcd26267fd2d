#pragma once
/// @file
/// The sources' claims on a sheet: all of them in one summary table under the title (what the
/// source says, what this GPU gives, the verdict, the section that shows it), then each again
/// with its reason under the question whose experiments it compares.
#include <string>
#include <vector>

#include "citations.h"
#include "claim_verdict.h"
#include "lab_data.h"
#include "sheet.h"

namespace labbook::report {

/// A section of the sheet a claim can belong to: its heading and the experiments it shows
/// (a sweep's "<group>/<parameter>=" prefixes count as experiments that start with them).
struct ClaimHome {
  std::string heading;
  std::vector<std::string> experiments;
  std::vector<std::string> prefixes = {};
  bool shows(const std::string& experiment) const;
};

struct JudgedClaim {
  const Claim* claim = nullptr;
  ClaimOutcome outcome;
  int citation = 0;   ///< its number in the references
  int home = -1;      ///< index into the homes, -1 for none
};

/// Every claim of the lab decided on `m`, each placed in the first home that shows one of the
/// experiments it compares.
std::vector<JudgedClaim> judge_claims(const LabData& lab, const Measurement& m, Citations& citations,
                                      const std::vector<ClaimHome>& homes);

/// A verdict as a badge and its word ("✓ holds"), the same in every table that shows one.
Text verdict_text(Verdict verdict);

/// The summary table (and every claim in the sheet's JSON).
void add_claims_summary(Sheet& sheet, const LabData& lab, const std::vector<JudgedClaim>& claims,
                        const std::vector<ClaimHome>& homes, const std::string& measured_title);

/// The claims placed in `home` (-1: those without one), each with its verdict's reason.
void add_claims_of(Sheet& sheet, const std::vector<JudgedClaim>& claims, int home);

}  // namespace labbook::report
